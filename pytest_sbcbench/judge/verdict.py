"""Verdicts: the one judging pipeline (physics, validity, baseline) used by the plugin,
``sbcbench compare`` and ``sbcbench validate``.

:func:`judge_result` judges a result as it is written to the results JSON: telemetry with the
workload's details merged in (a storage read carries its interface ceiling), so a results file
judged later gets the verdict the run gave."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import Result, Verdict
from ..platform.board import BoardProfile
from . import physics
from .baseline import Baseline, Entry, quick_mode_hint
from .gate import gate
from .validity import HOST_NOISE, Finding

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


@dataclass(frozen=True)
class JudgeContext:
    """What a result is judged against: the board (physics limits; ``None`` when unknown, so
    only the limits the result itself carries apply), the baseline, the machine that ran
    (``cpu_model``, ``cpus``: a baseline from another machine is incomparable), the validity
    findings of the run, and ``--sbc-strict``."""

    board_name: str
    board: BoardProfile | None = None
    baseline: Baseline | None = None
    machine: Mapping[str, Any] | None = None
    findings: Sequence[Finding] = field(default_factory=tuple)
    strict: bool = False


def unknown_board(name: str) -> BoardProfile:
    """A profile with no limits, for a board no profile describes."""
    return BoardProfile(name=name, title=name, soc="unknown", arch="unknown", clusters=())


def judge_result(result: Result, context: JudgeContext) -> Verdict:
    """``implausible`` when a number beats physics; ``invalid`` under strict when the run had
    findings; else the baseline gate's verdict."""
    implausible = physics.check(result, context.board or unknown_board(context.board_name))
    if implausible is not None:
        return implausible
    if context.findings and context.strict:
        return Verdict("invalid", "; ".join(f.detail for f in context.findings))
    return judge(result, context.baseline, context.board_name, context.machine)


def failure_message(verdict: Verdict, found: Sequence[Finding],
                    allow_incomparable: bool) -> str | None:
    """The line a failing verdict fails its test with (``None``: the test passes)."""
    if verdict.status == "implausible":
        return f"implausible: {verdict.detail}"
    if verdict.status == "invalid":
        return f"invalid run (--sbc-strict): {verdict.detail}"
    if verdict.status == "regression":
        noisy = [f.kind for f in found if f.kind in HOST_NOISE]
        hint = (f" (this run had {', '.join(noisy)}: rerun on a quiet machine before "
                "believing it)") if noisy else ""
        return f"regression: {verdict.detail}{hint}"
    if verdict.status == "incomparable" and not allow_incomparable:
        return f"incomparable (--sbc-allow-incomparable to pass): {verdict.detail}"
    return None
