"""benchmarks/gate_simulation.py, the evidence behind the README's sequential-verdict
tables: a small seeded run of whole suites, and the trade-off table."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import gate_simulation


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
