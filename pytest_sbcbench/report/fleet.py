"""Fleet comparison: where a board lands among others, and why.

Results are ranked only within a group of the same comparable identity (:func:`rank_identity`:
workload, algorithm, block size, threads; for builds the tree's name, commit and fingerprint);
anything else is listed separately, never mixed.  Who measured it (a live openssl 3.0.19, a
published table) is not part of that key but is shown beside every number (:func:`tool_label`).
Crypto gaps are split with a control metric that no board accelerates (sha512):
gap = core factor x instruction-set factor."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import Identity, Result
from ..platform.board import BoardProfile
from .results import load_results

CONTROL = "sha512"
CIPHERS = ("chacha20-poly1305", "aes-128-gcm")


@dataclass(frozen=True)
class FleetEntry:
    """One result of one board in a fleet report."""

    board: str
    result: Result
    environment: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> float:
        """The mean of the runs, as the seeds rank (their fleet table is "mean of three");
        the fleet report says so (the terminal and the before/after view show medians)."""
        return self.result.summary.mean


def load_fleet(paths: Iterable[Path]) -> list[FleetEntry]:
    out = []
    for path in paths:
        loaded = load_results(path)
        out += [FleetEntry(loaded.board, r, loaded.environment) for r in loaded.results]
    return out


# Who measured and for how long: shown beside the number, never a reason not to rank.
# ``source`` tags which published document a figure came from; ``library``/``toolchain`` are
# versions; ``tier``, ``lockfile`` and ``lock_sha256`` restate what commit and crates say.
PROVENANCE_KEYS = frozenset({"tool", "version", "seconds", "source", "library", "toolchain",
                             "tier", "lockfile", "lock_sha256", "repository"})
SHORT_SHA = 7  # published build tables name commits by their 7-character short SHA


def workload_name(values: dict[str, Any]) -> str:
    """The workload a live identity measured, in the published tables' words: ``openssl speed
    -evp`` for a throughput at a block size, ``openssl speed`` for sign/verify rates, the
    tree's name for a build, else the tool (and its own workload label)."""
    tool = str(values.get("tool"))
    if "workload" in values:
        given = str(values["workload"])
        return given if tool == "published" else f"{tool} {given}"
    if "repository" in values:
        return str(values["repository"]).rstrip("/").rsplit("/", 1)[-1] \
            .removeprefix("local:").removesuffix(".git")
    if tool == "openssl" and "algorithm" in values:
        return "openssl speed -evp" if "block_bytes" in values else "openssl speed"
    return tool


def rank_identity(identity: Identity) -> Identity:
    """The keys that decide whether two numbers are the same measurement on different machines:
    the workload, then everything but provenance (algorithm, op, block size, threads, commit,
    files, loc, crates, build command...).  A commit is cut to its short SHA; the default job
    count is dropped (the published tables ran cargo's default)."""
    values = identity.as_dict()
    out: dict[str, Any] = {k: v for k, v in values.items() if k not in PROVENANCE_KEYS}
    out["workload"] = workload_name(values)
    if isinstance(out.get("commit"), str):
        out["commit"] = out["commit"][:SHORT_SHA]
    if out.get("jobs") == "default":
        del out["jobs"]
    return Identity.from_mapping(out)


def tool_label(entry: FleetEntry) -> str:
    """Who produced the number: ``openssl 3.0.19``; ``published (openssl 1.0.0i)``."""
    values = entry.result.measurement.identity.as_dict()
    tool = str(values.get("tool") or "unknown tool")
    if tool == "published":
        openssl = entry.environment.get("openssl")
        return f"published (openssl {openssl})" if openssl and "openssl" in str(
            values.get("workload")) else "published"
    version = values.get("version") or values.get("toolchain")
    return f"{tool} {version}" if version else tool


def group_key(result: Result) -> tuple[str, str, Identity]:
    m = result.measurement
    return (m.metric, m.unit, rank_identity(m.identity))


def groups(entries: Sequence[FleetEntry]) -> dict[tuple[str, str, Identity], list[FleetEntry]]:
    out: dict[tuple[str, str, Identity], list[FleetEntry]] = {}
    for e in entries:
        out.setdefault(group_key(e.result), []).append(e)
    return out


def ranking(group: Sequence[FleetEntry]) -> list[tuple[int, FleetEntry, float]]:
    """(rank, entry, x vs best) with the best first, by the metric's direction."""
    lower = group[0].result.measurement.better == "lower"
    ordered = sorted(group, key=lambda e: e.value if lower else -e.value)
    best = ordered[0].value
    return [(i + 1, e, (e.value / best) if lower else (best / e.value))
            for i, e in enumerate(ordered)]


def clock_mhz(entry: FleetEntry, profiles: dict[str, BoardProfile], measured: bool = False
              ) -> tuple[float | None, str]:
    """The clock for per-GHz figures: the all-core sustained maximum by default (the
    i5-2435M's 2.8 GHz two-core turbo, the Pi 5's 2.4 GHz), or the measured under-load median."""
    if measured:
        clock = (entry.result.telemetry.get("clock_mhz") or {}).get("median")
        if clock:
            return float(clock), "measured under load"
    if entry.environment.get("sustained_mhz"):
        return float(entry.environment["sustained_mhz"]), "all-core sustained max"
    profile = profiles.get(entry.board)
    if profile is not None:
        if profile.facts.get("all_core_turbo_mhz"):
            return float(profile.facts["all_core_turbo_mhz"]), "all-core sustained max"
        tops = {c.max_mhz for c in profile.clusters if c.max_mhz}
        if len(tops) == 1:
            return float(tops.pop()), "all-core sustained max"
    return None, "unknown (mixed clusters or not stated)"


def cores(entry: FleetEntry, profiles: dict[str, BoardProfile]) -> int | None:
    env = entry.environment
    if env.get("physical_cores"):
        return int(env["physical_cores"])
    profile = profiles.get(entry.board)
    return profile.cores if profile is not None else None


@dataclass(frozen=True)
class CompileRow:
    rank: int
    board: str
    seconds: float
    vs_best: float
    cores: int | None
    core_seconds: float | None
    mhz: float | None
    clock_source: str
    core_ghz_seconds: float | None
    tool: str = ""


def compile_rows(group: Sequence[FleetEntry], profiles: dict[str, BoardProfile],
                 measured_clock: bool = False) -> list[CompileRow]:
    rows = []
    for rank, e, vs in ranking(group):
        n = cores(e, profiles)
        mhz, source = clock_mhz(e, profiles, measured_clock)
        core_s = e.value * n if n else None
        rows.append(CompileRow(rank, e.board, e.value, vs, n, core_s, mhz, source,
                               core_s * mhz / 1000 if core_s and mhz else None, tool_label(e)))
    return rows


def family_key(identity: Identity) -> Identity:
    """The identity without the algorithm and op: one crypto table."""
    return Identity.from_mapping({k: v for k, v in identity.as_dict().items()
                                  if k not in ("algorithm", "op")})


def crypto_families(entries: Sequence[FleetEntry]
                    ) -> dict[Identity, dict[str, dict[str, FleetEntry]]]:
    """family -> board -> metric label -> entry, for throughput results (B/s)."""
    out: dict[Identity, dict[str, dict[str, FleetEntry]]] = {}
    for e in entries:
        m = e.result.measurement
        if m.unit != "B/s" or "algorithm" not in m.identity.as_dict():
            continue
        family = family_key(rank_identity(m.identity))
        out.setdefault(family, {}).setdefault(e.board, {})[m.metric] = e
    return out


@dataclass(frozen=True)
class GapRow:
    metric: str
    value: float
    reference: float
    gap: float
    isa_factor: float | None


def reference_board(family: dict[str, dict[str, FleetEntry]], vs: str | None) -> str | None:
    if vs is not None:
        return vs if vs in family else None
    with_control = [b for b, m in family.items() if CONTROL in m]
    if not with_control:
        return None
    return max(with_control, key=lambda b: family[b][CONTROL].value)


def gaps(family: dict[str, dict[str, FleetEntry]], board: str, reference: str) -> list[GapRow]:
    """reference / board per metric, and that gap divided by the control's gap."""
    mine, ref = family[board], family[reference]
    control = ref[CONTROL].value / mine[CONTROL].value if CONTROL in mine and CONTROL in ref \
        else None
    rows = []
    for metric in sorted(set(mine) & set(ref)):
        gap = ref[metric].value / mine[metric].value
        rows.append(GapRow(metric, mine[metric].value, ref[metric].value, gap,
                           gap / control if control else None))
    return rows


def cipher_preference(metrics: dict[str, FleetEntry]) -> tuple[str, float] | None:
    """ChaCha20-Poly1305 or AES-128-GCM, and how many times faster the preferred one is."""
    if not all(c in metrics for c in CIPHERS):
        return None
    chacha, aes = (metrics[c].value for c in CIPHERS)
    return ("chacha20-poly1305", chacha / aes) if chacha > aes else ("aes-128-gcm", aes / chacha)
