"""The two-sample test on boot means (judge/boot_test.py, boot_decide.py, boot_hints.py)."""

from __future__ import annotations

import math
import random
import statistics
import sys
from pathlib import Path

import pytest

from pytest_sbcbench.judge.boot_decide import BootPlan, decide_boots, upper_tail
from pytest_sbcbench.judge.boot_hints import margin
from pytest_sbcbench.judge.boot_test import BootSession, boot_noise, reduce_side
from pytest_sbcbench.judge.boots import ONE_BOOT_ALLOWANCE
from pytest_sbcbench.judge.tdist import t_cdf


def boots(prefix: str, *levels: float, runs: tuple[float, ...] = (0.995, 1.0, 1.005)
          ) -> list[BootSession]:
    """One session per boot, each boot at ``level`` x 100 with the same run pattern."""
    return [BootSession(tuple(100.0 * level * r for r in runs), f"{prefix}{i}")
            for i, level in enumerate(levels)]


def draw(rng: random.Random, prefix: str, k: int, runs: int, cv: float, drift: float,
         shift: float = 0.0) -> list[BootSession]:
    out = []
    for i in range(k):
        offset = 1.0 + rng.gauss(0.0, drift)
        out.append(BootSession(tuple(100.0 * (1 + shift) * offset * (1 + rng.gauss(0.0, cv))
                                     for _ in range(runs)), f"{prefix}{i}"))
    return out


def test_sessions_of_one_boot_are_one_replicate_and_unknown_boots_their_own() -> None:
    side = reduce_side([BootSession((1.0, 1.0), "a"), BootSession((4.0, 4.0), "a"),
                        BootSession((2.0,), None), BootSession((2.0,), None)])
    assert side.k == 3 and side.sessions == (2, 1, 1)
    assert side.means[0] == pytest.approx(math.log(2.0))  # mean of the session means' logs
    assert side.session_df == 1 and side.within_df == 2
    assert side.session_ss == pytest.approx(2 * (math.log(2.0)) ** 2)


def test_equal_boots_give_students_two_sample_t_on_boot_means() -> None:
    base = boots("b", 1.00, 1.01, 0.99, 1.005)
    cand = boots("c", 1.03, 1.02, 1.04)
    noise = boot_noise(reduce_side(base), reduce_side(cand))
    assert noise is not None
    mb = [statistics.fmean(math.log(v) for v in s.samples) for s in base]
    mc = [statistics.fmean(math.log(v) for v in s.samples) for s in cand]
    pooled = ((len(mb) - 1) * statistics.variance(mb) + (len(mc) - 1) * statistics.variance(mc)) \
        / (len(mb) + len(mc) - 2)
    assert noise.se == pytest.approx(math.sqrt(pooled * (1 / 4 + 1 / 3)), rel=1e-9)
    assert noise.df == 5.0 and noise.source.startswith("boots (4 + 3 boots, df 5)")
    d = decide_boots(base, cand, "lower", BootPlan(3, 6, 3))
    t = (statistics.fmean(mc) - statistics.fmean(mb)) / noise.se
    assert d.p_value == pytest.approx(1.0 - t_cdf(t, 5.0), rel=1e-6)
    assert upper_tail(-t, 5.0) == pytest.approx(t_cdf(t, 5.0), rel=1e-9)


def test_one_boot_each_side_rests_on_the_allowance_or_the_measured_session_spread() -> None:
    cand = boots("c", 1.0)
    close = [BootSession((100.0, 100.5, 99.5), "b"), BootSession((100.2, 100.1, 99.9), "b")]
    noise = boot_noise(reduce_side(close), reduce_side(cand))
    assert noise is not None and noise.source.startswith("assumed: one-boot allowance 5%")
    assert noise.between == pytest.approx(ONE_BOOT_ALLOWANCE.variance) and not noise.from_boots
    # a VM's two sessions of one boot 18% apart: the spread widens the drift, but only at the
    # allowance's degrees of freedom (never its own one)
    far = [BootSession((574.0, 570.0, 578.0), "b"), BootSession((470.0, 466.0, 468.0), "b")]
    wide = boot_noise(reduce_side(far), reduce_side(boots("c", 4.7)))
    assert wide is not None and wide.source.startswith(
        "assumed: the spread between sessions of one boot")
    assert wide.between > 5 * ONE_BOOT_ALLOWANCE.variance and not wide.from_boots
    d = decide_boots(far, [BootSession((466.5, 468.0, 465.0), "c")], "higher",
                     BootPlan(3, 6, 1))
    assert d.status in ("continue", "inconclusive")  # -18.99% is not called a regression


def test_one_degree_of_freedom_is_not_a_drift() -> None:
    """Two baseline sessions of one boot 1.6% apart and a rerun in the same boot 17% faster
    (a busy VM): no improvement (it was one, with the drift taken from the one degree of
    freedom of the two sessions or from a 1% allowance); the line says the drift was assumed.
    A lost AES unit (-90%) is far beyond any drift and is still a regression."""
    rng = random.Random(1)

    def session(level: float) -> BootSession:
        return BootSession(tuple(level * (1 + rng.gauss(0, 0.02)) for _ in range(3)), "b1")
    base = [session(4000.0), session(4064.0)]
    faster = decide_boots(base, [session(4700.0)], "higher", BootPlan(3, 3, alpha=0.04 / 6))
    assert faster.status == "inconclusive", faster.detail
    assert "one boot a side does not measure the drift between boots" in faster.detail
    assert "assumed: one-boot allowance 5%" in faster.detail
    lost = decide_boots(base, [session(420.0)], "higher", BootPlan(3, 3, alpha=0.04 / 6))
    assert lost.status == "regression", lost.detail


def test_a_session_spread_above_the_boots_estimate_wins_keeping_the_boots_df() -> None:
    base = [BootSession((100.0, 100.1, 99.9), "b0"), BootSession((103.0, 103.1, 102.9), "b0"),
            BootSession((100.0, 100.1, 99.9), "b1"), BootSession((103.0, 103.1, 102.9), "b1")]
    cand = [BootSession((101.5, 101.6, 101.4), "c0")]
    noise = boot_noise(reduce_side(base), reduce_side(cand))
    assert noise is not None and noise.source.startswith("session spread (2 + 1 boots, df 1)")
    assert noise.df == 1.0 and noise.between == pytest.approx(noise.session_var)


def test_no_repeated_sample_anywhere_is_inconclusive() -> None:
    d = decide_boots([BootSession((100.0,), "b")], [BootSession((50.0,), "c")], "higher",
                     BootPlan(1, 1, 1))
    assert d.status == "inconclusive" and "no variance" in d.detail


def test_looks_before_the_last_candidate_boot_are_pending() -> None:
    base = boots("b", *(1.0 + 0.002 * i for i in range(10)))
    d = decide_boots(base, boots("c", 1.10), "lower", BootPlan(3, 6, 3))
    assert d.status == "pending" and "pending: candidate boot 1 of 3" in d.detail
    assert d.candidate_boots == 1 and d.needed is not None


def test_a_regression_is_declared_only_at_the_confirmation_look() -> None:
    base = boots("b", *(1.0 + 0.002 * (i % 3) for i in range(10)))
    slow = [BootSession(tuple(110.0 * (1 + 0.001 * j) for j in range(n)), f"c{i}")
            for i, n in enumerate((3, 3, 3))]
    plan = BootPlan(3, 6, 3)
    assert decide_boots(base, slow, "lower", plan).status == "continue"
    longer = [*slow[:2], BootSession(slow[2].samples * 2, "c2")]
    d = decide_boots(base, longer, "lower", plan)
    assert d.status == "regression" and d.change_pct == pytest.approx(10.0, abs=0.2)
    assert d.p_value < plan.alpha and d.ci_pct[0] > 0
    # the same drop of a throughput (higher is better) is a regression too
    fast = [BootSession(tuple(100.0 / v * 100.0 for v in s.samples), s.boot_id) for s in longer]
    assert decide_boots(base, fast, "higher", plan).status == "regression"


def test_pass_is_the_upper_bound_of_the_drop_below_delta() -> None:
    """Non-inferiority: a metric passes when the one-sided upper confidence bound of its drop
    is below delta, whatever the power (reported, never a condition); the line gives the
    bound.  A noisy board's unchanged metric whose bound stays above delta is inconclusive and
    says what would decide it."""
    rng = random.Random(3)
    plan = BootPlan(3, 3, 3)
    quiet = decide_boots(draw(rng, "b", 10, 3, 0.002, 0.001), draw(rng, "c", 3, 3, 0.002, 0.001),
                         "lower", plan)
    assert quiet.status == "pass" and quiet.upper_pct < plan.min_effect_pct
    assert f"pass: the drop is at most {quiet.upper_pct:.2f}% (95% confidence), under 3%" \
        in quiet.detail
    rng = random.Random(3)
    noisy = [decide_boots(draw(rng, "b", 10, 3, 0.03, 0.02), draw(rng, "c", 3, 3, 0.03, 0.02),
                          "lower", plan) for _ in range(30)]
    assert all((d.status == "pass") == (d.upper_pct < plan.min_effect_pct) for d in noisy
               if d.status in ("pass", "inconclusive"))
    stuck = [d for d in noisy if d.status == "inconclusive"]
    assert stuck and all("deciding at 3% needs" in d.detail and "the drop is at most" in d.detail
                         for d in stuck)


def test_the_hint_is_the_fewest_boots_that_would_pass_an_unchanged_metric() -> None:
    rng = random.Random(11)
    base, cand = draw(rng, "b", 3, 3, 0.01, 0.005), draw(rng, "c", 1, 3, 0.01, 0.005)
    plan = BootPlan(3, 6, 3)
    d = decide_boots(base, cand, "lower", plan)
    noise = boot_noise(reduce_side(base), reduce_side(cand))
    assert d.needed is not None and noise is not None
    k, c = d.needed.baseline_boots, d.needed.candidate_boots
    assert k is not None and c is not None and c >= plan.boots
    delta = plan.delta

    def level(k: int, c: int) -> float:
        return plan.pass_level(c, k)
    assert margin(noise, k, c, 3, level) <= delta
    assert margin(noise, k - 1, c, 3, level) > delta or k == 3
    assert f"{k} baseline boots and {c} candidate boots of 3 runs" in d.detail
    assert "95% of drops >= " in d.detail


def test_the_test_keeps_its_level_when_nothing_changed() -> None:
    """Seeded: 1,500 unchanged metrics (10 boots vs 3, CV 1%, drift 0.5%) at alpha 5%."""
    rng = random.Random(2026)
    plan = BootPlan(3, 3, 3, alpha=0.05)
    rejected = sum(
        decide_boots(draw(rng, "b", 10, 3, 0.01, 0.005), draw(rng, "c", 3, 3, 0.01, 0.005),
                     "lower", plan).p_value <= 0.05 for _ in range(1500))
    assert 0.02 <= rejected / 1500 <= 0.06


def test_plan_is_validated() -> None:
    with pytest.raises(ValueError, match="boots >= 1"):
        BootPlan(3, 6, 0)
    with pytest.raises(ValueError, match="alpha"):
        BootPlan(3, 6, 1, alpha=0.7)
    assert BootPlan(3, 6).regression_looks == (6,)
    assert BootPlan(3, 9).regression_level(1, 10) == 0.04 / 50


def test_real_samples_from_this_host_through_the_boot_test() -> None:
    """The four openssl metrics recorded on the busy development VM
    (tests/data/this_machine/gate-replay_*): groups 1-3 as baseline boots, group 4 as the one
    candidate boot, run by the loop of the last boot.  Unchanged, no metric is a regression or
    a pass; 90% slower (the AES-NI-masked scale), every metric is a confirmed regression."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import gate_simulation

    files = sorted(gate_simulation.REPLAY_DIR.glob(gate_simulation.REPLAY_GLOB))
    assert len(files) == 4
    plan = BootPlan(3, 6, 1, alpha=0.04 / 4)
    for path in files:
        _, groups = gate_simulation.load_replay(path)
        base = [BootSession(tuple(groups[g]), f"group{g}") for g in (1, 2, 3)]
        for shift, expected in ((0.0, {"inconclusive"}), (-0.90, {"regression"})):
            stream = [v * (1 + shift) for v in groups[4]]
            d = next(d for n in range(3, 7) if (d := decide_boots(
                base, [BootSession(tuple(stream[:n]), "group4")], "higher", plan)).status
                != "continue")
            assert d.status in expected, (path.name, shift, d.detail)


def test_the_simulation_drives_the_procedure_and_the_anchors() -> None:
    """benchmarks/gate_simulation.py --boots: one detection cell, a few seeded suites."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import gate_boots
    import gate_simulation

    cell = gate_boots.detect_cells()[0]
    tally = gate_boots.run_boot_cell(cell, 5, 1, {"lkp": gate_simulation.lkp})
    assert tally.suites == 5 and tally.metrics == 125 and tally.failed == 0
    assert tally.detected == [4] and set(tally.anchors) == {"lkp"}  # seeded: 4 of 5
    line = gate_boots.row(cell, tally)
    assert line.startswith("| lone 3% drop; CV 1%, drift 0.5% | 10 vs 3 | 0.0% (")
    assert "lone 3%: 80.0% (>= 95.0%: NOT met)" in line



def test_sessions_of_the_baseline_boot_set_the_drift_a_rerun_is_judged_with() -> None:
    """Real quick sessions of aes-128-gcm on the 2-core development VM (2026-12-01, MB/s
    rounded), all in one boot.  Against one baseline session the 5% allowance stands for the
    drift (assumed), and a -9.7% rerun is inconclusive; against two sessions their spread
    (7.2%) widens the assumed drift, at the allowance's degrees of freedom, and the same rerun
    is inconclusive too.  The candidate's session mean never enters the spread it is judged by,
    and a 91% drop (AES-NI masked) is beyond any drift: a regression either way."""
    boot = "e21b1a09"
    first = BootSession((3747e6, 3847e6), boot)
    second = BootSession((3414e6, 3327e6, 3531e6, 3440e6), boot)
    plan = BootPlan(2, 4, 1, alpha=0.04 / 12)
    one = decide_boots([first], [second], "higher", plan)
    assert one.status == "inconclusive" and one.noise_source.startswith("assumed: one-boot")
    rerun = BootSession((3550e6, 3300e6, 3480e6, 3600e6), boot)
    two = decide_boots([first, second], [rerun], "higher", plan)
    assert two.status == "inconclusive"
    assert two.noise_source.startswith("assumed: the spread between sessions of one boot, 7.2")
    masked_run = BootSession((330e6, 320e6, 327e6, 331e6), boot)
    for base in ([first], [first, second]):
        masked = decide_boots(base, [masked_run], "higher", plan)
        assert masked.change_pct < -90 and masked.status == "regression", masked.detail


def test_intervals_a_person_can_read() -> None:
    """An interval that holds no change and reaches past 50% either way is said as "cannot
    tell", never printed as a precise figure; a narrow one, or one that excludes no change
    (a sure drop, however wide), keeps its numbers."""
    from pytest_sbcbench.words import interval_text, pct_text

    assert interval_text(-99.84, 61611.41, 99.89) == \
        "cannot tell: the 99.89% interval spans -99.8% .. +61,611%"
    assert interval_text(-1.2, 0.4, 99.89) == "99.89% CI -1.20% .. +0.40%"
    assert interval_text(-75.8, -33.8, 99.0) == "99.00% CI -75.8% .. -33.80%"
    assert interval_text(None, 3.0).startswith("cannot tell: the interval spans unbounded")
    assert pct_text(0.8) == "+0.80%" and pct_text(-59.91) == "-59.9%"
    # a verdict's line: one candidate boot of a board whose boots differ by 30%
    rng = random.Random(4)
    d = decide_boots(draw(rng, "b", 3, 3, 0.01, 0.3), draw(rng, "c", 1, 3, 0.01, 0.3), "lower",
                     BootPlan(3, 3, 1))
    assert "cannot tell: the " in d.detail and "tolerance" not in d.detail


def test_runs_dominate_where_run_noise_outweighs_boot_drift() -> None:
    """Ten boots of 3 runs: CV 1% against a drift of 0.2%, the runs' part of a boot mean is
    larger (more runs a boot narrow the verdict); CV 0.3% against a drift of 1%, the boots'
    is; fewer than three boots say nothing."""
    from pytest_sbcbench.judge.boot_test import runs_dominate

    rng = random.Random(8)
    assert runs_dominate(reduce_side(draw(rng, "b", 10, 3, 0.01, 0.002)))
    assert not runs_dominate(reduce_side(draw(rng, "b", 10, 3, 0.003, 0.01)))
    assert not runs_dominate(reduce_side(draw(rng, "b", 2, 3, 0.05, 0.0)))
