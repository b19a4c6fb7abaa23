"""The sequential verdicts as the plugin and ``sbcbench compare`` use them: boots read from
saved environments, plans carried by results, evidence in the results JSON, summary lines."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from scripted import SCRIPTED_BASE

from helpers import listing_settings, star64_tree
from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.judge.baseline import Baseline, BaselineEntry, StoredSession
from pytest_sbcbench.judge.looks import OFFLINE, ONE_BOOT
from pytest_sbcbench.judge.save_note import beside_note, boots_note, catch_note, findings_note
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import (
    PLAN_KEY,
    JudgeContext,
    count_metrics,
    failure_message,
    judge,
    judge_test,
    plan_of,
    run_plan,
)
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.platform.environment import boot
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.report.results import document, load_results
from pytest_sbcbench.report.terminal import verdict_lines
from pytest_sbcbench.run.session import Session as SessionOfRun
from pytest_sbcbench.workload import Plan, Sampling, sampling
from pytest_sbcbench.workloads import Registry

TEST = "benchmarks/test_crypto.py::test_digest[sha256]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="sha256")
# ten boots, three runs each: within-boot CV about 0.3%, boot means up to 0.2% apart (an
# honest two-sample t on boot means needs about ten baseline boots to pass at delta 3%)
OFFSETS = (0.0, 2.0, -2.0, 1.0, -1.0, 1.5, -1.5, 0.5, -0.5, 0.0)
BOOTS = {f"b{i}": (1000.0 + o, 1003.0 + o, 997.0 + o) for i, o in enumerate(OFFSETS, start=1)}


def baseline(boot_ids: bool = True) -> Baseline:
    sessions = tuple(StoredSession(f"2026-11-{i:02d}", samples, {"boot_id": b} if boot_ids else {})
                     for i, (b, samples) in enumerate(BOOTS.items(), start=1))
    return Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY, sessions),))


def result(samples: tuple[float, ...], n_metrics: int = 1, max_runs: int = 6) -> Result:
    m = Measurement("sha256", "B/s", "higher", IDENTITY, samples,
                    details={PLAN_KEY: {**dataclasses.asdict(sampling(3, max_runs, None)),
                                       "n_metrics": n_metrics}})
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))


def test_sessions_of_one_boot_are_one_replicate() -> None:
    steady = result((1000.0, 1003.0, 997.0))
    three = judge(steady, baseline=baseline(), board="star64")
    # one candidate boot against ten, level with them: its drop's upper bound is under 3%
    assert three.status == "pass" and three.evidence is not None
    assert three.evidence.baseline_boots == 10 and three.evidence.samples == 3
    one = Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY, tuple(
        StoredSession("x", s, {"boot_id": "same"}) for s in BOOTS.values())),))
    single = judge(steady, baseline=one, board="star64")
    assert single.status == "inconclusive" and single.evidence is not None
    assert single.evidence.baseline_boots == 1 and "1 baseline boot vs" in single.detail
    assert "assumed: one-boot allowance" in single.detail  # what the drift rests on
    # no recorded boot id: each session counts as its own boot
    unknown = judge(steady, baseline=baseline(boot_ids=False), board="star64").evidence
    assert unknown is not None and unknown.baseline_boots == 10


def test_a_cut_short_look_is_judged_as_the_last() -> None:
    """A suspect at the minimum would be re-measured by the loop; judged later with only those
    samples (a results file), the decision is final, never 'continue'."""
    slower = judge(result((960.0, 962.0, 958.0)), baseline=baseline(), board="star64")
    assert slower.status == "regression" and slower.evidence is not None
    assert slower.evidence.samples == 3


def test_plan_travels_with_the_result_and_has_a_fallback() -> None:
    """Runs, budget and delta travel with the result; alpha never does: it is 4% / m of the
    metrics the judge counts (a file saying alpha 1e-9 cannot switch the gate off)."""
    m = result((1.0, 2.0, 3.0), n_metrics=10).measurement
    poisoned = dataclasses.replace(m, details={PLAN_KEY: {**m.details[PLAN_KEY], "alpha": 1e-9}})
    got = plan_of(poisoned, 10)
    assert (got.min_runs, got.max_runs, got.boots) == (3, 6, 1)
    assert got.alpha == pytest.approx(0.004)
    bare = Measurement("sha256", "B/s", "higher", IDENTITY, (1.0, 2.0),
                       details={PLAN_KEY: {"min_runs": True}})
    fallback = plan_of(bare, 25)
    assert (fallback.min_runs, fallback.max_runs) == (2, 2)
    assert fallback.alpha == pytest.approx(0.0016)
    huge = dataclasses.replace(m, details={PLAN_KEY: {**m.details[PLAN_KEY],
                                                      "min_effect_pct": 1e9}})
    assert plan_of(huge, 1).min_effect_pct == 3.0  # no run gates at a delta of 1e9%
    assert run_plan(5, 3, 2.0, 4).max_runs == 5  # never below the planned runs
    assert run_plan(3, None, None, 4).max_runs == 6 and run_plan(3, None, None, 4)\
        .min_effect_pct == 3.0


def test_metrics_counted_for_the_suite_bound() -> None:
    assert count_metrics(None, [TEST]) == 1
    assert count_metrics(baseline(), [TEST, "other::test"]) == 1
    assert count_metrics(baseline(), ["other::test"]) == 1


def test_evidence_round_trips_through_the_results_json(tmp_path: Path) -> None:
    judged = result((1000.0, 1003.0, 997.0))
    verdict = judge(judged, baseline=baseline(), board="star64")
    final = Result(judged.test, judged.measurement, judged.summary, verdict)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document("star64", "now", {}, [final]), allow_nan=False))
    (back,) = load_results(path).results
    assert back.verdict == verdict
    assert back.measurement.details[PLAN_KEY] == judged.measurement.details[PLAN_KEY]
    # compare gives the run's verdict
    assert judge(back, baseline=baseline(), board="star64") == verdict
    raw = json.loads(path.read_text())
    raw["results"][0]["verdict"]["samples"] = "three"
    path.write_text(json.dumps(raw))
    with pytest.raises(Exception, match="verdict samples must be a whole number"):
        load_results(path)


def test_one_call_judges_a_test_and_gives_the_line_that_fails_it() -> None:
    """judge_test: judge_result, made invalid when disturbed, with its failure_message (the
    context's strictness); run_plan: the run's sampling (the one rule), alpha, the boots."""
    context = JudgeContext("star64", baseline=baseline(), n_metrics=1)
    slower = result((800.0, 803.0, 797.0))
    judged = judge_test(slower, context)
    assert judged.verdict == judge(slower, baseline=baseline(), board="star64", n_metrics=1)
    assert judged.verdict.status == "regression"
    assert judged.message == failure_message(judged.verdict, [], False)
    disturbed = judge_test(slower, context, "other processes kept 1.00 CPUs busy")
    assert disturbed.verdict.status == "invalid"
    assert (disturbed.message or "").startswith("invalid run: disturbed by other work")
    assert judge_test(slower, context, "steal", gate=True).message is None
    noisy = result((900.0, 1100.0, 1000.0, 950.0, 1050.0, 1000.0))
    assert judge_test(noisy, context).message is None
    strict = judge_test(noisy, dataclasses.replace(context, strict=True))
    assert (strict.message or "").startswith("inconclusive (--sbc-strict): ")
    plan = run_plan(3, 8, 2.0, 5, OFFLINE, 0.5)
    assert (plan.min_runs, plan.max_runs, plan.min_effect_pct) == (3, 8, 2.0)
    assert (plan.boots, plan.every_boot, plan.tail_weight) == (OFFLINE.boots,
                                                               OFFLINE.every_boot, 0.5)
    assert plan.alpha == pytest.approx(0.008)  # Holm's first step: 4% / 5
    assert sampling(3, 8, 2.0) == Sampling(3, 8, 2.0)
    assert sampling(3, None, None) == Sampling(3, 6, 3.0)  # 2x the runs, delta 3%
    assert sampling(3, 2, 50.0) == Sampling(3, 3, 50.0)  # never below the planned runs


@pytest.mark.parametrize(("runs", "effect"), [(0, None), (3, 0.0), (3, -1.0), (3, 50.5)])
def test_a_sampling_no_judge_would_believe_is_refused_before_any_run(
        runs: int, effect: float | None, tmp_path: Path) -> None:
    """No run, or a delta outside 0..50%: refused naming the workload (the judge would read
    such a plan from the results as a fixed count at 3%, not the run's)."""
    with pytest.raises(SbcBenchError, match=r"^openssl-aes: a plan of .* measures nothing"):
        Plan(runs, fixed=True, min_effect_pct=effect).sampling(
            listing_settings(star64_tree(tmp_path / "t"), False), None, "openssl-aes")


def test_inconclusive_fails_only_under_strict_and_the_summary_says_it() -> None:
    noisy = result((900.0, 1100.0, 1000.0, 950.0, 1050.0, 1000.0))
    verdict = judge(noisy, baseline=baseline(), board="star64")
    assert verdict.status == "inconclusive"
    assert failure_message(verdict, [], False) is None
    assert (failure_message(verdict, [], False, strict=True) or "").startswith(
        "inconclusive (--sbc-strict): sha256: baseline median")
    final = Result(noisy.test, noisy.measurement, noisy.summary, verdict)
    lines = verdict_lines([final])
    assert lines[0].startswith("inconclusive: test_digest[sha256]: sha256:")
    assert "inconclusive at delta 3%" in lines[0] and "95% of drops >= " in lines[0]
    assert lines[1] == ("suite: 1 metric judged against the baseline, each at 4%/1 (Holm's "
                        "first step), then Holm's later steps and a suite-mean test at 1% at "
                        "the end: P(an unchanged run fails any metric) <= 5%")


def test_boots_note_counts_this_session() -> None:
    saved = [result((1000.0, 1001.0, 999.0))]
    assert boots_note(baseline(), saved, "b11").startswith("baseline boots: 11 per metric")
    assert "record at least 10 boots" in boots_note(None, saved, "b1")
    # a session in a boot the baseline already has adds no boot
    assert boots_note(baseline(), saved, "b1") == ("baseline boots: 10 per metric (this "
                                                   "session's boot: b1)")


def test_saving_says_what_the_baseline_can_catch_and_what_touched_it() -> None:
    saved = [result((1000.0, 1001.0, 999.0))]
    line = catch_note(baseline(), saved, "b11")
    assert line.startswith("baseline can catch: 95% of drops >= ")
    figure = float(line.split(">= ")[1].split("%")[0])
    assert 0.1 < figure < 3.0  # ten quiet boots 0.2% apart catch drops well below delta 3%
    assert catch_note(None, saved, "b1").startswith("baseline can catch: nothing yet")
    assert findings_note(saved) is None
    loaded = dataclasses.replace(saved[0], telemetry={"findings": [
        {"kind": "background-load", "detail": "x"}]})
    # openssl's rate is per second of its own CPU time: kept beside other work, said so
    assert findings_note([loaded, saved[0]]) is None
    assert (beside_note([loaded, saved[0]]) or "").startswith(
        "saved beside other work: 1 of 2 (sha256) are rates per second of the tool's own CPU "
        "time")
    wall = dataclasses.replace(loaded, measurement=dataclasses.replace(
        loaded.measurement, identity=Identity.of(tool="openssl", clock="wall")))
    assert (findings_note([wall, saved[0]]) or "").startswith(
        "saved with findings: background-load in 1 of 2 (sha256)")
    assert beside_note([wall, saved[0]]) is None


def test_boot_is_read_through_the_sysroot(tmp_path: Path) -> None:
    (tmp_path / "proc/sys/kernel/random").mkdir(parents=True)
    (tmp_path / "proc/sys/kernel/random/boot_id").write_text("0d9c-boot\n")
    (tmp_path / "proc/sys/kernel/osrelease").write_text("6.6.20-star64\n")
    (tmp_path / "proc/uptime").write_text("3601.25 7000.50\n")
    tree = Sysroot(tmp_path)
    assert (tree.boot_id(), tree.uptime_s()) == ("0d9c-boot", 3601.25)
    assert boot(tree, {}) == {"boot_id": "0d9c-boot", "boot_id_source": "kernel",
                              "uptime_s": 3601.25, "kernel_release": "6.6.20-star64"}
    assert boot(tree, {"SBCBENCH_BOOT_ID": "sim-3"})["boot_id"] == "sim-3"
    assert boot(tree, {"SBCBENCH_BOOT_ID": "sim-3"})["boot_id_source"] == "SBCBENCH_BOOT_ID"
    empty = Sysroot(tmp_path / "none")
    assert (empty.boot_id(), empty.uptime_s()) == (None, None)


def test_delta_and_budget_come_from_option_workload_or_default(tmp_path: Path) -> None:
    settings = listing_settings(star64_tree(tmp_path / "t"), False)
    run = SessionOfRun(settings, list, lambda: Registry(()))

    def plan(of: SessionOfRun, runs: int, effect: float | None = None) -> tuple[float, int]:
        chosen = of.recorder.plan(of.target, runs, min_effect_pct=effect)
        return chosen.min_effect_pct, chosen.max_runs
    assert plan(run, 3) == (3.0, 6)
    assert plan(run, 3, 5.0)[0] == 5.0  # the workload's Plan
    chosen = SessionOfRun(dataclasses.replace(settings, min_effect_pct=2.0, max_runs=9), list,
                          lambda: Registry(()))
    assert plan(chosen, 3, 5.0)[0] == 2.0  # --sbc-min-effect wins
    assert plan(chosen, 3)[1] == 9 and plan(chosen, 12)[1] == 12
    assert Plan().min_effect_pct is None


# -- real pytest runs: a hook-registered workload with scripted samples ----------------------------

SCRIPTED = """
import json
import os
""" + SCRIPTED_BASE + """

# one boot's run-to-run pattern (in units of the CV) and each simulated boot's offset
ZIGZAG = (0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 0.25, -0.25, 0.75, -0.75, 0.0)
OFFSETS = (0.0, 0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015, 0.0005, -0.0005, 0.0)
BOOTS = {f"b{i}": o for i, o in enumerate(OFFSETS, start=1)}


class Scripted(ScriptedBase):
    '''1000 op/s x (1 + shift) x (1 + boot offset) x (1 + cv x ZIGZAG[run]).'''

    description = "deterministic samples"

    def __init__(self, name, cv):
        self.name, self.cv, self.taken = name, cv, 0

    def prepare(self, ctx):
        self.taken = 0

    def timed_run(self, ctx):
        boot = BOOTS.get(os.environ.get("SBCBENCH_BOOT_ID", ""), 0.001)
        shift = json.loads(os.environ.get("SCRIPTED_SHIFT", "{}")).get(self.name, 0) / 100
        z = ZIGZAG[self.taken % len(ZIGZAG)]
        self.taken += 1
        value = 1000 * (1 + shift) * (1 + boot) * (1 + self.cv * z)
        return TimedRun.of(self.name, "op/s", "higher", value)


def pytest_sbcbench_workloads(config):
    return [Scripted("steady", 0.003), Scripted("drop", 0.003), Scripted("noisy", 0.08)]
"""


Run = Callable[..., pytest.RunResult]


@pytest.fixture
def scripted(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
             copy_benchmarks: Callable[..., None]) -> Run:
    """``run(boot, *args, shift={...})``: one pytest run in simulated boot ``boot``."""
    pytester.makeconftest(SCRIPTED)
    copy_benchmarks("test_registered.py")

    def run(boot: str, *args: str, shift: dict[str, float] | None = None) -> pytest.RunResult:
        monkeypatch.setenv("SBCBENCH_BOOT_ID", boot)
        monkeypatch.setenv("SBCBENCH_SIMULATED_SAVE", "1")  # the strict test saves on a tree
        monkeypatch.setenv("SCRIPTED_SHIFT", json.dumps(shift or {}))
        return pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"),
                                  "--sbc-idle-wait", "0", "--sbc-interval", "0.2", *args)
    return run


def save_ten_boots(run: Run, *args: str) -> list[pytest.RunResult]:
    """Ten baseline boots of the scripted values.  They are accepted (``--sbc-accept``): their
    numbers are the script's, not this machine's, but the sampler still reads the real host, and
    a burst of hypervisor steal on a CI machine once quarantined one boot's session ("saved
    under steal-time"), leaving 9 boots where the test counts 10 (quarantine has its own tests:
    tests/test_baseline_quarantine.py)."""
    return [run(f"b{i}", *args, "--sbc-save-baseline", "--sbc-accept", "test_workload")
            for i in range(1, 11)]


def verdicts(path: Path) -> dict[str, dict[str, object]]:
    return {r["metric"]: {**r["verdict"], "n": len(r["samples"])}
            for r in json.loads(path.read_text())["results"]}


def test_ten_boots_then_steady_drop_and_noisy(pytester: pytest.Pytester,
                                                 scripted: Run) -> None:
    saves = save_ten_boots(scripted, "benchmarks")
    saves[0].stdout.fnmatch_lines(["*baseline boots: 1 per metric (this session's boot: b1); "
                                   "record at least 10 boots*",
                                   "baseline can catch: nothing yet*"])
    saves[2].stdout.fnmatch_lines(["*baseline boots: 3 per metric (this session's boot: b3)*"])
    saves[9].stdout.fnmatch_lines(["*baseline boots: 10 per metric (this session's boot: b10)",
                                   "baseline can catch: 95% of drops >= *% (median metric; "
                                   "worst *%) against 3 candidate boots of the same runs"])
    doc = json.loads(next((pytester.path / "bl").glob("*.json")).read_text())
    session = doc["entries"][0]["sessions"][2]["environment"]
    assert session["boot_id"] == "b3" and session["boot_id_source"] == "SBCBENCH_BOOT_ID"
    assert "uptime_s" in session and "kernel_release" in session
    out = pytester.path / "r.json"
    result = scripted("new", "benchmarks", "--sbc-results", str(out), shift={"drop": -10})
    result.assert_outcomes(passed=2, failed=1)
    got = verdicts(out)
    # quiet and stable: decided at the minimum
    assert got["steady"]["status"] == "pass" and got["steady"]["n"] == 3
    assert got["steady"]["baseline_boots"] == 10 and got["steady"]["samples"] == 3
    # a drop is a suspect at its minimum runs, re-measured, and confirmed at twice as many:
    # 6 runs a boot (the baseline's boots show this metric's run noise above its boot drift,
    # so the plan takes twice the 3 runs, judge.boot_test.runs_dominate), confirmed at 12
    plans = {r["metric"]: r["details"]["sequential"]
             for r in json.loads(out.read_text())["results"]}
    assert plans["drop"]["min_runs"] == plans["noisy"]["min_runs"] == 6
    assert plans["steady"]["min_runs"] in (3, 6)
    assert got["drop"]["status"] == "regression" and got["drop"]["n"] == 12
    assert got["drop"]["change_pct"] == pytest.approx(-10.0, abs=0.5)
    ci = got["drop"]["ci_pct"]
    assert isinstance(ci, list) and ci[0] < -10.0 < ci[1] < 0
    # too noisy for delta 3% within the budget: passes, and says what it would take
    assert got["noisy"]["status"] == "inconclusive" and got["noisy"]["n"] == 12  # 6 a boot, x2
    result.stdout.fnmatch_lines([
        "*regression: drop: baseline median 1,00* op/s, this run 9* op/s, "
        "change of boot means -9.*% "
        "(* CI *), 10 baseline boots vs 1 candidate boot, 12 runs in "
        "this boot, *regression confirmed after re-measuring",
        "*inconclusive: test_workload[[]noisy[]]: noisy:*95% of drops >= *% are caught*"
        "inconclusive at delta 3% (the drop is at most *% (95% confidence)); deciding at 3% "
        "needs *",
        "*suite: 3 metrics judged against the baseline, each at 4%/3 (Holm's first step)*",
        "gate: 3 metrics, 10 baseline boots vs 1 candidate boot: 1 regression (drop -9.*%*"
        "1 inconclusive, 1 pass*P(any false alarm) <= 5%"])


def test_min_effect_and_budget_options(pytester: pytest.Pytester, scripted: Run) -> None:
    save_ten_boots(scripted, "benchmarks", "-k", "noisy")
    out = pytester.path / "r.json"
    wide = scripted("new", "benchmarks", "-k", "noisy", "--sbc-min-effect", "40",
                    "--sbc-max-runs", "4", "--sbc-results", str(out))
    wide.assert_outcomes(passed=1)
    noisy = verdicts(out)["noisy"]
    # delta 40% decides within the minimum: nothing near it regressed (a pass at one
    # candidate boot needs more than the heavy-tail bound allows this noisy workload, issue 28)
    assert noisy["status"] in ("pass", "inconclusive") and noisy["min_effect_pct"] == 40.0
    assert noisy["n"] == (3 if noisy["status"] == "pass" else 4)
    capped = scripted("new", "benchmarks", "-k", "noisy", "--sbc-max-runs", "4",
                      "--sbc-results", str(out))
    capped.assert_outcomes(passed=1)
    assert verdicts(out)["noisy"]["status"] == "inconclusive" and verdicts(out)["noisy"]["n"] == 4


def test_strict_fails_inconclusive(pytester: pytest.Pytester, scripted: Run) -> None:
    """On a captured board tree (static clocks, performance governor, no steal time) so that
    no validity finding can make a verdict ``invalid`` under --sbc-strict."""
    tree = str(star64_tree(pytester.path / "tree"))
    save_ten_boots(scripted, "benchmarks", "--sbc-sysroot", tree)
    lenient = scripted("new", "benchmarks", "--sbc-sysroot", tree)
    lenient.assert_outcomes(passed=3)
    strict = scripted("new", "benchmarks", "--sbc-sysroot", tree, "--sbc-strict")
    strict.assert_outcomes(passed=2, failed=1)
    strict.stdout.fnmatch_lines(["*inconclusive (--sbc-strict): noisy:*inconclusive at delta*"])


def test_fewer_cpus_online_is_judged_not_another_machine() -> None:
    """maxcpus=1 on the same board: the CPU model matches, so the run is judged, and the line
    says the CPUs online differ (a kernel or BSP change); another model stays incomparable."""
    sessions = tuple(StoredSession(f"2026-11-{i:02d}", samples,
                                   {"boot_id": b, "cpu_model": "ARM Cortex-A72", "cpus": 2})
                     for i, (b, samples) in enumerate(BOOTS.items(), start=1))
    two = Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY,
                                            sessions),))
    steady = result((1000.0, 1003.0, 997.0))
    one = judge(steady, baseline=two, board="star64",
                machine={"cpu_model": "ARM Cortex-A72", "cpus": 1})
    assert one.status == "pass"  # judged as any other change
    assert one.detail.endswith("this run has 1 CPU online, the baseline 2: a kernel or BSP "
                               "change, judged as such")
    other = judge(steady, baseline=two, board="star64",
                  machine={"cpu_model": "AMD EPYC", "cpus": 2})
    assert other.status == "incomparable" and "another machine" in other.detail


def test_delta_from_the_judges_side_overrides_the_files() -> None:
    """``sbcbench compare --min-effect``: the delta a verdict uses comes from the command line,
    never from the file judged (a file saying 50% would pass what 3% does not)."""
    m = result((1.0, 2.0, 3.0), n_metrics=1).measurement
    lenient = dataclasses.replace(m, details={PLAN_KEY: {**m.details[PLAN_KEY],
                                                         "min_effect_pct": 50.0}})
    assert plan_of(lenient, 1).min_effect_pct == 50.0  # pytest's own run: its own plan
    assert plan_of(lenient, 1, ONE_BOOT, 3.0).min_effect_pct == 3.0  # compare's side wins


def test_a_files_boots_left_is_never_believed() -> None:
    """Issue 28: a results file claiming candidate boots still to come would make every
    metric pending (a hidden regression); the plan is the judge's, from the boots given."""
    m = result((960.0, 962.0, 958.0)).measurement
    claims = dataclasses.replace(m, details={PLAN_KEY: {**m.details[PLAN_KEY],
                                                        "boots_left": 5}})
    assert plan_of(claims, 1, ONE_BOOT).boots == 1
    assert plan_of(claims, 1, OFFLINE).boots == OFFLINE.boots
    slower = judge(Result(TEST, claims, summarize(claims.samples), Verdict("no-baseline", "")),
                   baseline=baseline(), board="star64")
    assert slower.status == "regression"  # not pending
