"""The recorder (run/recorder.py) on a scripted workload: it is handed what it judges against
once per boot (:meth:`Recorder.begin`, one :class:`JudgeContext`), and a test's trial
(run/trial.py) gives each metric its verdict when the test ends; what is published and kept,
and which verdicts fail the test."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from scripted import BASELINE, SAME, SLOWER, TEST, Scripted, star64_session

from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.judge.baseline import Baseline
from pytest_sbcbench.judge.verdict import PLAN_KEY, JudgeContext
from pytest_sbcbench.model import Finding, Identity, Measurement, Result
from pytest_sbcbench.run.recorder import Recorder
from pytest_sbcbench.run.session import Session
from pytest_sbcbench.run.trial import Trial


def against(run: Session, baseline: Baseline | None, **changes: object) -> JudgeContext:
    board = run.board
    context = JudgeContext(board.name, board, baseline, run.lookup.machine, n_metrics=1)
    return dataclasses.replace(context, **changes)  # type: ignore[arg-type]


def verdicts(run: Session, recorder: Recorder, test: str, found: list[Finding],
             published: list[Result]) -> str | None:
    """``test``'s pending results judged by its trial (no trace), as when its call ends."""
    return Trial(test, recorder, run.target, run.preflight).verdicts(None, found,
                                                                      published.append)


def measured(tmp_path: Path, values: list[float], baseline: Baseline | None = None,
             **changes: object) -> tuple[Session, Recorder, list[Result], str | None]:
    """One test through a fresh recorder: begun with the boot's context, measured, finalized;
    the session (for its settings), the recorder, what was published and the failure."""
    run = star64_session(tmp_path)
    recorder = Recorder([])
    recorder.begin(against(run, baseline, **changes))
    work = Scripted(values)
    recorder.measure(run.target, TEST, work, recorder.context(run.target, work))
    published: list[Result] = []
    message = verdicts(run, recorder, TEST, [], published)
    return run, recorder, published, message


def test_without_a_baseline_the_planned_runs_are_recorded_and_published(tmp_path: Path) -> None:
    _, recorder, published, message = measured(tmp_path, SAME)
    (result,) = published
    assert result.verdict.status == "no-baseline" and message is None
    assert result.measurement.samples == (1000.0, 1003.0, 997.0)  # the plan: no decision
    assert recorder.results == published and recorder.pending == {}


def test_the_same_numbers_pass_against_the_boot_baseline(tmp_path: Path) -> None:
    _, _, published, message = measured(tmp_path, SAME, BASELINE)
    assert [r.verdict.status for r in published] == ["pass"] and message is None


def test_a_fifth_slower_is_a_regression_that_fails_the_test(tmp_path: Path) -> None:
    _, _, published, message = measured(tmp_path, SLOWER, BASELINE)
    assert [r.verdict.status for r in published] == ["regression"]
    assert message is not None and message.startswith("regression: ")


def test_a_far_boot_of_the_reference_being_saved_does_not_fail(tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    recorder = Recorder([])
    recorder.begin(against(run, BASELINE), far_boot=lambda result: True)
    work = Scripted(SLOWER)
    recorder.measure(run.target, TEST, work, recorder.context(run.target, work))
    published: list[Result] = []
    assert verdicts(run, recorder, TEST, [], published) is None
    assert published[0].verdict.status == "regression"  # recorded and reported, not failed


def test_strict_findings_make_the_verdict_invalid(tmp_path: Path) -> None:
    run = star64_session(tmp_path, strict=True)
    recorder = Recorder([])
    recorder.begin(against(run, BASELINE, strict=True))
    work = Scripted(SAME)
    recorder.measure(run.target, TEST, work, recorder.context(run.target, work))
    found = [Finding("throttling", "the CPU throttled")]
    published: list[Result] = []
    message = verdicts(run, recorder, TEST, found, published)
    assert published[0].verdict.status == "invalid"
    assert message == "invalid run (--sbc-strict): the CPU throttled"
    assert recorder.findings == [(TEST, found[0])]


def test_the_boot_context_sets_m_for_every_metric(tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    recorder = Recorder([])
    recorder.begin(against(run, BASELINE, n_metrics=7))
    work = Scripted(SAME)
    (handle,) = recorder.measure(run.target, TEST, work, recorder.context(run.target, work))
    assert recorder.n_metrics == 7
    assert handle.measurement.details[PLAN_KEY]["n_metrics"] == 7


def test_details_the_results_file_cannot_hold_are_refused_naming_the_test(
        tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    bad = Measurement("m", "s", "lower", Identity.of(tool="t"), (1.0,), details={"x": {1, 2}})
    with pytest.raises(SbcBenchError, match=r"t::bad: m: details cannot be written"):
        Recorder([]).record(run.target, "t::bad", bad)


def test_a_test_that_measured_nothing_publishes_nothing(tmp_path: Path) -> None:
    run = star64_session(tmp_path)
    recorder = Recorder([])
    recorder.begin(against(run, BASELINE))
    published: list[Result] = []
    found = [Finding("throttling", "the CPU throttled")]
    assert verdicts(run, recorder, "t::skipped", found, published) is None
    assert published == [] and recorder.findings == []  # its findings judge nothing


def test_against_a_baseline_the_loop_asks_the_decision_through_the_recorders_callable(
        tmp_path: Path) -> None:
    """docs/architecture.md's walk against a baseline: the judge plans the decision from the
    recorder's sampling (``run_plan``, once), and after the planned runs the loop calls the
    callable the recorder handed it (``more``), which asks judge/verdict.py's ``wants_more``
    per metric; three planned samples that pass: one look.  Every call from
    one module of the package into another while the test measures and is judged, as
    (caller, callee, function)."""
    import sys

    import pytest_sbcbench

    root = str(Path(pytest_sbcbench.__file__).parent) + "/"
    calls: list[tuple[str, str, str]] = []

    def module(path: str) -> str:
        return path[len(root):] if path.startswith(root) else ""

    def profile(frame: Any, event: str, arg: object) -> None:
        caller = module(frame.f_back.f_code.co_filename) if frame.f_back else ""
        callee = module(frame.f_code.co_filename)
        if event == "call" and caller and callee and caller != callee:
            calls.append((caller, callee, frame.f_code.co_name))
    run = star64_session(tmp_path)
    recorder = Recorder([])
    recorder.begin(against(run, BASELINE))
    work = Scripted(SAME)
    ctx = recorder.context(run.target, work)
    sys.setprofile(profile)
    try:
        recorder.measure(run.target, TEST, work, ctx)
        message = verdicts(run, recorder, TEST, [], [])
    finally:
        sys.setprofile(None)
    assert message is None and work.taken == 3 and recorder.results[0].verdict.status == "pass"

    def into(callee: str) -> list[tuple[str, str]]:
        return [(c, name) for c, m, name in calls if m == callee]
    assert into("run/recorder.py") == [("run/loop.py", "more")]
    assert into("run/loop.py") == [("run/recorder.py", "take_samples")]
    assert into("judge/verdict.py") == [("run/recorder.py", "run_plan"),
                                        ("run/recorder.py", "wants_more"),
                                        ("run/trial.py", "judge_test")]
