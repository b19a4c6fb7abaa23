"""The bisect's procedure (issue 30), independent of git and of the board: the ends, the steps,
the confirmation, on a :class:`Bisector` (git bisect, or the simulation's) and a :class:`BootBench`
(build, boot and run the suite; or the simulation's draws).

1. **Ends**: the good and the bad end, ``ENDS_START`` boots each, interleaved, one more each
   while undecided (up to the budget); the metric is the one whose drop between the ends is
   clearest (``--metric`` narrows the choice).  Their difference and noise size every step.
2. **Steps**: the commit git bisect picks gets the boots the ends say a step needs, judged
   against both ends (:func:`~pytest_sbcbench.judge.bisect_rule.judge_step`); boots are added
   while undecided, up to the budget; still undecided is ``git bisect skip``.  A build that
   exits 125 is a skip; any other build failure, and a run that gives no result, stop the
   bisect naming the commit (``--resume`` continues).
3. **Confirmation**: the first bad commit and its parent, afresh and interleaved, against each
   other; only a confirmed culprit is named, with its effect and interval.
4. **Correction**: a refuted culprit (the pair does not hold the drop) means one step's mark was
   wrong.  The pair's fresh boots, both commits', are judged against the ends once more: on the
   good side the culprit's "bad" was the error, on the bad side the parent's "good" (or the good
   mark it inherited); the mark is corrected, git bisect replays the marks (git's own remedy,
   ``git bisect replay`` of an edited log) and the bisect goes on, up to ``MAX_CORRECTIONS``
   times.  Each such test is paid from the reserve of the error split, never beyond ``total``.

Deterministic given the boots: :mod:`.state` replays recorded boots on ``--resume``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from ...judge.bisect_rule import (
    TOTAL_ALPHA,
    AlphaPlan,
    Better,
    EndsVerdict,
    PairVerdict,
    boots_for_step,
    expected_steps,
    judge_ends,
    judge_pair,
    judge_step,
    looks,
    step_add,
)
from ...judge.boot_test import BootSession
from ...words import counted

Mark = Literal["good", "bad", "skip"]
ENDS_START = 3
DEFAULT_BUDGET = 12
MAX_CORRECTIONS = 2
MIN_ALPHA = 1e-9  # a test at less than this decides nothing (and 1 - alpha rounds to 1)


@dataclass(frozen=True)
class Boot:
    """One boot of a commit: per metric key its session and which way is better."""

    sessions: Mapping[str, BootSession]
    better: Mapping[str, Better]


@dataclass(frozen=True)
class Unmeasurable:
    """A commit that gave no boot: ``skip`` (build exit 125) or ``stop`` (named reason)."""

    kind: Literal["skip", "stop"]
    reason: str


@dataclass(frozen=True)
class Finished:
    """Where git bisect ended: the first bad commit, or the commits it could be."""

    first_bad: str | None
    candidates: tuple[str, ...] = ()


class Bisector(Protocol):
    def count(self) -> int: ...  # commits in good..bad
    def start(self) -> str | Finished: ...  # the first commit to test
    def mark(self, commit: str, mark: Mark) -> str | Finished: ...  # the next one
    def parent(self, commit: str) -> str | None: ...
    def replay(self, marks: Sequence[tuple[str, Mark]]) -> str | Finished: ...  # from the ends


class BootBench(Protocol):
    def boots(self, commit: str, n: int) -> list[Boot] | Unmeasurable: ...


class BisectStopped(Exception):
    """A commit that could not be built or measured: the bisect stops, resumable."""


class ReserveSpent(Exception):
    """So many tests past the plan (skipped steps) that the error split has nothing left."""


@dataclass(frozen=True)
class BisectReference:
    """What every step, confirmation and correction judges against, fixed once the ends
    differ: the chosen metric and its direction, the ends' sessions and verdict, and the boots
    a step starts with."""

    key: str
    better: Better
    good: list[BootSession]
    bad: list[BootSession]
    verdict: EndsVerdict
    per_step: int


@dataclass
class BisectStep:
    commit: str
    mark: Mark
    boots: int
    detail: str
    change_pct: float | None = None
    position: float | None = None
    alpha: float | None = None

    def as_json(self) -> dict[str, object]:
        return {"commit": self.commit, "verdict": self.mark, "boots": self.boots,
                "change_pct": _finite(self.change_pct), "position": _finite(self.position),
                "alpha": self.alpha, "detail": self.detail}


def _finite(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 4)


@dataclass
class BisectOutcome:
    status: Literal["found", "undecided"]
    reason: str
    culprit: str | None = None
    candidates: tuple[str, ...] = ()
    metric: str | None = None
    effect_pct: float | None = None
    interval_pct: tuple[float, float] | None = None
    confidence_pct: float | None = None
    ends: dict[str, object] = field(default_factory=dict)
    steps: list[BisectStep] = field(default_factory=list)
    boots: int = 0
    boots_per_step: int = 0


@dataclass(frozen=True)
class BisectPlan:
    budget: int = DEFAULT_BUDGET  # boots at most per commit per test (ends: per end)
    total_alpha: float = TOTAL_ALPHA
    metric: str | None = None  # narrows the metric choice (a substring of its key)


Say = Callable[[str], None]


class Procedure:
    """One bisect from ``good`` to ``bad`` (see the module docstring)."""

    def __init__(self, bisector: Bisector, bench: BootBench, good: str, bad: str, plan: BisectPlan,
                 say: Say = lambda line: None, clock: Callable[[], float] = time.monotonic):
        self.bisector, self.bench, self.plan, self.say = bisector, bench, plan, say
        self.good, self.bad = good, bad
        self.alpha = AlphaPlan(plan.total_alpha, expected_steps(bisector.count()))
        self.spent = 0
        self.steps: list[BisectStep] = []
        self.clock = clock
        self.reserve_draws = 0
        self.confirmations = 0

    def _reserve(self) -> float:
        self.reserve_draws += 1
        alpha = self.alpha.reserve(self.reserve_draws)
        if alpha < MIN_ALPHA:
            raise ReserveSpent(
                f"{counted(self.reserve_draws - 1, 'test')} past the plan of "
                f"{counted(self.alpha.steps, 'step')} (skipped steps, corrections) spent the "
                f"error split's reserve: another would decide at alpha {alpha:.1g}")
        return alpha

    # -- measuring -------------------------------------------------------------------------
    def _boots(self, commit: str, n: int, what: str) -> list[Boot] | None:
        got = self.bench.boots(commit, n)
        if isinstance(got, Unmeasurable):
            if got.kind == "stop":
                raise BisectStopped(f"{what} {commit}: {got.reason}")
            self.say(f"bisect: {what} {commit[:12]} skipped: {got.reason}")
            return None
        self.spent += len(got)
        return got

    def _ends_boots(self, commit: str, what: str) -> Boot:
        got = self._boots(commit, 1, what)
        if not got:
            raise BisectStopped(f"the {what} {commit} cannot be built (exit 125): "
                                f"choose another {what}")
        return got[0]

    # -- 1. the ends -----------------------------------------------------------------------
    def ends(self) -> tuple[str, EndsVerdict, list[Boot], list[Boot]] | BisectOutcome:
        good: list[Boot] = []
        bad: list[Boot] = []
        n_looks, target = looks(ENDS_START, self.plan.budget, 1), ENDS_START
        while True:
            while len(good) < target:  # interleaved: good, bad, good, bad...
                good.append(self._ends_boots(self.good, "good end"))
                bad.append(self._ends_boots(self.bad, "bad end"))
            chosen = self._choose(good, bad, self.alpha.ends / n_looks)
            if isinstance(chosen, tuple):
                return (*chosen, good, bad)
            if target >= self.plan.budget:
                return BisectOutcome("undecided", chosen, boots=self.spent)
            target += 1
            self.say(f"bisect: the ends, {len(good)} boots each: undecided, one more each")

    def _choose(self, good: Sequence[Boot], bad: Sequence[Boot], alpha: float
                ) -> tuple[str, EndsVerdict] | str:
        keys = [k for k in good[0].sessions if all(k in b.sessions for b in [*good, *bad])]
        if self.plan.metric is not None:
            keys = [k for k in keys if self.plan.metric in k]
        if not keys:
            return ("no metric measured on every boot of both ends" +
                    (f" matches --metric {self.plan.metric}" if self.plan.metric else ""))
        verdicts = {k: judge_ends(sessions(good, k), sessions(bad, k), good[0].better[k],
                                  alpha / len(keys)) for k in keys}
        differ = [k for k, v in verdicts.items() if v.status == "differ"]
        if differ:
            key = max(differ, key=lambda k: verdicts[k].effect.worse
                      / max(verdicts[k].effect.tolerance(verdicts[k].alpha), 1e-12))
            return key, verdicts[key]
        moves = ", ".join(f"{k} {v.effect_pct:+.2f}% [{v.interval_pct[0]:+.2f}, "
                          f"{v.interval_pct[1]:+.2f}]" for k, v in verdicts.items())
        return (f"the bad end is not worse than the good end beyond noise on "
                f"{'any of ' if len(keys) > 1 else ''}{counted(len(keys), 'metric')} after "
                f"{len(good)} boots each ({moves})")

    # -- 2. the steps ----------------------------------------------------------------------
    def run(self) -> BisectOutcome:
        started = self.bisector.start()  # before the ends: git records where HEAD was
        ends = self.ends()
        if isinstance(ends, BisectOutcome):
            return ends
        key, verdict, good, bad = ends
        better = good[0].better[key]
        g, b = sessions(good, key), sessions(bad, key)
        runs = max(1, round(sum(len(s.samples) for s in g) / len(g)))
        per_step = boots_for_step(verdict, len(g), len(b), runs, self.alpha.unit,
                                  self.plan.budget)
        lo, hi = verdict.interval_pct
        ends_info: dict[str, object] = {
            "metric": key, "change_pct": round(verdict.effect_pct, 4),
            "ci_pct": [round(lo, 4), round(hi, 4)], "boots": len(g), "alpha": verdict.alpha}
        self.say(f"bisect: the ends differ on {key}: {verdict.effect_pct:+.2f}% [{lo:+.2f}, "
                 f"{hi:+.2f}] over {len(g)} boots each; a step needs {per_step} boot(s); "
                 f"about {self.alpha.steps} steps, alpha {self.alpha.unit:.2g} each")
        try:
            outcome = self._bisect(started, BisectReference(key, better, g, b, verdict,
                                                            per_step))
        except ReserveSpent as exc:
            outcome = BisectOutcome("undecided", str(exc))
        outcome.metric, outcome.ends, outcome.steps = key, ends_info, self.steps
        outcome.boots, outcome.boots_per_step = self.spent, per_step
        return outcome

    def _bisect(self, started: str | Finished, ref: BisectReference) -> BisectOutcome:
        commit: str | Finished = started
        marks: list[tuple[str, Mark]] = []
        while True:
            while isinstance(commit, str):
                step = self.step(commit, len(self.steps) + 1, ref)
                self.steps.append(step)
                marks.append((commit, step.mark))
                self.say(f"bisect: step {len(self.steps)}: {commit[:12]} {step.mark} "
                         f"({step.detail})")
                commit = self.bisector.mark(commit, step.mark)
            judged = self.confirm(commit, ref)
            if isinstance(judged, BisectOutcome):
                outcome = judged
                break
            outcome, correction = judged
            if correction is None:
                break
            marks = [m for m in marks if m[0] != correction.commit] + [
                (correction.commit, correction.mark)]
            self.steps.append(correction)
            self.say(f"bisect: correction: {correction.commit[:12]} {correction.mark} "
                     f"({correction.detail}); git bisect replays {counted(len(marks), 'mark')}")
            commit = self.bisector.replay(marks)
        return outcome

    def step(self, commit: str, index: int, ref: BisectReference) -> BisectStep:
        start = ref.per_step
        add = step_add(start)
        share = self.alpha.unit if index <= self.alpha.steps else self._reserve()
        alpha = share / looks(start, self.plan.budget, add)
        got = self._boots(commit, start, f"step {index}")
        if got is None:
            return BisectStep(commit, "skip", 0, "build skipped (exit 125)")
        while True:
            verdict = judge_step(ref.good, ref.bad, sessions(got, ref.key), ref.better, alpha)
            if verdict.status != "undecided" or len(got) >= self.plan.budget:
                break
            self.say(f"bisect: step {index}: {commit[:12]} undecided after {len(got)} boots, "
                     f"{add} more")
            more = self._boots(commit, min(add, self.plan.budget - len(got)), f"step {index}")
            if more is None:
                break
            got += more
        mark: Mark = "skip" if verdict.status == "undecided" else verdict.status
        return BisectStep(commit, mark, len(got), verdict.detail(), verdict.change_pct,
                    verdict.position, alpha)

    # -- 3. the confirmation ---------------------------------------------------------------
    def confirm(self, finished: Finished, ref: BisectReference
                ) -> BisectOutcome | tuple[BisectOutcome, BisectStep | None]:
        """The named culprit against its parent: the outcome, and for a refuted culprit the
        corrected mark (or None) that :meth:`run` replays."""
        culprit = finished.first_bad
        if culprit is None:
            return BisectOutcome("undecided", "the skipped commits leave more than one candidate",
                           candidates=finished.candidates)
        parent = self.bisector.parent(culprit)
        if parent is None:
            return BisectOutcome("undecided", f"{culprit} has no parent to confirm it against",
                           candidates=(culprit,))
        self.confirmations += 1
        share = self.alpha.confirm if self.confirmations == 1 else self._reserve()
        alpha = share / looks(ref.per_step, self.plan.budget, 1)
        pair = self._pair(parent, culprit, ref, alpha)
        if isinstance(pair, BisectOutcome):
            return pair
        verdict, before, after = pair
        lo, hi = verdict.interval_pct
        self.say(f"bisect: {culprit[:12]} against its parent: {verdict.effect_pct:+.2f}% "
                 f"[{lo:+.2f}, {hi:+.2f}], {len(before)} boots each: {verdict.status}")
        confidence = round(100 * (1 - 2 * alpha), 4)
        if verdict.status == "confirmed":
            return BisectOutcome("found", f"confirmed against its parent {parent}",
                                 culprit=culprit, effect_pct=verdict.effect_pct,
                                 interval_pct=(lo, hi), confidence_pct=confidence)
        why = ("does not hold the drop" if verdict.status == "refuted" else
               "is not worse than its parent beyond noise within the budget")
        outcome = BisectOutcome("undecided", f"git bisect ended at {culprit}, but it {why} "
                                f"({verdict.effect_pct:+.2f}% [{lo:+.2f}, {hi:+.2f}])",
                                candidates=(culprit,), effect_pct=verdict.effect_pct,
                                interval_pct=(lo, hi), confidence_pct=confidence)
        if verdict.status != "refuted" or self.confirmations > MAX_CORRECTIONS:
            return outcome, None
        return outcome, self._correct(parent, culprit, [*before, *after], ref)

    def _pair(self, parent: str, culprit: str, ref: BisectReference, alpha: float
              ) -> tuple[PairVerdict, list[Boot], list[Boot]] | BisectOutcome:
        before: list[Boot] = []
        after: list[Boot] = []
        target = ref.per_step
        while True:
            while len(before) < target:
                one, two = self._boots(parent, 1, "parent"), self._boots(culprit, 1, "culprit")
                if not one or not two:
                    return BisectOutcome("undecided", f"{parent[:12]} or {culprit[:12]} cannot be "
                                   "built for the confirmation", candidates=(culprit,))
                before += one
                after += two
            pair = judge_pair(sessions(before, ref.key), sessions(after, ref.key), ref.better,
                              ref.verdict.effect.worse, alpha)
            if pair.status != "undecided" or target >= self.plan.budget:
                return pair, before, after
            target += 1
            self.say(f"bisect: confirming {culprit[:12]}: undecided after {len(before)} boots "
                     "each, one more each")

    # -- 4. the correction -----------------------------------------------------------------
    def _correct(self, parent: str, culprit: str, pair: Sequence[Boot], ref: BisectReference
                 ) -> BisectStep | None:
        """The pair, both commits' fresh boots, against the ends (one look, from the reserve):
        the culprit's mark corrected to good, or the parent's to bad; None when undecided."""
        alpha = self._reserve()
        verdict = judge_step(ref.good, ref.bad, sessions(pair, ref.key), ref.better, alpha)
        if verdict.status == "undecided":
            return None
        commit = culprit if verdict.status == "good" else parent
        return BisectStep(commit, verdict.status, len(pair), "the refuted pair against the "
                          f"ends: {verdict.detail()}", verdict.change_pct, verdict.position,
                          alpha)


def sessions(boots: Sequence[Boot], key: str) -> list[BootSession]:
    return [b.sessions[key] for b in boots]
