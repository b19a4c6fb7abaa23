"""Sequential verdicts: each outcome, the power rule, boots, the budget, suite-level alpha."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from pytest_sbcbench.judge.boots import (
    MIN_BOOT_SD_PCT,
    ONE_BOOT_ALLOWANCE,
    PRIOR_DF_FLOOR,
    BaselineSession,
    BootPrior,
    group_by_boot,
    suite_boot_prior,
)
from pytest_sbcbench.judge.sequential import (
    Decision,
    SequentialPlan,
    decide,
    noise_upper,
    suite_alpha,
)
from pytest_sbcbench.judge.tdist import t_ppf


def boots(rng: random.Random, k: int, cv: float, drift: float, n: int = 3,
          level: float = 100.0) -> list[BaselineSession]:
    """k boots of n samples: one offset per boot (SD drift), noise per sample (SD cv)."""
    out = []
    for i in range(k):
        offset = 1.0 + rng.gauss(0.0, drift)
        out.append(BaselineSession(
            tuple(level * offset * (1.0 + rng.gauss(0.0, cv)) for _ in range(n)), f"boot-{i}"))
    return out


def suite_prior(rng: random.Random, k: int, cv: float, drift: float) -> BootPrior:
    """The between-boot prior a 25-metric suite with these boots and noise would pool."""
    return suite_boot_prior([boots(rng, k, cv, drift) for _ in range(25)])


def three_boots(seed: int, cv: float
                ) -> tuple[random.Random, list[BaselineSession], SequentialPlan]:
    """A seeded baseline of three boots with noise ``cv`` and no drift, and the default plan
    with the prior its suite would pool; the generator goes on for the run's samples."""
    rng = random.Random(seed)
    base = boots(rng, 3, cv, 0.0)
    return rng, base, SequentialPlan.default(3, boot_prior=suite_prior(rng, 3, cv, 0.0))


def run(sessions: list[BaselineSession], stream: list[float], plan: SequentialPlan,
        better: str = "lower") -> Decision:
    """The loop the plugin runs: decide after min_runs and after each further sample."""
    for n in range(plan.min_runs, plan.max_runs + 1):
        decision = decide(sessions, stream[:n], better, plan)  # type: ignore[arg-type]
        if decision.status != "continue":
            return decision
    raise AssertionError("continue at max_runs")


def test_quiet_unchanged_metric_passes_at_the_minimum() -> None:
    rng, base, plan = three_boots(1, 0.003)
    decision = run(base, [100.0 * (1 + rng.gauss(0, 0.003)) for _ in range(6)], plan)
    assert decision.status == "pass" and decision.samples_used == 3
    assert decision.detectable_pct <= 3.0 and decision.ci_pct[1] < 3.0
    assert decision.ci_pct[0] < decision.change_pct < decision.ci_pct[1]
    assert "pass: no regression of 3% or more (95% confidence)" in decision.detail


def test_a_regression_is_re_measured_before_it_is_confirmed() -> None:
    rng, base, plan = three_boots(2, 0.003)
    slower = [110.0 * (1 + rng.gauss(0, 0.003)) for _ in range(6)]
    first = decide(base, slower[:3], "lower", plan)
    assert first.status == "continue" and "measuring again" in first.detail
    final = run(base, slower, plan)
    assert final.status == "regression" and final.samples_used == plan.confirm_at == 6
    assert final.change_pct == pytest.approx(10.0, abs=1.0)
    assert final.ci_pct[0] > 0 and "regression confirmed after re-measuring" in final.detail


def test_direction_follows_better_and_improvement_is_final() -> None:
    rng, base, plan = three_boots(3, 0.003)
    faster_throughput = [110.0 * (1 + rng.gauss(0, 0.003)) for _ in range(6)]
    assert decide(base, faster_throughput[:3], "higher", plan).status == "improvement"
    assert run(base, [90.0, 90.1, 89.9, 90.2, 90.0, 89.8], plan, "higher").status == "regression"


def test_noise_beyond_the_budget_is_inconclusive_and_says_what_it_would_take() -> None:
    rng, base, plan = three_boots(4, 0.03)
    decision = run(base, [100.0 * (1 + rng.gauss(0, 0.03)) for _ in range(6)], plan)
    assert decision.status == "inconclusive" and decision.samples_used == 6
    assert decision.detectable_pct > 3.0
    assert f"could only detect a regression of {decision.detectable_pct:.1f}%" in decision.detail
    assert decision.runs_needed is not None and decision.runs_needed > 6
    assert decision.boots_needed is not None and decision.boots_needed > 3
    assert (f"deciding needs {decision.boots_needed} baseline boots and about "
            f"{decision.runs_needed} runs") in decision.detail


def test_never_pass_below_80_percent_power() -> None:
    """A run whose interval excludes a 3% drop but whose power for 3% is low: not a pass."""
    base = [BaselineSession((100.0, 101.0, 99.0), "a"), BaselineSession((100.5, 99.5, 100.0), "b"),
            BaselineSession((99.6, 100.4, 100.0), "c")]
    plan = SequentialPlan(3, 6, alpha=0.002, boot_prior=BootPrior(0.5, 30.0, "test"))
    decision = decide(base, [100.0, 100.9, 99.1, 100.2, 99.8, 100.0], "lower", plan)
    naive_upper = decision.change_pct + t_ppf(1 - plan.alpha_pass, decision.df) * (
        decision.tolerance_pct / t_ppf(1 - plan.alpha_look, decision.df))
    assert naive_upper < 3.0  # a "CI below delta" rule alone would pass this
    assert decision.detectable_pct > 3.0 and decision.status == "inconclusive"


def test_pass_always_has_the_power() -> None:
    rng = random.Random(5)
    passes = 0
    for _ in range(150):
        cv, drift = rng.choice((0.002, 0.005, 0.01, 0.02)), rng.choice((0.0, 0.003, 0.01))
        k = rng.choice((1, 2, 3, 5))
        base = boots(rng, k, cv, drift)
        plan = SequentialPlan.default(rng.choice((2, 3)), boot_prior=suite_prior(rng, k, cv, drift))
        decision = run(base, [100.0 * (1 + rng.gauss(0, cv)) for _ in range(plan.max_runs)],
                       plan)
        if decision.status == "pass":
            passes += 1
            assert decision.detectable_pct <= plan.min_effect_pct
    assert passes > 20  # the rule was exercised


def test_max_runs_is_always_final() -> None:
    rng = random.Random(6)
    for _ in range(200):
        cv = rng.choice((0.001, 0.01, 0.05))
        base = boots(rng, rng.choice((1, 2, 3)), cv, rng.choice((0.0, 0.01, 0.03)),
                     n=rng.choice((1, 2, 3)))
        plan = SequentialPlan(rng.choice((1, 2, 3)), rng.choice((3, 4, 6)), alpha=0.002)
        current = [100.0 * (1 + rng.gauss(rng.choice((0, 0.03)), cv))
                   for _ in range(plan.max_runs)]
        assert decide(base, current, "higher", plan).status != "continue"


def test_one_boot_uses_the_allowance_and_says_so() -> None:
    one = [BaselineSession((100.0, 100.05, 99.95), "only")]
    plan = SequentialPlan(3, 6, alpha=0.002)
    decision = decide(one, [102.0, 102.05, 101.95, 102.0, 102.05, 101.95], "lower", plan)
    assert decision.baseline_boots == 1 and decision.status != "regression"
    allowance = ONE_BOOT_ALLOWANCE.sd_pct
    assert decision.tolerance_pct > allowance  # at least one boot offset's worth, never zero
    assert "one baseline boot: boot-to-boot drift cannot be separated from the change" in (
        decision.detail)
    assert f"allowance {allowance:.2f}%: one-boot allowance" in decision.detail
    three = [BaselineSession((100.0, 100.05, 99.95), "a"),
             BaselineSession((100.02, 100.07, 99.97), "b"),
             BaselineSession((99.98, 100.03, 99.93), "c")]
    quiet_prior = BootPrior(MIN_BOOT_SD_PCT, 30.0, "test")
    confirmed = decide(three, [102.0, 102.05, 101.95, 102.0, 102.05, 101.95], "lower",
                       SequentialPlan(3, 6, alpha=0.002, boot_prior=quiet_prior))
    assert confirmed.status == "regression" and "one baseline boot" not in confirmed.detail


def test_sessions_of_one_boot_are_one_replicate() -> None:
    same = [BaselineSession((100.0, 101.0), "x"), BaselineSession((99.0, 100.5), "x")]
    assert group_by_boot(same).k == 1 and group_by_boot(same).counts == (4,)
    unknown = [BaselineSession((100.0, 101.0)), BaselineSession((99.0, 100.5))]
    assert group_by_boot(unknown).k == 2
    decision = decide(same, [100.0, 100.2, 99.9], "lower", SequentialPlan(3, 6, alpha=0.002))
    assert decision.baseline_boots == 1 and "one baseline boot" in decision.detail


def test_between_boot_spread_has_honest_degrees_of_freedom() -> None:
    """Two boots 4% apart: the boot term dominates, so df is about prior df + k - 1, not the
    within-boot df, and the tolerance covers the spread."""
    two = [BaselineSession((100.0, 100.1, 99.9), "a"), BaselineSession((104.0, 104.1, 103.9), "b")]
    prior = BootPrior(0.5, 4.0, "test")
    decision = decide(two, [102.0, 102.1, 101.9], "lower", SequentialPlan(3, 6, alpha=0.002,
                                                               boot_prior=prior))
    assert decision.df <= prior.df + 2 - 1 + 0.5  # not the 6 within-boot df
    assert decision.tolerance_pct > 4.0 and decision.status == "continue"
    assert decide(two, [102.0, 102.1, 101.9, 102.0, 102.1, 101.9], "lower",
                  SequentialPlan(3, 6, alpha=0.002, boot_prior=prior)).status == "inconclusive"


def test_suite_prior_pools_boots_and_falls_back_to_the_allowance() -> None:
    rng = random.Random(7)
    alike = [suite_boot_prior([boots(rng, 3, 0.005, 0.01) for _ in range(25)])
             for _ in range(15)]
    assert statistics.median(p.df for p in alike) == 30.0  # the cap: metrics drift alike
    assert 0.7 < statistics.median(p.sd_pct for p in alike) < 1.3
    assert all("suite-pooled prior (25 metrics" in p.source for p in alike)
    mixed = [suite_boot_prior([boots(rng, 3, 0.005, 0.0 if i % 2 else 0.03) for i in range(26)])
             for _ in range(15)]
    assert statistics.median(p.df for p in mixed) == PRIOR_DF_FLOOR  # they drift differently
    trusting = suite_boot_prior([boots(rng, 3, 0.005, 0.0 if i % 2 else 0.03) for i in range(26)],
                                df_floor=20.0, df_cap=50.0)
    assert trusting.df == 20.0  # the trade-off table's higher floor: the pool is trusted anyway
    assert suite_boot_prior([boots(rng, 3, 0.005, 0.01)] * 2).df == 4  # 2 x 2 df, too few
    assert suite_boot_prior([boots(rng, 1, 0.005, 0.01)]) == ONE_BOOT_ALLOWANCE
    flat = suite_boot_prior([boots(rng, 3, 0.005, 0.0) for _ in range(25)])
    assert flat.sd_pct >= MIN_BOOT_SD_PCT


def test_suite_alpha_bounds_the_family() -> None:
    assert suite_alpha(25) == pytest.approx(0.002)
    assert suite_alpha(1, 0.05) == 0.05
    for m in (1, 5, 25, 100):
        assert 1 - (1 - suite_alpha(m)) ** m <= 0.05 + 1e-12  # independent metrics
        assert m * suite_alpha(m) <= 0.05 + 1e-12  # any dependence (Bonferroni)
    with pytest.raises(ValueError):
        suite_alpha(0)
    assert SequentialPlan.default(3, 25).alpha == suite_alpha(25)
    assert SequentialPlan.default(3).max_runs == 6


def test_plan_and_samples_are_validated() -> None:
    with pytest.raises(ValueError):
        SequentialPlan(4, 3)
    with pytest.raises(ValueError):
        SequentialPlan(3, 6, alpha=0.0)
    with pytest.raises(ValueError):
        decide([BaselineSession((1.0, 0.0))], [1.0, 1.0], "lower", SequentialPlan(2, 4))
    with pytest.raises(ValueError):
        decide([], [1.0, 1.0], "lower", SequentialPlan(2, 4))


def test_no_repeated_sample_is_inconclusive() -> None:
    decision = decide([BaselineSession((100.0,), "a")], [90.0], "higher", SequentialPlan(1, 1))
    assert decision.status == "inconclusive" and "no variance" in decision.detail


def test_noise_upper_bound_matches_chi_square() -> None:
    # chi2(0.05, 10) = 3.9403, chi2(0.05, 30) = 18.4927
    assert noise_upper(10, 0.95) == pytest.approx(math.sqrt(10 / 3.9403), rel=0.01)
    assert noise_upper(30, 0.95) == pytest.approx(math.sqrt(30 / 18.4927), rel=0.01)
