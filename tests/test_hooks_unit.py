"""The plugin's glue and the session queries it calls (plugin/hooks.py, plugin/items.py,
run/queries.py), driven by a scripted workload's real verdicts: the exit status of each kind of
end, the summary's lines, which workload an item runs, and one in-process pytest run through
the hooks (its outcome, exit code and results file)."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest
from scripted import BASELINE, SAME, SCRIPTED_BASE, SLOWER, judged, planned

from helpers import star64_tree
from pytest_sbcbench.judge.baseline import Baseline
from pytest_sbcbench.model import Identity
from pytest_sbcbench.run.gate import GATE_UNDECIDED
from pytest_sbcbench.run.queries import exit_status, summary


def test_an_interrupt_while_finishing_exits_interrupted(tmp_path: Path) -> None:
    run = planned(tmp_path)
    assert exit_status(run, 0, 0, late=True) == pytest.ExitCode.INTERRUPTED


def test_a_lost_output_is_never_a_green_run(tmp_path: Path) -> None:
    run = planned(tmp_path)
    judged(run, SAME)
    run.outputs.failed.append("results JSON not written: disk full")
    assert exit_status(run, 0, 0, late=False) == pytest.ExitCode.USAGE_ERROR
    lines = summary(run).extra
    assert "ERROR: results JSON not written: disk full (exit 4: the other outputs were " \
           "written)" in lines


def test_gate_mode_with_an_undecided_metric_exits_6_saying_so(tmp_path: Path) -> None:
    run = planned(tmp_path, gate=True)
    judged(run, SAME)  # no baseline: undecided
    assert exit_status(run, 0, 0, late=False) == GATE_UNDECIDED == 6
    assert run.notes[-1].startswith("gate: undecided, exit 6: 1 metric neither passed nor")


def test_gate_mode_that_passed_exits_0_and_a_regression_stays_1(tmp_path: Path) -> None:
    passed = planned(tmp_path / "a", BASELINE, gate=True)
    judged(passed, SAME)
    assert exit_status(passed, 0, 0, late=False) == 0
    regressed = planned(tmp_path / "b", BASELINE, gate=True)
    judged(regressed, SLOWER)
    assert exit_status(regressed, 1, 1, late=False) == 1


def test_gate_mode_whose_only_failures_are_incomparable_cannot_gate(tmp_path: Path) -> None:
    """The baseline measured another tool: the failed test is incomparable, exit 4, not 1."""
    other = Baseline("star64", tuple(dataclasses.replace(e, identity=Identity.of(tool="other"))
                                     for e in BASELINE.entries))
    run = planned(tmp_path, other, gate=True)
    judged(run, SAME)
    assert [r.verdict.status for r in run.recorder.results] == ["incomparable"]
    assert exit_status(run, 1, 1, late=False) == pytest.ExitCode.USAGE_ERROR
    assert run.notes[-1].startswith("gate: cannot gate, exit 4: 1 test measured something")


def test_the_summary_names_the_board_and_the_results(tmp_path: Path) -> None:
    run = planned(tmp_path, BASELINE)
    judged(run, SAME)
    lines = summary(run)
    assert (lines.board, lines.title) == ("star64", "Pine64 Star64")
    assert [r.verdict.status for r in lines.results] == ["pass"]
    assert lines.results_path is None and lines.suite is None and not lines.saving


CONFTEST = """
import json, os
""" + SCRIPTED_BASE + """

class Scripted(ScriptedBase):
    description = "scripted samples"

    def __init__(self, name, values):
        self.name, self.values, self.taken = name, values, 0

    def timed_run(self, ctx):
        self.taken += 1
        return TimedRun.of(self.name, "op/s", "higher", self.values[self.taken - 1])


def pytest_sbcbench_workloads(config):
    return [Scripted("one", [10.0, 11.0, 12.0]), Scripted("two", [20.0, 21.0, 22.0])]
"""

OWN = """
def test_own(sbcbench):
    pass
"""


@pytest.fixture
def scripted_project(pytester: pytest.Pytester, copy_benchmarks: Callable[..., None]
                     ) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    copy_benchmarks("test_registered.py")
    (pytester.path / "benchmarks" / "test_own.py").write_text(OWN)
    return pytester


def test_workload_of_is_the_parameter_or_nothing(scripted_project: pytest.Pytester,
                                                 tmp_path: Path) -> None:
    from pytest_sbcbench.plugin.items import is_benchmark, is_sampled, workload_of

    tree = star64_tree(tmp_path / "t")
    items = scripted_project.inline_genitems("--sbc-sysroot", str(tree), "benchmarks")[0]
    found = {i.nodeid.rsplit("::", 1)[-1]: workload_of(i) for i in items}
    assert {k: getattr(w, "name", None) for k, w in found.items()} == {
        "test_workload[one]": "one", "test_workload[two]": "two", "test_own": None}
    assert all(is_benchmark(i) and is_sampled(i) for i in items)


def test_a_run_through_the_hooks_records_what_the_workload_sampled(
        scripted_project: pytest.Pytester, tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t")
    args = ["--sbc-sysroot", str(tree), "--sbc-idle-wait", "0", "--sbc-interval", "0.2",
            "-p", "no:cacheprovider", "benchmarks/test_registered.py"]
    ran = scripted_project.inline_run(*args, "--sbc-results", "r.json")
    ran.assertoutcome(passed=2)
    assert ran.ret == 0
    doc = json.loads((scripted_project.path / "r.json").read_text())
    assert {r["metric"]: (r["samples"], r["verdict"]["status"]) for r in doc["results"]} == {
        "one": ([10.0, 11.0, 12.0], "no-baseline"), "two": ([20.0, 21.0, 22.0], "no-baseline")}
    refused = scripted_project.inline_run(*args, "--sbc-gate")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR  # nothing to gate against: refused


class Crossings:
    """A plugin object: every call from one module of the package into another during each
    test's protocol (``sys.setprofile``), as (caller, callee, function)."""

    def __init__(self) -> None:
        import pytest_sbcbench

        self.root = str(Path(pytest_sbcbench.__file__).parent) + "/"
        self.calls: list[tuple[str, str, str]] = []

    def _module(self, path: str) -> str | None:
        return path[len(self.root):] if path.startswith(self.root) else None

    def _profile(self, frame: Any, event: str, arg: object) -> None:
        if event != "call":
            return
        callee = self._module(frame.f_code.co_filename)
        caller = self._module(frame.f_back.f_code.co_filename) if frame.f_back else None
        if callee is not None and caller is not None and caller != callee:
            self.calls.append((caller, callee, frame.f_code.co_name))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None
                                ) -> Generator[None, object, object]:
        sys.setprofile(self._profile)
        try:
            return (yield)
        finally:
            sys.setprofile(None)


def test_a_test_enters_each_module_of_its_walk_from_above(scripted_project: pytest.Pytester,
                                                          tmp_path: Path) -> None:
    """The walk of docs/architecture.md: the fixture asks the session once, for the test's
    trial (its board and its workload's context); the test's call enters the recorder once
    (measure), which enters the loop once (which returns the pending handles); the call-phase
    hooks start and end the trial, which starts and stops the watch, enters the judge once per
    result (its verdict and failure message in one call) and completes the test's handle
    (a Future: nothing calls back into the loop); the recorder, the loop, the workload and the
    judge never call the session, the trial or the plugin back (the one call up is the trial
    handing each result to ``publish``).  Each list is exact: a new crossing into any of these
    modules fails it."""
    tree = star64_tree(tmp_path / "t")
    seen = Crossings()
    ran = scripted_project.inline_run("--sbc-sysroot", str(tree), "--sbc-idle-wait", "0",
                                      "-p", "no:cacheprovider", "-k", "one",
                                      "benchmarks/test_registered.py", plugins=[seen])
    ran.assertoutcome(passed=1)

    def into(module: str) -> list[tuple[str, str]]:
        return [(caller, name) for caller, callee, name in seen.calls if callee == module]
    assert into("run/session.py") == [("plugin/fixtures.py", "trial")]
    # pytest's phases: built at set-up (with the board and its workload's context), started
    # and ended with the call phase
    assert into("run/trial.py") == [("run/session.py", "__init__"),
                                    ("plugin/hooks.py", "start"), ("plugin/hooks.py", "end")]
    assert into("run/recorder.py") == [("plugin/fixtures.py", "measure")]
    assert into("run/loop.py") == [("run/recorder.py", "take_samples")]
    assert into("run/watch.py") == [("run/trial.py", "start"), ("run/trial.py", "stop")]
    assert into("judge/verdict.py") == [("run/trial.py", "judge_test")]
    # the workload protocol's module (the scripted workload's BaseWorkload defaults, its Plan):
    # asked at set-up whether it can run, its sampling (runs, budget, delta) read by the
    # recorder; every step of its run is the loop's (its own timed_run is the test project's
    # conftest, not counted)
    steps = ("prepare", "runs_for", "reset", "reset", "reset", "combine", "finish", "close")
    assert into("workload.py") == [("plugin/fixtures.py", "available"),
                                   ("run/recorder.py", "sampling"),
                                   *[("run/loop.py", step) for step in steps]]
    below = ("run/recorder.py", "run/loop.py", "run/watch.py", "workload.py", "judge/")
    up = [c for c in seen.calls if c[0].startswith(below)
          and c[1].startswith(("plugin/", "run/session.py", "run/trial.py"))]
    assert up == [] and ("run/trial.py", "plugin/hooks.py", "publish") in seen.calls
