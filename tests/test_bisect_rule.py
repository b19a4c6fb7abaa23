"""The bisect's step rule (judge/bisect_rule.py) and its procedure (run/bisect/procedure.py) on
the simulation's stand-ins for git and the board (benchmarks/bisect_simulation.py)."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_sbcbench.judge.bisect_rule import (
    AlphaPlan,
    boots_for_step,
    expected_steps,
    judge_ends,
    judge_pair,
    judge_step,
    looks,
)
from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.run.bisect.git import Git, GitBisector
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
    assert looks(2, 12, 1) == 11 and looks(12, 12, 6) == 1
    # the expected steps a unit each; every test past the plan (extra steps, a correction and
    # its confirmation) half of what is left of the same reserve, however many there are
    assert plan.reserve(1) == plan.unit / 2 and plan.reserve(2) == plan.unit / 4
    drawn = plan.ends + plan.confirm + plan.steps * plan.unit + sum(
        plan.reserve(d) for d in range(1, 200))
    assert 0.0499 < drawn <= 0.05
    with pytest.raises(ValueError):
        plan.reserve(0)


def test_a_step_never_starts_on_fewer_boots_than_the_ends_had() -> None:
    good, bad = boots(100, 3, "g3"), boots(50, 3, "b3")  # a drop far beyond the noise
    ends = judge_ends(good, bad, "higher", 0.005)
    assert ends.status == "differ"
    # the power sum alone asks for 1 boot; the floor is the ends' 3 (the fewer of the two)
    assert boots_for_step(ends, 3, 3, 3, 0.007, 12) == 3
    assert boots_for_step(ends, 5, 3, 3, 0.007, 12) == 3
    assert boots_for_step(ends, 3, 3, 3, 0.007, 2) == 2  # never past the budget


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


@dataclasses.dataclass(frozen=True)
class Misled(sim.World):
    """The QEMU lab's failure: the first ``slow`` boots of a good commit (the culprit's
    parent) are as slow as the bad end, later ones are not."""

    slow: int = 4

    def boot(self, i: int, j: int) -> tuple[float, ...]:
        if i == self.culprit - 1 and j < self.slow:
            return super().boot(self.commits, 1000 + j)
        return super().boot(i, j)


def test_a_refuted_culprit_corrects_the_wrong_mark_and_names_the_right_commit() -> None:
    w = Misled("misled", 16, 10, 5.0, 0.5)
    said: list[str] = []
    outcome = Procedure(sim.LineBisector(16), sim.DrawBench(w), sim.name(0), sim.name(16),
                        BisectPlan(), say=said.append).run()
    assert [(s.commit, s.mark) for s in outcome.steps] == [
        ("c00008", "good"), ("c00012", "bad"), ("c00010", "bad"), ("c00009", "bad"),
        ("c00009", "good")]  # the last: the correction, from the refuted pair's fresh boots
    assert outcome.steps[-1].detail.startswith("the refuted pair against the ends")
    assert "bisect: c00009 against its parent: +0.45% [-2.11, +3.08], 5 boots each: refuted" \
        in said
    assert any(line.startswith("bisect: correction: c00009 good") and
               line.endswith("git bisect replays 4 marks") for line in said)
    assert outcome.status == "found" and outcome.culprit == "c00010"
    assert outcome.interval_pct is not None and outcome.interval_pct[1] < 0


def test_a_correction_that_cannot_decide_ends_undecided_naming_the_candidate() -> None:
    # the culprit's parent and the culprit itself both halfway between the ends, so the
    # refuted pair is on neither side: no mark is corrected and no commit named
    @dataclasses.dataclass(frozen=True)
    class Halfway(sim.World):
        def boot(self, i: int, j: int) -> tuple[float, ...]:
            if i in (self.culprit - 1, self.culprit) and j >= 4:
                return tuple(0.975 * x for x in super().boot(0, 2000 + 10 * i + j))
            return super().boot(i, j)

    w = Halfway("halfway", 16, 10, 5.0, 0.5)
    outcome = Procedure(sim.LineBisector(16), sim.DrawBench(w), sim.name(0), sim.name(16),
                        BisectPlan()).run()
    assert outcome.status == "undecided" and outcome.culprit is None
    assert outcome.candidates == ("c00010",) and "does not hold the drop" in outcome.reason


def test_steps_past_the_reserve_end_undecided_not_in_a_crash() -> None:
    # every commit between the ends sits halfway: each step is undecided (a skip), each one
    # past the expected 10 halves the reserve, until a test would run at alpha below 1e-9
    @dataclasses.dataclass(frozen=True)
    class Between(sim.World):
        def builds(self, i: int) -> bool:
            return True

        def boot(self, i: int, j: int) -> tuple[float, ...]:
            if 0 < i < self.commits:
                return tuple(0.975 * x for x in super().boot(0, 3000 + j))
            return super().boot(i, j)

    w = Between("between", 1024, 500, 5.0, 0.5)
    outcome = Procedure(sim.LineBisector(w.commits), sim.DrawBench(w), sim.name(0),
                        sim.name(w.commits), BisectPlan(budget=3)).run()
    assert outcome.status == "undecided" and outcome.culprit is None
    assert outcome.reason.startswith("21 tests past the plan of 10 steps (skipped steps, "
                                     "corrections) spent the error split's reserve")
    assert len(outcome.steps) == 31 and {s.mark for s in outcome.steps} == {"skip"}


def test_git_bisect_replays_a_corrected_log(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    shas = []
    for i in range(9):
        (repo / "n").write_text(f"{i}\n")
        for args in (["init", "-q"] * (i == 0), ["add", "n"], ["commit", "-qm", f"c{i}"]):
            if args:
                subprocess.run(["git", "-C", str(repo), "-c", "user.email=ci@example.org",
                                "-c", "user.name=ci", *args], check=True)
        shas.append(Git(repo).head())
    bisector = GitBisector(Git(repo), shas[0], shas[8])
    assert bisector.start() == shas[4]
    assert bisector.mark(shas[4], "bad") == shas[2]
    assert bisector.mark(shas[2], "good") == shas[3]
    assert bisector.mark(shas[3], "good") == Finished(shas[4])
    # c4's "bad" was wrong: the same marks with c4 good go on between c4 and the bad end
    again = bisector.replay([(shas[2], "good"), (shas[3], "good"), (shas[4], "good")])
    assert again == shas[6] and Git(repo).head() == shas[6]
    log = bisector.log()
    assert f"git bisect good {shas[4]}" in log and f"git bisect bad {shas[4]}" not in log
    assert bisector.mark(shas[6], "good") == shas[7]
    assert bisector.mark(shas[7], "bad") == Finished(shas[7])


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
