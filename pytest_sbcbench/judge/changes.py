"""Change points across labels, with the boot as the unit of replication (issue 29, item 3).

For each measurement of a board (a :class:`.history_read.MetricHistory`):

1. **Propose**: Apache Otava's windowed E-divisive (:mod:`.steps`) on one point per label, the
   mean of its boot means in log space, proposes where steps may start.
2. **Test**: each proposal with at least :data:`SIDE_LABELS` labels each side is tested by
   the gate's own two-sample t on boot means (:func:`.boot_test.boot_noise`: boots are the
   replicates, the between-boot variance is measured from these boots, nothing borrowed),
   two-sided, on up to :data:`MAX_SIDE` labels each side, whatever else was proposed (sides
   cut at other proposals would be chosen by the data, and the test a search).  The first bad
   label is the split within :data:`NEAR` labels of the proposal where that t is largest; it
   was picked as the most striking split, so its p-value is multiplied by the number of
   labels tested (Bonferroni over the splits it could have been).
3. **Confirm**: Holm's step-down over every test of the board (all its measurements) at
   :data:`RATE`.  Then once more, each proposal tested only up to the steps that held beside
   it in its measurement (a real step next door is not its noise), and Holm again.
4. **Group**: each confirmed step has a range of labels where it may start (the splits whose
   t^2 is within :data:`LOCATION_SLACK` of the best); steps whose ranges overlap are one
   incident: its first bad label is the earliest best split among them, its last good label
   the label before the earliest range.

An incident's id is ``BOARD@FIRST_BAD``, stable while later labels arrive."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from .boot_decide import upper_tail
from .boot_test import BootSide, boot_noise
from .family import holm
from .history_read import BoardHistory, MetricHistory
from .steps import candidate_indices
from .tdist import t_ppf

SIDE_LABELS = 3  # at least the boots of three labels each side
MAX_SIDE = 30  # labels a side at most (older levels say little about this step)
RATE = 0.01  # Holm's family rate across a board's tests
LOCATION_SLACK = 6.0  # t^2 below the best by less than this: the step may start there
CONFIDENCE = 0.95  # of a step's size interval
NEAR = 2  # the first bad label is searched this many labels either side of the proposal

Proposer = Callable[[Sequence[float]], list[int]]


@dataclass(frozen=True)
class Split:
    """The gate's test of one split: after minus before, in log space."""

    d: float
    se: float
    df: float
    before_boots: int
    after_boots: int

    @property
    def t(self) -> float:
        return self.d / self.se if self.se > 0 else math.inf * (1 if self.d >= 0 else -1)

    @property
    def p_value(self) -> float:
        return min(1.0, 2.0 * upper_tail(abs(self.t), self.df))


@dataclass(frozen=True)
class Step:
    """A tested step of one measurement (``confirmed`` after Holm)."""

    board: str
    metric: str
    unit: str
    better: str
    first_bad: str
    last_good: str
    range_labels: tuple[str, ...]  # where it may start, first bad candidates in order
    index: int  # of first_bad among the measurement's labels with samples
    position: int  # of first_bad in the board's label order
    range_positions: tuple[int, int]
    change_pct: float
    ci_pct: tuple[float, float]
    p_value: float
    df: float
    before_boots: int
    after_boots: int
    before_labels: int
    after_labels: int
    confirmed: bool = False

    @property
    def adjusted_p(self) -> float:
        """The p-value times the splits the step could have been found at (it was chosen as
        the most striking of them: Bonferroni over the labels of the tested range)."""
        return min(1.0, self.p_value * (self.before_labels + self.after_labels))

    @property
    def direction(self) -> str:
        worse = self.change_pct < 0 if self.better == "higher" else self.change_pct > 0
        return "regression" if worse else "improvement"

    def as_dict(self) -> dict[str, object]:
        return {"metric": self.metric, "unit": self.unit, "better": self.better,
                "direction": self.direction, "first_bad": self.first_bad,
                "last_good": self.last_good, "may_start": list(self.range_labels),
                "change_pct": round(self.change_pct, 4),
                "ci_pct": [round(v, 4) for v in self.ci_pct],
                "confidence": CONFIDENCE, "p_value": self.p_value,
                "adjusted_p": self.adjusted_p, "df": self.df,
                "before_boots": self.before_boots, "after_boots": self.after_boots,
                "before_labels": self.before_labels, "after_labels": self.after_labels}


@dataclass(frozen=True)
class Incident:
    """Steps whose ranges overlap, on one board."""

    id: str
    board: str
    first_bad: str
    last_good: str
    position: int
    steps: tuple[Step, ...]
    state: str = "open"  # or the latest triage state
    state_set: str | None = None

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(s.metric for s in self.steps)

    @property
    def is_open(self) -> bool:
        return self.state in ("open", "acknowledged")

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "board": self.board, "first_bad": self.first_bad,
                "last_good": self.last_good, "state": self.state, "state_set": self.state_set,
                "metrics": [s.as_dict() for s in self.steps]}


def merge_sides(sides: Sequence[BootSide]) -> BootSide:
    """Labels' boots as one side (each label reduced once:
    :attr:`.history_read.LabelPoint.side`); the same as reducing all their sessions together,
    as no boot spans two labels."""
    if len(sides) == 1:
        return sides[0]
    means = tuple(m for s in sides for m in s.means)
    mean = math.fsum(means) / len(means)
    return BootSide(tuple(k for s in sides for k in s.keys), means,
                    tuple(n for s in sides for n in s.sessions),
                    tuple(q for s in sides for q in s.run_share),
                    math.fsum(s.within_ss for s in sides), sum(s.within_df for s in sides),
                    math.fsum(s.session_ss for s in sides), sum(s.session_df for s in sides),
                    math.fsum(s.session_run_share for s in sides), mean,
                    math.fsum((m - mean) ** 2 for m in means))


def split_test(before: Sequence[BootSide], after: Sequence[BootSide]) -> Split | None:
    """The gate's two-sample t on boot means between two runs of labels; None: no variance."""
    base, cand = merge_sides(before), merge_sides(after)
    noise = boot_noise(base, cand)
    if noise is None:
        return None
    return Split(cand.mean - base.mean, noise.se, noise.df, base.k, cand.k)


def _sides(series: MetricHistory, lo: int, hi: int) -> list[BootSide]:
    return [side for p in series.points[lo:hi] if (side := p.side) is not None]


def label_levels(series: MetricHistory) -> list[float]:
    """One value per label with samples: the mean of its boot means, log space."""
    return [side.mean for p in series.points if (side := p.side) is not None]


def _test_at(series: MetricHistory, c: int, lo: int, hi: int) -> Split | None:
    before = _sides(series, max(lo, c - MAX_SIDE), c)
    after = _sides(series, c, min(hi, c + MAX_SIDE))
    return split_test(before, after) if before and after else None


def _step(series: MetricHistory, c: int, lo: int, hi: int, positions: Sequence[int]
          ) -> Step | None:
    """The best split near proposal ``c`` between neighbours ``lo`` and ``hi``, tested."""
    tests = {j: _test_at(series, j, lo, hi)
             for j in range(max(lo + 1, c - NEAR - 1), min(hi, c + NEAR + 2))}
    allowed = [j for j, t in tests.items() if t is not None
               and j - lo >= SIDE_LABELS and hi - j >= SIDE_LABELS and abs(j - c) <= NEAR]
    if not allowed:
        return None
    best = max(allowed, key=lambda j: abs(tests[j].t))  # type: ignore[union-attr]
    split = tests[best]
    assert split is not None
    t2 = split.t ** 2
    near = [j for j, t in tests.items() if t is not None and t.t * split.t > 0
            and t.t ** 2 >= t2 - LOCATION_SLACK]
    first, last = min([*near, best]), max([*near, best])
    half = t_ppf(0.5 + CONFIDENCE / 2, split.df) * split.se
    labels = series.labels
    return Step(series.board, series.name, series.unit, series.better, labels[best],
                labels[first - 1], labels[first:last + 1], best, positions[best],
                (positions[first], positions[last]), 100.0 * math.expm1(split.d),
                (100.0 * math.expm1(split.d - half), 100.0 * math.expm1(split.d + half)),
                split.p_value, split.df, split.before_boots, split.after_boots,
                best - max(lo, best - MAX_SIDE), min(hi, best + MAX_SIDE) - best)


@dataclass(frozen=True)
class _Proposed:
    """A measurement's labels with samples, where they are on the board, and proposals."""

    series: MetricHistory
    where: tuple[int, ...]
    proposals: tuple[int, ...]


def _propose(series: MetricHistory, positions: Sequence[int], propose: Proposer
             ) -> _Proposed | None:
    keep = [i for i, p in enumerate(series.points) if p.sessions]
    if len(keep) < 2 * SIDE_LABELS:
        return None
    usable = replace(series, points=tuple(series.points[i] for i in keep))
    n = len(keep)
    proposals = sorted({c for c in propose(label_levels(usable))
                        if SIDE_LABELS <= c <= n - SIDE_LABELS})
    return _Proposed(usable, tuple(positions[i] for i in keep), tuple(proposals))


def _tested(p: _Proposed, bounds: Sequence[int]) -> list[Step]:
    """Each proposal tested up to the confirmed steps beside it (``bounds``, indices)."""
    n = len(p.series.points)
    out: dict[int, Step] = {}
    for c in p.proposals:
        lo = max((b for b in bounds if b < c - NEAR), default=0)
        hi = min((b for b in bounds if b > c + NEAR), default=n)
        step = _step(p.series, c, lo, hi, p.where)
        if step is not None and (step.index not in out
                                 or step.p_value < out[step.index].p_value):
            out[step.index] = step
    return [out[i] for i in sorted(out)]


def _confirm(steps: Sequence[Step], rate: float) -> list[Step]:
    rejected = holm([s.adjusted_p for s in steps], rate) if steps else []
    return [replace(s, confirmed=r) for s, r in zip(steps, rejected, strict=True)]


def board_steps(board: BoardHistory, propose: Proposer = candidate_indices,
                rate: float = RATE) -> list[Step]:
    """Every tested step of a board, each marked confirmed or not by Holm across them.

    First every proposal is tested up to :data:`MAX_SIDE` labels each side, whatever else
    was proposed (sides chosen by the data would make the test a search); then, beside the
    steps that held, again up to them (a real step next door is not this one's noise)."""
    proposed = [p for m in board.series
                if (p := _propose(m, board.positions(m), propose)) is not None]
    first = _confirm([s for p in proposed for s in _tested(p, ())], rate)
    held: dict[str, list[int]] = {}
    for s in first:
        if s.confirmed:
            held.setdefault(s.metric, []).append(s.index)
    if not held:
        return first
    return _confirm([s for p in proposed for s in _tested(p, held.get(p.series.name, []))],
                    rate)


def incidents(board: str, steps: Sequence[Step],
              triage: Mapping[str, tuple[str, str]] | None = None) -> list[Incident]:
    """Confirmed steps grouped by overlapping ranges, oldest first, with their triage state."""
    groups: list[list[Step]] = []
    for s in sorted((s for s in steps if s.confirmed), key=lambda s: s.range_positions):
        if groups and s.range_positions[0] <= max(g.range_positions[1] for g in groups[-1]):
            groups[-1].append(s)
        else:
            groups.append([s])
    out = []
    for g in groups:
        first = min(g, key=lambda s: s.position)
        earliest = min(g, key=lambda s: s.range_positions[0])
        ident = f"{board}@{first.first_bad}"
        state, when = (triage or {}).get(ident, ("open", None))
        out.append(Incident(ident, board, first.first_bad, earliest.last_good, first.position,
                            tuple(sorted(g, key=lambda s: s.metric)), state, when))
    return out


def board_incidents(board: BoardHistory, triage: Mapping[str, tuple[str, str]] | None = None,
                    propose: Proposer = candidate_indices) -> list[Incident]:
    """A board's incidents, with their triage states (``sbcbench history changes``)."""
    return incidents(board.board, board_steps(board, propose), triage)
