"""The bisect's step rule (judge/bisect_rule.py) and its procedure (run/bisect/procedure.py) on
the simulation's stand-ins for git and the board (benchmarks/bisect_simulation.py)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from pytest_sbcbench.judge.bisect_rule import (
    AlphaPlan,
    expected_steps,
    judge_ends,
    judge_pair,
    judge_step,
    looks,
)
from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.run.bisect.procedure import BisectPlan, Finished, Procedure

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import bisect_simulation as sim


def boots(level: float, n: int, seed: str, drift: float = 0.005, cv: float = 0.01
          ) -> list[BootSession]:
    rng = random.Random(seed)
    out = []
    for j in range(n):
        offset = 1 + rng.gauss(0, drift)
        out.append(BootSession(tuple(level * offset * (1 + rng.gauss(0, cv)) for _ in range(3)),
                               f"{seed}-{j}"))
    return out


def test_the_shares_of_alpha_never_sum_past_the_total() -> None:
    plan = AlphaPlan(0.05, expected_steps(1024))
    assert plan.steps == 10
    spent = plan.ends + plan.confirm + sum(plan.step(i) for i in range(1, 200))
    assert spent <= 0.05 and spent > 0.0499
    assert plan.step(11) == plan.unit / 2 and plan.step(3) == plan.unit
    assert looks(2, 12, 1) == 11 and looks(12, 12, 6) == 1
    with pytest.raises(ValueError):
        plan.step(0)


def test_a_step_is_good_bad_or_undecided_against_both_ends() -> None:
    good, bad = boots(100, 6, "g"), boots(95, 6, "b")
    ends = judge_ends(good, bad, "higher", 0.005)
    assert ends.status == "differ" and -6 < ends.effect_pct < -4
    assert judge_step(good, bad, boots(100, 4, "x"), "higher", 0.005).status == "good"
    assert judge_step(good, bad, boots(95, 4, "y"), "higher", 0.005).status == "bad"
    # halfway between the ends with one boot: neither end is ruled out
    middle = judge_step(good, bad, boots(97.5, 1, "z"), "higher", 0.005)
    assert middle.status == "undecided" and 0.2 < middle.position < 0.8
    # lower is better: the same numbers read the other way round
    assert judge_step(bad, good, boots(95, 4, "y"), "lower", 0.005).status == "good"
    assert judge_ends(good, boots(100, 6, "s"), "higher", 0.005).status == "undecided"


def test_the_pair_is_confirmed_only_when_the_culprit_holds_the_drop() -> None:
    d = 0.05
    assert judge_pair(boots(100, 5, "p"), boots(95, 5, "c"), "higher", d, 0.005).status == \
        "confirmed"
    assert judge_pair(boots(95, 8, "p2"), boots(95, 8, "c2"), "higher", d, 0.005).status == \
        "refuted"


def world(culprit: int, drop: float = 5.0, drift: float = 0.5) -> sim.World:
    return sim.World(f"unit:{culprit}", 64, culprit, drop, drift)


@pytest.mark.parametrize("culprit", [1, 17, 40, 64])
def test_the_procedure_names_the_culprit_on_drawn_boots(culprit: int) -> None:
    w = world(culprit)
    outcome = Procedure(sim.LineBisector(w.commits), sim.DrawBench(w), sim.name(0),
                        sim.name(w.commits), BisectPlan()).run()
    if not w.isolable:
        assert outcome.culprit is None  # git cannot isolate a commit next to a skip
    else:
        assert outcome.status == "found" and outcome.culprit == sim.name(culprit)
        assert outcome.interval_pct is not None and outcome.interval_pct[1] < 0
    assert outcome.boots >= 2 * 3 + len(outcome.steps)


def test_ends_that_do_not_differ_name_no_culprit() -> None:
    w = world(10, drop=0.0)
    outcome = Procedure(sim.LineBisector(w.commits), sim.DrawBench(w), sim.name(0),
                        sim.name(w.commits), BisectPlan(budget=5)).run()
    assert outcome.status == "undecided" and outcome.culprit is None
    assert "not worse than the good end" in outcome.reason


def test_the_line_bisector_reports_skipped_neighbours() -> None:
    b = sim.LineBisector(4)
    assert b.start() == sim.name(2)
    assert b.mark(sim.name(2), "skip") in (sim.name(1), sim.name(3))
    assert b.mark(sim.name(1), "skip") == sim.name(3)
    assert b.mark(sim.name(3), "skip") == Finished(None, tuple(sim.name(i) for i in (1, 2, 3,
                                                                                       4)))


def test_the_simulation_table_meets_the_target_on_a_small_seeded_run() -> None:
    lines = sim.tables(12, 5, 256, cells=((5.0, 1.0),))
    rows = [line.split(" | ") for line in lines if line.startswith("| 5% drop")]
    assert [r[1] for r in rows] == ["sbcbench bisect", "one sample a step", "Pinpoint 10 + 10"]
    ours = rows[0]
    assert ours[3].startswith("0.0%")  # no wrong culprit
    assert float(ours[6].split("%")[0]) >= 95.0


def test_a_results_document_becomes_one_boot_per_metric() -> None:
    from pytest_sbcbench.run.bisect.suite import boot_from

    def result(metric: str, status: str, threads: int = 1) -> dict[str, object]:
        return {"test": "benchmarks/test_scaling.py::test_openssl_scaling", "metric": metric,
                "better": "higher", "samples": [10.0, 11.0], "verdict": {"status": status},
                "identity": {"threads": threads}}

    doc = {"environment": {"boot_id": "host", "lab": {"boot_id": "board-boot"}},
           "results": [result("scaling-openssl-sha256", "no-baseline", 1),
                       result("scaling-openssl-sha256", "pass", 2),
                       result("sha512", "implausible")]}
    boot = boot_from(doc)
    assert boot is not None
    key = "scaling-openssl-sha256 threads=2 (benchmarks/test_scaling.py::test_openssl_scaling)"
    assert sorted(boot.sessions) == [key.replace("threads=2", "threads=1"), key]
    assert boot.sessions[key].boot_id == "board-boot" and boot.better[key] == "higher"
    assert boot_from({"results": [result("sha512", "invalid")]}) is None
    assert boot_from([]) is None
