"""Heavy-tailed boots: the board's tail weight from its baseline boots pooled over every metric
(judge/boot_tails.py), and the heavy-tail allowance it sets for the first looks of every plan,
in the decision and through the judge the plugin and ``sbcbench compare`` call
(``Baseline.tail_weight`` -> ``plan_of``)."""

from __future__ import annotations

import dataclasses

from pytest_sbcbench.judge.baseline import Baseline, BaselineEntry, StoredSession
from pytest_sbcbench.judge.boot_decide import BootPlan, decide_sides
from pytest_sbcbench.judge.boot_tails import FULL_Z, kurtosis_z, tail_weight
from pytest_sbcbench.judge.boot_test import BootSession, BootSide, reduce_side
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import PLAN_KEY, judge
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.workload import sampling

RUNS = (1.0, 1.003, 0.997)
EVEN = tuple(-1.0 + 2.0 * i / 9 for i in range(10))  # ten evenly spread boots: light tails
ONE_FAR = (0.0, 0.3, -0.3, 0.2, -0.2, 0.1, -0.1, 0.25, -0.25, 3.0)  # a bad boot now and then


def _boots(offsets_pct: tuple[float, ...], scale: float = 1.0) -> list[BootSession]:
    return [BootSession(tuple(1000.0 * (1 + o * scale / 100) * r for r in RUNS), f"b{i}")
            for i, o in enumerate(offsets_pct)]


def _side(offsets_pct: tuple[float, ...]) -> BootSide:
    return reduce_side(_boots(offsets_pct))


def test_normal_looking_boots_weigh_nothing_and_one_far_boot_a_metric_weighs_fully() -> None:
    assert tail_weight([_side(EVEN)] * 25) == 0.0
    heavy = kurtosis_z([_side(ONE_FAR)] * 25)
    assert heavy is not None and heavy > FULL_Z
    assert tail_weight([_side(ONE_FAR)] * 25) == 1.0
    # fewer than five boots a metric say nothing about tails; nor does a suite without spread
    assert kurtosis_z([_side(ONE_FAR[-4:])] * 25) is None
    assert tail_weight([_side(ONE_FAR[-4:])] * 25) == 0.0


def test_a_heavy_board_widens_the_first_candidate_boots_of_every_plan() -> None:
    """A fixed plan's one look and an every-boot plan's first looks allow the board's heavy
    tail alike (without it, Student-t(3) boots failed 13-16% of unchanged suites by hand)."""
    base = _side(EVEN)
    cand = reduce_side([BootSession(tuple(1000.0 * 0.99 * r for r in RUNS), "c1")])
    for plan in (BootPlan(3, 6, 1, alpha=0.04 / 25),
                 BootPlan(3, 6, 6, alpha=0.04 / 25, every_boot=True)):
        normal = decide_sides(base, cand, 3, "higher", plan, explain=False)
        heavy = decide_sides(base, cand, 3, "higher", dataclasses.replace(plan, tail_weight=1.0),
                             explain=False)
        assert heavy.tolerance_pct > 1.5 * normal.tolerance_pct
        assert heavy.p_value > normal.p_value
        assert heavy.upper_pct == normal.upper_pct  # the pass bound keeps its t
    # from four candidate boots on, the boot means' t holds: no allowance
    four = reduce_side([BootSession(tuple(1000.0 * 0.99 * r for r in RUNS), f"c{i}")
                        for i in range(4)])
    plan4 = BootPlan(3, 6, 4, alpha=0.04 / 25)
    assert decide_sides(base, four, 3, "higher", plan4, explain=False) == decide_sides(
        base, four, 3, "higher", dataclasses.replace(plan4, tail_weight=1.0), explain=False)


TEST = "benchmarks/test_crypto.py::test_digest[sha256]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="sha256")


def _entry(test: str, offsets_pct: tuple[float, ...]) -> BaselineEntry:
    sessions = tuple(StoredSession(f"2026-11-{i + 1:02d}", s.samples, {"boot_id": s.boot_id})
                     for i, s in enumerate(_boots(offsets_pct)))
    return BaselineEntry(test, "sha256", "B/s", "higher", IDENTITY, sessions)


def _baseline(others: tuple[float, ...]) -> Baseline:
    """The judged metric's boots are the same; the board's other 24 metrics differ."""
    rest = tuple(_entry(f"benchmarks/test_other.py::test_m[{j}]", others) for j in range(24))
    return Baseline("star64", (_entry(TEST, EVEN), *rest))


def test_the_judge_takes_the_tail_weight_from_the_whole_baseline() -> None:
    """One candidate boot judged alone (the whole budget, normal theory): the same drop of the
    same metric against the same boots of it is a regression on a board whose boots look
    normal, and not where the board's other metrics show a bad boot now and then."""
    light, heavy = _baseline(EVEN), _baseline(ONE_FAR)
    assert light.tail_weight == 0.0 and heavy.tail_weight == 1.0
    samples = tuple(1000.0 * 0.96 * r for r in RUNS * 2)
    m = Measurement("sha256", "B/s", "higher", IDENTITY, samples,
                    details={PLAN_KEY: {**dataclasses.asdict(sampling(3, 6, None)),
                                        "n_metrics": 25}})
    r = Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))
    on_light = judge(r, baseline=light, board="star64", n_metrics=25)
    on_heavy = judge(r, baseline=heavy, board="star64", n_metrics=25)
    assert on_light.status == "regression", on_light.detail
    assert on_heavy.status != "regression", on_heavy.detail
    assert "the board's baseline boots look heavy-tailed (tail weight 1.00): judged with a " \
        "Student-t tail of 3 df" in on_heavy.detail
    assert "heavy-tailed" not in on_light.detail
    assert on_light.evidence is not None and on_heavy.evidence is not None
    wide, narrow = on_heavy.evidence.tolerance_pct, on_light.evidence.tolerance_pct
    assert wide is not None and narrow is not None and wide > 1.5 * narrow
