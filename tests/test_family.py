"""Error control across the suite: Holm at 4% and the suite-mean test at 1% (judge/family.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pytest_sbcbench.judge.boot_decide import BootDecision, BootPlan, decide_boots
from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.judge.family import (
    close_family,
    holm,
    per_test_alpha,
    suite_mean_test,
    suite_metric,
)


def draw(rng: random.Random, prefix: str, k: int, cv: float, drift: float, shift: float = 0.0,
         shared: list[float] | None = None) -> list[BootSession]:
    """k boots of 3 runs; ``shared``: one offset per boot for every metric (scaled by drift)."""
    out = []
    for i in range(k):
        z = shared[i] if shared is not None else rng.gauss(0.0, 1.0)
        out.append(BootSession(tuple(100.0 * (1 + shift) * (1 + drift * z)
                                     * (1 + rng.gauss(0.0, cv)) for _ in range(3)),
                               f"{prefix}{i}"))
    return out


def test_each_test_decides_at_holms_first_step() -> None:
    assert per_test_alpha(25) == pytest.approx(0.0016)
    assert per_test_alpha(1) == pytest.approx(0.04)
    with pytest.raises(ValueError):
        per_test_alpha(0)


def test_holm_steps_down_and_stops_at_the_first_failure() -> None:
    # 4 hypotheses at 5%: 0.005 <= 0.0125, 0.01 <= 0.0167, then 0.03 > 0.025 stops
    assert holm([0.01, 0.04, 0.03, 0.005], 0.05) == [True, False, False, True]
    assert holm([0.2, 0.3], 0.05) == [False, False]
    assert holm([], 0.05) == []
    assert holm([0.001] * 10, 0.04) == [True] * 10


def decision(p: float, status: str = "inconclusive", change: float = -1.0) -> BootDecision:
    """A final decision with the given p-value, made by the real rule then given ``p``."""
    base = [BootSession((100.0, 100.2, 99.8), f"b{i}") for i in range(3)]
    d = decide_boots(base, [BootSession((100.1, 100.0, 99.9), "c0")], "lower",
                     BootPlan(3, 3, 1))
    return dataclasses.replace(d, p_value=p, status=status, change_pct=change)  # type: ignore[arg-type]


def test_holms_later_steps_add_failures_after_the_tests_ended() -> None:
    m = 4
    first = per_test_alpha(m)  # 0.01
    decisions = [("a", decision(first / 2, "regression", -6.0)),
                 ("b", decision(0.04 / 3 * 0.9)),  # fails only at Holm's second step
                 ("c", decision(0.5, "pass")), ("d", decision(0.9, "pass"))]
    suite = suite_mean_test([])
    family = close_family(decisions, suite)
    assert family.regressions == ("a", "b") and family.added == ("b",) and family.failed
    quiet = close_family([("c", decision(0.5, "pass"))], suite)
    assert not quiet.failed and quiet.regressions == () and quiet.added == ()


def test_the_suite_mean_catches_a_kernel_wide_slowdown_no_metric_shows() -> None:
    rng = random.Random(8)
    shared = [rng.gauss(0.0, 1.0) for _ in range(13)]
    slow, same, plan = [], [], BootPlan(3, 3, 3, alpha=per_test_alpha(25))
    for j in range(25):
        base = draw(rng, "b", 10, 0.02, 0.005, shared=shared[:10])
        noise = draw(rng, "c", 3, 0.02, 0.005, shared=shared[10:])
        moved = [BootSession(tuple(v * 1.02 for v in s.samples), s.boot_id) for s in noise]
        slow.append((f"m{j}", base, moved))
        same.append((f"m{j}", base, noise))
    decisions = [(n, decide_boots(b, c, "lower", plan)) for n, b, c in slow]
    assert not any(d.status == "regression" for _, d in decisions)  # no metric alone
    suite = suite_mean_test([suite_metric(n, b, c, "lower") for n, b, c in slow])
    assert suite.status == "regression" and suite.change_pct == pytest.approx(2.0, abs=0.8)
    assert suite.baseline_boots == 10 and suite.candidate_boots == 3 and suite.metrics == 25
    family = close_family(decisions, suite)
    assert family.failed and family.regressions == () and family.suite is suite
    unchanged = suite_mean_test([suite_metric(n, b, c, "lower") for n, b, c in same])
    assert unchanged.status == "no-regression" and unchanged.p_value > 0.01


def test_the_suite_mean_counts_a_throughput_drop_as_worse() -> None:
    rng = random.Random(4)
    metrics = []
    for j in range(5):
        base = draw(rng, "b", 6, 0.002, 0.0)
        cand = [BootSession(tuple(v * 0.95 for v in s.samples), s.boot_id)
                for s in draw(rng, "c", 3, 0.002, 0.0)]
        metrics.append(suite_metric(f"m{j}", base, cand, "higher"))
    result = suite_mean_test(metrics)
    assert result.status == "regression" and result.change_pct == pytest.approx(5.3, abs=0.3)


def test_the_suite_mean_needs_boots_every_metric_shares() -> None:
    rng = random.Random(5)
    a = suite_metric("a", draw(rng, "b", 3, 0.01, 0.0), draw(rng, "c", 1, 0.01, 0.0), "lower")
    b = suite_metric("b", draw(rng, "x", 3, 0.01, 0.0), draw(rng, "c", 1, 0.01, 0.0), "lower")
    result = suite_mean_test([a, b])
    assert result.status == "not-run" and "0 baseline and 1 candidate boots shared" in \
        result.detail
    assert suite_mean_test([]).status == "not-run"
