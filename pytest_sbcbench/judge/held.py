"""A metric whose every baseline session is quarantined or dropped: the numbers are in the
baseline but judge nothing, and a run against them never passes as if there were no baseline
(a loaded machine's baseline, all of it quarantined, then a run 93% slower judged
``no-baseline`` and exit 0).  Its verdict is ``no-baseline`` saying so, which fails the test
(``cannot judge``) and ends the run with exit 4 (cannot gate), in ``sbcbench compare`` too,
saying how to use the sessions if they are sound (``sbcbench baseline restore``) or to record
the baseline again on a quiet machine."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Measurement, Verdict
from ..words import counted
from .baseline import Baseline, BaselineEntry

NO_USABLE = "no usable baseline"  # how such a verdict's line begins


def unusable(m: Measurement, held: Sequence[BaselineEntry], baseline: Baseline) -> Verdict:
    """``no-baseline`` for a metric whose every baseline session is quarantined or dropped: the
    numbers are there but judge nothing (a run never passes as if there were none: it fails,
    exit 4), saying why they are held and what to do."""
    where = baseline.path or f"the baseline of {baseline.board}"
    whys = list(dict.fromkeys(s.why for e in held for s in e.stored if s.why))
    why = f" ({whys[-1]})" if whys else ""
    fix = ("record that reference again on a quiet machine, or give a baseline file"
           if baseline.from_results else
           f"if they are sound, use them with 'sbcbench baseline restore {where} SESSION' "
           f"('sbcbench baseline list {where}' numbers the sessions); else record the "
           "baseline again on a quiet machine (--sbc-save-baseline)")
    count = sum(len(e.stored) for e in held)
    every = "its 1 session" if count == 1 else f"all {counted(count, 'session')} of it"
    return Verdict("no-baseline", f"{NO_USABLE} for {m.display_name}: {every} in {where} "
                                  f"{'is' if count == 1 else 'are'} quarantined or dropped{why}, "
                                  f"and nothing is judged against such numbers; {fix}")


def cannot_judge(verdict: Verdict) -> bool:
    """A ``no-baseline`` verdict of a metric whose baseline sessions are all held
    (:func:`unusable`): never a pass, whatever the mode (exit 4, cannot gate)."""
    return verdict.status == "no-baseline" and verdict.detail.startswith(NO_USABLE)
