"""The fleet report as Markdown and as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from ..model import Identity, display
from ..platform.board import BoardProfile
from ..words import counted
from . import corroboration, fleet


def describe(identity: Identity) -> str:
    return ", ".join(f"{k}={v}" for k, v in identity.items if k != "tool" and v is not None)


def _value(value: float, unit: str) -> str:
    text, shown = display(value, unit)
    return f"{text} {shown}"


def ranked_section(key: tuple[str, str, Identity], group: Sequence[fleet.FleetEntry],
                   profiles: dict[str, BoardProfile], measured_clock: bool) -> list[str]:
    metric, unit, identity = key
    lines = [f"### {metric} ({describe(identity)})", ""]
    if unit == "s":
        rows = fleet.compile_rows(group, profiles, measured_clock)
        best_ghz = min((r.core_ghz_seconds for r in rows if r.core_ghz_seconds), default=None)
        lines += ["| # | board | mean time | vs best | cores | core-seconds | clock (GHz) | "
                  "core-GHz-seconds | per core per GHz vs best | measured with |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            ghz = f"{r.mhz / 1000:.2f}" if r.mhz else "n/a"
            cgs = f"{r.core_ghz_seconds:.1f}" if r.core_ghz_seconds else "n/a"
            rel = f"{r.core_ghz_seconds / best_ghz:.3f}x" if r.core_ghz_seconds and best_ghz \
                else "n/a"
            lines.append(f"| {r.rank} | {r.board} | {r.seconds:.2f} s | {r.vs_best:.2f}x | "
                         f"{r.cores or 'n/a'} | {r.core_seconds or 0:.1f} | {ghz} | {cgs} | "
                         f"{rel} | {r.tool} |")
        clocks = sorted({r.clock_source for r in rows})
        lines += ["", f"Clock used for per-GHz figures: {'; '.join(clocks)}."]
    else:
        lines += ["| # | board | mean | vs best | measured with |", "|---|---|---|---|---|"]
        for rank, e, vs in fleet.ranking(group):
            lines.append(f"| {rank} | {e.board} | {_value(e.value, unit)} | {vs:.2f}x | "
                         f"{fleet.tool_label(e)} |")
    return [*lines, ""]


def gap_section(family: dict[str, dict[str, fleet.FleetEntry]], identity: Identity,
                vs: str | None) -> list[str]:
    reference = fleet.reference_board(family, vs)
    if reference is None or len(family) < 2:
        return []
    lines = [f"### Gaps to {reference} ({describe(identity)})", ""]
    for board in sorted(b for b in family if b != reference):
        rows = fleet.gaps(family, board, reference)
        control = next((r for r in rows if r.metric == fleet.CONTROL), None)
        lines += [f"**{board}** vs {reference}"
                  + (f": control {fleet.CONTROL} {control.gap:.2f}x is the core itself" if control
                     else ": no control metric"), "",
                  "| metric | " + board + " | " + reference + " | gap | instruction-set factor |",
                  "|---|---|---|---|---|"]
        for r in rows:
            isa = f"{r.isa_factor:.2f}x" if r.isa_factor is not None else "n/a"
            lines.append(f"| {r.metric} | {_value(r.value, 'B/s')} | "
                         f"{_value(r.reference, 'B/s')} | {r.gap:.2f}x | {isa} |")
        lines.append("")
    return lines


def cipher_section(families: dict[Identity, dict[str, dict[str, fleet.FleetEntry]]]) -> list[str]:
    lines = ["## Cipher preference (ChaCha20-Poly1305 vs AES-128-GCM)", "",
             "| board | table | prefer | by |", "|---|---|---|---|"]
    found = False
    for identity, family in families.items():
        for board, metrics in sorted(family.items()):
            pref = fleet.cipher_preference(metrics)
            if pref:
                found = True
                lines.append(f"| {board} | {describe(identity)} | {pref[0]} | {pref[1]:.2f}x |")
    return [*lines, ""] if found else []


def corroboration_section(found: Sequence[corroboration.Corroboration]) -> list[str]:
    """One board against one core by two independent workloads, and whether they agree."""
    if not found:
        return []
    limit = f"{corroboration.AGREEMENT:.0%}"
    lines = ["## Corroboration (one core, two independent workloads)", "",
             "A board against a CPU core twice: the multi-core compile against a board made "
             "only of that core with as many cores, and the single-thread "
             f"{fleet.CONTROL} control (no board accelerates it) against a board whose fastest "
             f"core it is. The two ratios agree when the larger is at most {limit} above the "
             "smaller: then the gap is the core's, not one workload's.", "",
             "| board | core | compile | slower | control | slower | apart | agree |",
             "|---|---|---|---|---|---|---|---|"]
    for c in found:
        lines.append(f"| {c.board} | {c.core} | {_pair(c.compile)} | {c.compile.slower:.2f}x | "
                     f"{_pair(c.control)} | {c.control.slower:.2f}x | {c.spread:.1%} | "
                     f"{'yes' if c.agree else 'no'} |")
    lines.append("")
    for c in found:
        verdict = (f"they agree ({c.spread:.1%} apart, within {limit}): the figure is the "
                   "core's" if c.agree else
                   f"they disagree ({c.spread:.1%} apart, more than {limit}): one workload "
                   "measures more than the core")
        lines.append(f"- {c.board} is {c.compile.slower:.2f}x slower than {c.compile.reference} "
                     f"on {c.compile.workload} ({_shown(c.compile.value, 's')} vs "
                     f"{_shown(c.compile.reference_value, 's')}) and {c.control.slower:.2f}x "
                     f"behind {c.control.reference}'s {c.core} on {c.control.workload} "
                     f"({_value(c.control.value, 'B/s')} vs "
                     f"{_value(c.control.reference_value, 'B/s')}): {verdict}.")
    return [*lines, ""]


def _pair(ratio: corroboration.Ratio) -> str:
    return (f"{_shown(ratio.value, ratio.unit)} vs {_shown(ratio.reference_value, ratio.unit)} "
            f"({ratio.reference})")


def _shown(value: float, unit: str) -> str:
    """Build times as the compile table prints them (461.28 s), throughputs by display."""
    return f"{value:.2f} s" if unit == "s" else _value(value, unit)


def render(entries: Sequence[fleet.FleetEntry], profiles: dict[str, BoardProfile],
           vs: str | None = None, measured_clock: bool = False) -> str:
    all_groups = fleet.groups(entries)
    ranked = {k: g for k, g in all_groups.items() if len(g) > 1}
    single = {k: g for k, g in all_groups.items() if len(g) == 1}
    lines = ["# Fleet report", "",
             f"{counted(len(entries), 'result')} from "
             f"{counted(len({e.board for e in entries}), 'machine')}; values are means of "
             "each result's runs, as the published tables rank (the terminal shows medians; a "
             "published figure is often one run); ranked only among the same "
             "measurement (workload, algorithm, block size, threads; "
             "for builds the tree, commit and fingerprint), whoever measured it.", "",
             "## Rankings", ""]
    for key in sorted(ranked, key=lambda k: (k[0], describe(k[2]))):
        lines += ranked_section(key, ranked[key], profiles, measured_clock)
    families = fleet.crypto_families(entries)
    lines += ["## Crypto gaps, split by the control", ""]
    for identity, family in families.items():
        lines += gap_section(family, identity, vs)
    lines += corroboration_section(corroboration.corroborations(entries, profiles))
    lines += cipher_section(families)
    lines += ["## Not ranked (no other machine with the same identity)", ""]
    for (metric, unit, identity), group in sorted(single.items(), key=lambda i: i[0][0]):
        e = group[0]
        lines.append(f"- {e.board}: {metric} {_value(e.value, unit)} ({describe(identity)}; "
                     f"{fleet.tool_label(e)})")
    return "\n".join(lines) + "\n"


def as_json(entries: Sequence[fleet.FleetEntry], profiles: dict[str, BoardProfile],
            vs: str | None = None, measured_clock: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"rankings": [], "gaps": [], "cipher_preference": [],
                           "corroboration": [
                               {**asdict(c), "apart": c.spread, "agree": c.agree,
                                "agreement": corroboration.AGREEMENT}
                               for c in corroboration.corroborations(entries, profiles)]}
    for (metric, unit, identity), group in fleet.groups(entries).items():
        if len(group) < 2:
            continue
        item: dict[str, Any] = {"metric": metric, "unit": unit, "identity": identity.as_dict(),
                                "rows": [{"rank": r, "board": e.board, "value": e.value,
                                          "vs_best": v, "tool": fleet.tool_label(e),
                                          "identity": e.result.measurement.identity.as_dict()}
                                         for r, e, v in fleet.ranking(group)]}
        if unit == "s":
            item["compile"] = [asdict(r) for r in fleet.compile_rows(group, profiles,
                                                                      measured_clock)]
        out["rankings"].append(item)
    for identity, family in fleet.crypto_families(entries).items():
        ref = fleet.reference_board(family, vs)
        for board in sorted(b for b in family if ref and b != ref):
            out["gaps"].append({"board": board, "reference": ref, "table": identity.as_dict(),
                                "rows": [asdict(r) for r in fleet.gaps(family, board, ref or "")]})
        for board, metrics in sorted(family.items()):
            pref = fleet.cipher_preference(metrics)
            if pref:
                out["cipher_preference"].append({"board": board, "prefer": pref[0],
                                                 "ratio": pref[1]})
    return out
