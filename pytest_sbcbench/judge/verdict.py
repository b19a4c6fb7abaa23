"""Verdicts: a result against its baseline entry (or the lack of one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import Result, Verdict
from .baseline import Baseline, Entry, quick_mode_hint
from .gate import gate

MACHINE_KEYS = ("cpu_model", "cpus")

SAVE_HINT = "record one with --sbc-save-baseline"


def no_baseline(board: str) -> Verdict:
    return Verdict("no-baseline", f"no baseline for board {board}; {SAVE_HINT}")


def other_machine(entry: Entry, machine: Mapping[str, Any] | None) -> str | None:
    """Why the baseline's latest session was measured on another machine, if it was."""
    if not machine:
        return None
    then = entry.sessions[-1].environment
    diffs = [f"{k}: baseline {then[k]!r}, this run {machine.get(k)!r}" for k in MACHINE_KEYS
             if k in then and machine.get(k) is not None and then[k] != machine.get(k)]
    return "; ".join(diffs) or None


def judge(result: Result, baseline: Baseline | None, board: str,
          machine: Mapping[str, Any] | None = None) -> Verdict:
    """pass / regression / improvement against the same identity; incomparable otherwise."""
    m = result.measurement
    slot = baseline.slot(result.test, m.metric) if baseline else []
    if not slot:
        return no_baseline(board)
    same = [e for e in slot if e.identity == m.identity]
    if not same:
        latest = slot[-1]
        keys = m.identity.differing_keys(latest.identity)
        mine, theirs = m.identity.as_dict(), latest.identity.as_dict()
        detail = ", ".join(f"{k}: baseline {theirs.get(k)!r}, this run {mine.get(k)!r}"
                           for k in keys)
        return Verdict("incomparable", f"{m.display_name}: identity differs from the baseline "
                                       f"({detail}); re-baseline with --sbc-save-baseline"
                                       f"{quick_mode_hint(keys)}")
    entry = same[0]
    moved = other_machine(entry, machine)
    if moved:
        return Verdict("incomparable", f"{m.display_name}: the baseline was measured on another "
                                       f"machine ({moved})")
    if entry.better != m.better:
        return Verdict("incomparable", f"{m.display_name}: baseline says better={entry.better}, "
                                       f"this run better={m.better}")
    outcome = gate([s.samples for s in entry.sessions], m.samples, m.better)
    detail = outcome.line(m.display_name, m.unit)
    if outcome.status == "improvement":
        detail += "; faster than the baseline beyond noise: re-baseline with --sbc-save-baseline"
    return Verdict(outcome.status, detail)
