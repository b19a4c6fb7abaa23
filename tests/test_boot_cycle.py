"""The boot cycle (run/boot_cycle.py): a boot is a value it plans and returns, and nothing of
the session changes until the session installs it; what a planned boot judges against, how
many boots a run measures, where each boot's results go, and when ``--sbc-boots auto`` is
decided, on a scripted workload's real verdicts."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, cast

from scripted import BASELINE, SAME, SLOWER, TEST, judged, star64_session, with_baseline

from pytest_sbcbench.judge.candidates import ALONE
from pytest_sbcbench.judge.looks import ONE_BOOT
from pytest_sbcbench.run.boot_cycle import (
    auto_outcome,
    boots_of,
    is_last_boot,
    plan_suite,
    results_path,
    with_boots,
)

if TYPE_CHECKING:
    from pytest_sbcbench.run.lab import LabRun


def test_a_planned_boot_changes_nothing_until_installed(tmp_path: Path) -> None:
    run = with_baseline(star64_session(tmp_path))
    boot = plan_suite(run, [TEST, "benchmarks/test_other.py::test_new"])
    assert run.tests == [] and run.recorder.against is None
    run.install(boot)
    assert run.tests == [TEST, "benchmarks/test_other.py::test_new"]
    against = run.recorder.against
    assert against is boot.against and against is not None
    assert against.board_name == "star64" and against.baseline is BASELINE
    assert against.n_metrics == 1  # only one of the two tests has a baseline: m = 1
    # the candidate: no --sbc-candidate, so the label is the tree's kernel release, one boot
    assert against.candidate.plan == ONE_BOOT and against.candidate.label == "5.15.131"
    assert boot.far_boot is None  # not saving a baseline


def test_saving_a_baseline_plans_the_far_boot_rule(tmp_path: Path) -> None:
    run = with_baseline(star64_session(tmp_path, save_baseline=True))
    boot = plan_suite(run, [TEST])
    assert boot.far_boot is not None


def test_the_boots_a_run_measures_and_where_each_boot_writes(tmp_path: Path) -> None:
    run = star64_session(tmp_path, results=tmp_path / "r.json")
    assert boots_of(run) == 1 and is_last_boot(run)
    assert results_path(run) == tmp_path / "r.json"
    three = with_boots(run, 3)
    run.install(three)
    assert boots_of(run) == 1  # without a lab a run is one boot, recorded by hand
    run.lab = cast("LabRun", object())  # a lab reboots between boots: this run measures three
    assert boots_of(run) == 3 and not is_last_boot(run)
    assert results_path(run) == tmp_path / "r.boot1.json"  # a boot before the last


def test_auto_is_decided_by_a_regression(tmp_path: Path) -> None:
    run = with_baseline(star64_session(tmp_path))
    run.install(plan_suite(run, [TEST]))
    judged(run, SLOWER)
    assert auto_outcome(run) == "decided: a regression"


def test_auto_is_decided_when_every_metric_passed(tmp_path: Path) -> None:
    run = with_baseline(star64_session(tmp_path))
    run.install(plan_suite(run, [TEST]))
    judged(run, SAME)
    assert [r.verdict.status for r in run.recorder.results] == ["pass"]
    assert auto_outcome(run) == "decided: every metric"


def test_auto_is_undecided_without_a_baseline(tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    run.install(plan_suite(run, [TEST]))
    judged(run, SAME)
    assert [r.verdict.status for r in run.recorder.results] == ["no-baseline"]
    assert auto_outcome(run) is None


def test_a_written_boot_is_not_written_again_until_the_next_is_installed(
        tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    run.install(plan_suite(run, [TEST]))
    judged(run, SAME)
    run.end_boot()
    assert run.between_boots and run.recorder.results == []
    run.install(dataclasses.replace(plan_suite(run, [TEST]), number=2))
    assert not run.between_boots and run.boot == 2
    assert run.recorder.results == [] and run.recorder.against is not None


def test_the_session_api_alone_judges_with_m_one(tmp_path: Path) -> None:
    """No boot planned (the session used directly): the board and baseline as they are."""
    run = with_baseline(star64_session(tmp_path))
    judged(run, SAME)
    against = run.recorder.against
    assert against is not None and against.n_metrics == 1 and against.candidate is ALONE
