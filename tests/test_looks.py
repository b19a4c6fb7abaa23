"""What remains of the sequential rule beside the candidate-boots verdict: the look schedule
and the power rule's noise bound (judge/looks.py), and boots as the unit of replication
(judge/boots.py)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from pytest_sbcbench.judge.boot_decide import BootPlan, decide_boots
from pytest_sbcbench.judge.boots import (
    MIN_BOOT_SD_PCT,
    ONE_BOOT_ALLOWANCE,
    BaselineSession,
    BootPrior,
    group_by_boot,
    logs,
)
from pytest_sbcbench.judge.looks import (
    NOISE_CONFIDENCE,
    PASS_ALPHA,
    RUN_BUDGET_FACTOR,
    noise_upper,
)


def test_regressions_are_confirmed_at_twice_the_minimum_and_at_the_budget() -> None:
    """Bonferroni over the regression looks; a pass spends PASS_ALPHA over every look."""
    default = BootPlan(3, RUN_BUDGET_FACTOR * 3, alpha=0.002)
    assert default.confirm_at == 6 and default.regression_looks == (6,)
    assert default.alpha_look == 0.002 and default.alpha_pass == pytest.approx(PASS_ALPHA / 4)
    longer = BootPlan(3, 9, alpha=0.002)
    assert longer.regression_looks == (6, 9) and longer.alpha_look == pytest.approx(0.001)
    assert longer.alpha_pass == pytest.approx(PASS_ALPHA / 7)
    short = BootPlan(3, 4, alpha=0.002)
    assert short.confirm_at == 4 and short.regression_looks == (4,)
    single = BootPlan(1, 1, alpha=0.002)
    assert single.regression_looks == (1,) and single.alpha_pass == PASS_ALPHA


def test_the_last_look_of_the_last_boot_is_always_final() -> None:
    """Whatever the boots, noise and drop: at max_runs of the last planned candidate boot the
    decision is never ``continue`` or ``pending``, and a regression comes only at a
    regression look."""
    rng = random.Random(6)

    def boot(name: str, n: int, level: float, cv: float, drift: float) -> BaselineSession:
        offset = level * (1.0 + rng.gauss(0.0, drift))
        return BaselineSession(tuple(offset * (1.0 + rng.gauss(0.0, cv)) for _ in range(n)),
                               name)
    for _ in range(200):
        noise = rng.choice((0.001, 0.01, 0.05)), rng.choice((0.0, 0.01, 0.03))
        plan = BootPlan(rng.choice((1, 2, 3)), rng.choice((3, 4, 6)), rng.choice((1, 2, 3)),
                        alpha=0.002)
        level = 100.0 * (1.0 + rng.choice((0.0, 0.03, 0.3)))
        base = [boot(f"b{i}", rng.choice((1, 2, 3)), 100.0, *noise)
                for i in range(rng.choice((1, 2, 5)))]
        cand = [boot(f"c{i}", plan.min_runs, level, *noise) for i in range(plan.boots - 1)]
        last = boot("last", plan.max_runs, level, *noise)
        for n in range(plan.min_runs, plan.max_runs + 1):
            looked = BaselineSession(last.samples[:n], "last")
            d = decide_boots(base, [*cand, looked], "lower", plan)
            assert d.status != "pending"
            assert d.status != "regression" or n in plan.regression_looks
            assert n < plan.max_runs or d.status != "continue"
            if d.status != "continue":
                break


def test_noise_upper_bound_matches_chi_square() -> None:
    # chi2(0.05, 10) = 3.9403, chi2(0.05, 30) = 18.4927
    assert noise_upper(10, 0.95) == pytest.approx(math.sqrt(10 / 3.9403), rel=0.01)
    assert noise_upper(30, 0.95) == pytest.approx(math.sqrt(30 / 18.4927), rel=0.01)
    # chi2(0.05, 4) = 0.7107: Wilson-Hilferty is within 2% there, more conservative below
    assert noise_upper(4, 0.95) == pytest.approx(math.sqrt(4 / 0.7107), rel=0.02)
    bounds = [noise_upper(df, NOISE_CONFIDENCE) for df in (1, 2, 4, 8, 30, 200)]
    assert all(a > b > 1.0 for a, b in itertools.pairwise(bounds))  # fewer df, wider


def test_sessions_of_one_boot_are_one_replicate() -> None:
    same = [BaselineSession((100.0, 101.0), "x"), BaselineSession((99.0, 100.5), "x")]
    grouped = group_by_boot(same)
    assert grouped.k == 1 and grouped.counts == (4,)
    assert grouped.means[0] == pytest.approx(sum(logs((100.0, 101.0, 99.0, 100.5))) / 4)
    unknown = [BaselineSession((100.0, 101.0)), BaselineSession((99.0, 100.5))]
    assert group_by_boot(unknown).k == 2
    mixed = [BaselineSession((1.0,), "a"), BaselineSession((2.0,), "b"),
             BaselineSession((3.0,), "a")]
    assert group_by_boot(mixed).counts == (2, 1)  # first appearance order


def test_samples_and_baselines_are_validated() -> None:
    for bad in ((1.0, 0.0), (1.0, -2.0), (1.0, math.inf), (math.nan,), ()):
        with pytest.raises(ValueError, match="finite and positive"):
            logs(bad)
    with pytest.raises(ValueError, match="at least one session"):
        group_by_boot([])


def test_the_one_boot_allowance_is_a_log_scale_variance() -> None:
    assert ONE_BOOT_ALLOWANCE.sd_pct == 1.0 and ONE_BOOT_ALLOWANCE.df == 4.0
    assert ONE_BOOT_ALLOWANCE.variance == pytest.approx(math.log(1.01) ** 2)
    assert BootPrior(MIN_BOOT_SD_PCT, 1.0, "floor").variance == pytest.approx(
        math.log(1.001) ** 2)


def test_a_label_plan_never_spends_more_than_its_budget() -> None:
    """Issue 28: --sbc-boots N spends the whole budget at boot N and nothing before or after;
    an every-boot plan spends 1/B at each boot up to B and nothing beyond, so the looks of any
    protocol (auto, by hand, compare B c1, B c1 c2, ...) sum to at most the budget."""
    from pytest_sbcbench.judge.looks import OFFLINE, ONE_BOOT, LabelPlan

    fixed = LabelPlan(3, every_boot=False)
    assert [fixed.share(c) for c in range(0, 6)] == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    every = LabelPlan(6, every_boot=True)
    assert sum(every.share(c) for c in range(1, 20)) == pytest.approx(1.0)
    assert every.share(7) == 0.0 and every.share(1) == pytest.approx(1 / 6)
    assert OFFLINE == every and ONE_BOOT.share(1) == 1.0 and ONE_BOOT.share(2) == 0.0
    assert LabelPlan.from_dict(every.as_dict()) == every
    for junk in ({"boots": 0, "every_boot": True}, {"boots": True, "every_boot": True},
                 {"boots": 3}, "3", None, {"boots": 99, "every_boot": False}):
        assert LabelPlan.from_dict(junk) is None
    with pytest.raises(ValueError):
        LabelPlan(0)


def test_every_boot_plans_judge_each_boot_at_its_share() -> None:
    """The same candidate boot judged under --sbc-boots 1 (the whole budget) and as boot 1 of
    an every-boot plan (1/6, against a t(3) tail): the second's tolerance is wider and an
    undecided metric is pending ("boot again"); past the budget it is spent."""
    rng = random.Random(3)
    base = [BaselineSession(tuple(100 * (1 + rng.gauss(0, 0.005)) * (1 + rng.gauss(0, 0.01))
                                  for _ in range(3)), f"b{i}") for i in range(10)]
    cand = [BaselineSession((100.4, 100.9, 99.8, 100.2, 100.6, 100.1), "c1")]
    whole = decide_boots(base, cand, "lower", BootPlan(3, 6, 1, alpha=0.0016))
    share = decide_boots(base, cand, "lower", BootPlan(3, 6, 6, alpha=0.0016, every_boot=True))
    assert whole.share == 1.0 and share.share == pytest.approx(1 / 6)
    assert share.tolerance_pct > whole.tolerance_pct and share.alpha < whole.alpha
    assert share.status == "pending" and "boot again" in share.detail
    assert "undecided at candidate boot 1 of at most 6" in share.detail
    many = [BaselineSession(cand[0].samples, f"c{i}") for i in range(3)]
    spent = decide_boots(base, many, "lower", BootPlan(3, 6, 2, alpha=0.0016, every_boot=True))
    assert spent.status == "inconclusive" and spent.share == 0.0
    assert "is spent at candidate boot 3: judge a new label" in spent.detail


def test_more_runs_in_the_candidate_boot_cost_no_degrees_of_freedom() -> None:
    """Issue 28, item 2: the last boot's extra runs (6 against the baseline's 3) make the
    within-boot correction negative; it is dropped, so the test is Student's t on the boot
    means with k + c - 2 df (it used to fall to about 5.5 at 10 vs 1)."""
    from pytest_sbcbench.judge.boot_test import boot_noise, reduce_side

    rng = random.Random(5)
    base = [BaselineSession(tuple(100 * (1 + rng.gauss(0, 0.005)) * (1 + rng.gauss(0, 0.01))
                                  for _ in range(3)), f"b{i}") for i in range(10)]
    cand = [BaselineSession(tuple(100 * (1 + rng.gauss(0, 0.01)) for _ in range(6)), "c")]
    noise = boot_noise(reduce_side(base), reduce_side(cand))
    assert noise is not None and noise.df == 9.0 and noise.source.startswith("boots")
