"""The regression gate's statistics on synthetic samples."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pytest_sbcbench.judge.gate import FLOOR_PCT, NO_VARIANCE_PCT, gate, standard_error
from pytest_sbcbench.judge.tdist import t_cdf, t_ppf

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import gate_simulation

STAR64_PINNED = [458.17, 463.08, 462.59]  # seconds, CV 0.59%


@pytest.mark.parametrize(("p", "df", "expected"), [
    (0.975, 4, 2.776445), (0.99, 10, 2.763769), (0.95, 1, 6.313752), (0.98, 4, 2.998528),
    (0.995, 30, 2.749996), (0.975, 2.5, 3.574652),
])
def test_t_quantiles(p: float, df: float, expected: float) -> None:
    assert t_ppf(p, df) == pytest.approx(expected, rel=1e-3)
    assert t_cdf(t_ppf(p, df), df) == pytest.approx(p, abs=1e-9)


def test_t_quantile_domain() -> None:
    with pytest.raises(ValueError):
        t_ppf(0.4, 3)


def test_unchanged_build_passes() -> None:
    outcome = gate([STAR64_PINNED], [460.1, 462.0, 461.5], "lower")
    assert outcome.status == "pass"
    assert outcome.df == 4.0 and outcome.baseline_n == 3 and outcome.current_n == 3


def test_three_percent_slower_build_is_a_regression() -> None:
    outcome = gate([STAR64_PINNED], [x * 1.03 for x in (459.0, 462.5, 461.9)], "lower")
    assert outcome.status == "regression"
    line = outcome.line("ballistics-engine pinned", "s")
    assert "baseline median 462.6 s" in line and "change +2.97%" in line
    assert "tolerance" in line and "n = 3 in 1 session(s) vs 3" in line


def test_direction_follows_better() -> None:
    base = [[100.0, 101.0, 99.5]]
    assert gate(base, [90.0, 91.0, 90.5], "higher").status == "regression"
    assert gate(base, [90.0, 91.0, 90.5], "lower").status == "improvement"
    assert gate(base, [110.0, 111.0, 110.5], "higher").status == "improvement"


def test_tolerance_is_symmetric_in_log_space() -> None:
    """A halving of throughput is as large a move as a doubling of time."""
    base = [[100.0, 101.0, 99.0]]
    halved = gate(base, [50.0, 50.5, 49.5], "higher")
    doubled = gate(base, [200.0, 202.0, 198.0], "lower")
    assert halved.status == doubled.status == "regression"
    assert halved.tolerance_pct < doubled.tolerance_pct  # same log width, shown per direction


def test_floor_stops_tiny_variance_from_flagging_noise() -> None:
    base = [[100.0, 100.0001, 100.0002]]
    outcome = gate(base, [101.0, 101.0001, 101.0002], "lower")
    assert outcome.status == "pass" and outcome.tolerance_pct == pytest.approx(FLOOR_PCT)


def test_two_session_baseline_widens_for_between_session_spread() -> None:
    one = gate([[100.0, 100.3, 99.8]], [102.5, 102.6, 102.3], "lower")
    two = gate([[100.0, 100.3, 99.8], [102.0, 101.8, 102.2]], [102.5, 102.6, 102.3], "lower")
    assert one.status == "regression"
    assert two.status == "pass" and two.tolerance_pct > one.tolerance_pct
    assert two.baseline_sessions == 2 and two.baseline_n == 6


def test_two_runs_each() -> None:
    outcome = gate([[100.0, 101.0], [100.5, 99.5]], [80.0, 81.0], "higher")
    assert outcome.status == "regression" and outcome.df == 3.0


def test_single_samples_use_a_fixed_tolerance() -> None:
    assert gate([[100.0]], [96.0], "higher").status == "pass"
    outcome = gate([[100.0]], [94.0], "higher")
    assert outcome.status == "regression" and outcome.df is None
    assert outcome.tolerance_pct == pytest.approx(100 * (1 - 1 / (1 + NO_VARIANCE_PCT / 100)))
    assert "no variance" in outcome.line("x")


def test_single_samples_in_several_sessions_use_their_spread() -> None:
    found = standard_error([[4.6], [4.61], [4.59]], [4.6])
    assert found is not None and found[1] == 2.0


@pytest.mark.parametrize("bad", [([], [1.0]), ([[1.0]], []), ([[0.0, 1.0]], [1.0]),
                                 ([[1.0]], [-2.0])])
def test_invalid_input(bad: tuple[list[list[float]], list[float]]) -> None:
    with pytest.raises(ValueError):
        gate(bad[0], bad[1], "higher")


def test_simulation_runs_whole_suites_against_the_anchors() -> None:
    """A small, seeded run of the README simulation: quiet metrics pass at the minimum, a 3%
    regression is confirmed at 2x the runs, the suite-level false alarms stay rare."""
    quiet = gate_simulation.Scenario(0.003, 0.0, 3, (0.0, 0.03))
    tallies = gate_simulation.run_cell(quiet, 12, 11)
    ours = gate_simulation.OURS
    null, three = tallies[(ours, 0.0)], tallies[(ours, 0.03)]
    assert null.metrics == 12 * 25 and null.flagged == 0 and null.share("pass") >= 0.8
    assert null.runs / null.metrics < 3.5
    assert three.flagged / three.metrics >= 0.8 and three.runs / three.metrics <= 6.0
    assert tallies[("pytest-benchmark mean:5%", 0.03)].flagged < 0.05 * three.metrics
    rows = gate_simulation.summary_table([(quiet, tallies)])
    assert rows[0].startswith("| cell (25 metrics") and rows[2].startswith("| CV 0.3%, drift 0%")
    table = gate_simulation.anchor_table(quiet, tallies)
    assert table[0] == "**CV 0.3%, drift 0%, 3 boot(s)**" and len(table) == 5 + 7


def test_tradeoff_table_varies_runs_and_pooling() -> None:
    """The README's trade-off table: one row per (runs a boot, prior floor / cap), the shipped
    rule first, oracle power rising with the runs, and the module's RUNS left as it was."""
    rows = gate_simulation.tradeoff_table(1, 5)
    assert len(rows) == 2 + len(gate_simulation.TRADEOFF_CONFIGS)
    assert rows[2].startswith("| 3, 6 / 30 |") and gate_simulation.RUNS == 3
    oracle = [float(r.split(" | ")[2].rstrip("%")) for r in rows[2:]]
    assert oracle[0] < 85.0 < 95.0 < oracle[1] <= oracle[2]
