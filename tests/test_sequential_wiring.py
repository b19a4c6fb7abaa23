"""The sequential verdicts as the plugin and ``sbcbench compare`` use them: boots read from
saved environments, plans carried by results, evidence in the results JSON, summary lines."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from helpers import star64_tree
from pytest_sbcbench.judge.baseline import Baseline, BaselineEntry, StoredSession
from pytest_sbcbench.judge.boots import ONE_BOOT_ALLOWANCE
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.judge.verdict import (
    PLAN_KEY,
    boot_prior,
    boots_note,
    count_metrics,
    failure_message,
    judge,
    plan_details,
    plan_of,
    run_plan,
)
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.platform.environment import boot
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.report.results import document, load_results
from pytest_sbcbench.report.terminal import verdict_lines
from pytest_sbcbench.run.session import Session as SessionOfRun
from pytest_sbcbench.run.suite import listing_settings
from pytest_sbcbench.workload import Plan
from pytest_sbcbench.workloads import Registry

TEST = "benchmarks/test_crypto.py::test_digest[sha256]"
IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="sha256")
# three boots, three runs each: within-boot CV about 0.3%, boot means 0.2% apart
BOOTS = {"b1": (1000.0, 1003.0, 997.0), "b2": (1002.0, 1005.0, 999.0),
         "b3": (998.0, 1001.0, 995.0)}


def baseline(boot_ids: bool = True) -> Baseline:
    sessions = tuple(StoredSession(f"2026-11-0{i}", samples, {"boot_id": b} if boot_ids else {})
                     for i, (b, samples) in enumerate(BOOTS.items(), start=1))
    return Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY, sessions),))


def result(samples: tuple[float, ...], n_metrics: int = 1, max_runs: int = 6) -> Result:
    plan = run_plan(3, max_runs, None, n_metrics)
    m = Measurement("sha256", "B/s", "higher", IDENTITY, samples,
                    details={PLAN_KEY: plan_details(plan, n_metrics)})
    return Result(TEST, m, summarize(samples), Verdict("no-baseline", ""))


def test_sessions_of_one_boot_are_one_replicate() -> None:
    steady = result((1000.0, 1003.0, 997.0))
    three = judge(steady, baseline(), "star64")
    assert three.status == "pass" and three.evidence is not None
    assert three.evidence.baseline_boots == 3 and three.evidence.samples == 3
    one = Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY, tuple(
        StoredSession("x", s, {"boot_id": "same"}) for s in BOOTS.values())),))
    single = judge(steady, one, "star64")
    assert single.status == "inconclusive" and single.evidence is not None
    assert single.evidence.baseline_boots == 1 and "one baseline boot" in single.detail
    # no recorded boot id: each session counts as its own boot
    unknown = judge(steady, baseline(boot_ids=False), "star64").evidence
    assert unknown is not None and unknown.baseline_boots == 3


def test_a_cut_short_look_is_judged_as_the_last() -> None:
    """A suspect at the minimum would be re-measured by the loop; judged later with only those
    samples (a results file), the decision is final, never 'continue'."""
    slower = judge(result((960.0, 962.0, 958.0)), baseline(), "star64")
    assert slower.status == "regression" and slower.evidence is not None
    assert slower.evidence.samples == 3


def test_plan_travels_with_the_result_and_has_a_fallback() -> None:
    got = plan_of(result((1.0, 2.0, 3.0), n_metrics=10).measurement, ONE_BOOT_ALLOWANCE)
    assert (got.min_runs, got.max_runs) == (3, 6) and got.alpha == pytest.approx(0.005)
    bare = Measurement("sha256", "B/s", "higher", IDENTITY, (1.0, 2.0),
                       details={PLAN_KEY: {"min_runs": True}})
    fallback = plan_of(bare, ONE_BOOT_ALLOWANCE)
    assert (fallback.min_runs, fallback.max_runs) == (2, 2)
    assert fallback.alpha == pytest.approx(0.002)
    assert run_plan(5, 3, 2.0, 4).max_runs == 5  # never below the planned runs
    assert run_plan(3, None, None, 4).max_runs == 6 and run_plan(3, None, None, 4)\
        .min_effect_pct == 3.0


def test_metrics_counted_for_the_suite_bound() -> None:
    assert count_metrics(None, [TEST]) == 1
    assert count_metrics(baseline(), [TEST, "other::test"]) == 1
    assert count_metrics(baseline(), ["other::test"]) == 1
    assert boot_prior(None) == ONE_BOOT_ALLOWANCE
    assert boot_prior(baseline()).source.startswith("suite-pooled prior")


def test_evidence_round_trips_through_the_results_json(tmp_path: Path) -> None:
    judged = result((1000.0, 1003.0, 997.0))
    verdict = judge(judged, baseline(), "star64")
    final = Result(judged.test, judged.measurement, judged.summary, verdict)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document("star64", "now", {}, [final]), allow_nan=False))
    (back,) = load_results(path).results
    assert back.verdict == verdict
    assert back.measurement.details[PLAN_KEY] == judged.measurement.details[PLAN_KEY]
    assert judge(back, baseline(), "star64") == verdict  # compare gives the run's verdict
    raw = json.loads(path.read_text())
    raw["results"][0]["verdict"]["samples"] = "three"
    path.write_text(json.dumps(raw))
    with pytest.raises(Exception, match="verdict samples must be a whole number"):
        load_results(path)


def test_inconclusive_fails_only_under_strict_and_the_summary_says_it() -> None:
    noisy = result((900.0, 1100.0, 1000.0, 950.0, 1050.0, 1000.0))
    verdict = judge(noisy, baseline(), "star64")
    assert verdict.status == "inconclusive"
    assert failure_message(verdict, [], False) is None
    assert (failure_message(verdict, [], False, strict=True) or "").startswith(
        "inconclusive (--sbc-strict): sha256: baseline median")
    final = Result(noisy.test, noisy.measurement, noisy.summary, verdict)
    lines = verdict_lines([final])
    assert lines[0].startswith("inconclusive: test_digest[sha256]: sha256:")
    assert "this run could only detect a regression of" in lines[0]
    assert lines[1] == ("suite: 1 metric(s) judged against the baseline at per-metric alpha "
                        "5%/1: P(an unchanged run fails any metric) <= 5%")


def test_boots_note_counts_this_session() -> None:
    saved = [result((1000.0, 1001.0, 999.0))]
    assert boots_note(baseline(), saved, "b4").startswith("baseline boots: 4 per metric")
    assert "record at least 3 boots" in boots_note(None, saved, "b1")
    # a session in a boot the baseline already has adds no boot
    assert boots_note(baseline(), saved, "b1") == ("baseline boots: 3 per metric (this "
                                                   "session's boot: b1)")


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
