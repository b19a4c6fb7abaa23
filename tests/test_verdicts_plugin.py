"""The sequential verdicts through real pytest runs: a hook-registered workload with scripted,
deterministic samples, a baseline saved over three simulated boots (``SBCBENCH_BOOT_ID``), then
runs that are steady, slower, or too noisy to judge."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import star64_tree

SCRIPTED = """
import json
import os

from pytest_sbcbench.model import Identity
from pytest_sbcbench.workload import BaseWorkload, Plan, TimedRun

# one boot's run-to-run pattern (in units of the CV) and each simulated boot's offset
ZIGZAG = (0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 0.25, -0.25, 0.75, -0.75, 0.0)
BOOTS = {"b1": 0.0, "b2": 0.002, "b3": -0.002}


class Scripted(BaseWorkload):
    '''1000 op/s x (1 + shift) x (1 + boot offset) x (1 + cv x ZIGZAG[run]).'''

    markers = ("scripted",)
    description = "deterministic samples"

    def __init__(self, name, cv):
        self.name, self.cv, self.taken = name, cv, 0

    def plan(self, settings):
        return Plan(runs=3, quick_runs=3, seconds=0, quick_seconds=0)

    def identity(self, ctx):
        return Identity.of(tool="scripted", version="1")

    def prepare(self, ctx):
        self.taken = 0

    def sample(self, ctx):
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
        monkeypatch.setenv("SCRIPTED_SHIFT", json.dumps(shift or {}))
        return pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"),
                                  "--sbc-idle-wait", "0", "--sbc-interval", "0.2", *args)
    return run


def save_three_boots(run: Run, *args: str) -> list[pytest.RunResult]:
    return [run(boot, *args, "--sbc-save-baseline") for boot in ("b1", "b2", "b3")]


def verdicts(path: Path) -> dict[str, dict[str, object]]:
    return {r["metric"]: {**r["verdict"], "n": len(r["samples"])}
            for r in json.loads(path.read_text())["results"]}


def test_three_boots_then_steady_drop_and_noisy(pytester: pytest.Pytester,
                                                 scripted: Run) -> None:
    saves = save_three_boots(scripted, "benchmarks")
    saves[0].stdout.fnmatch_lines(["*baseline boots: 1 per metric (this session's boot: b1); "
                                   "record at least 3 boots*"])
    saves[2].stdout.fnmatch_lines(["*baseline boots: 3 per metric (this session's boot: b3)"])
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
    assert got["steady"]["baseline_boots"] == 3 and got["steady"]["samples"] == 3
    # a drop is a suspect at 3 runs, re-measured, and confirmed at 6
    assert got["drop"]["status"] == "regression" and got["drop"]["n"] == 6
    assert got["drop"]["change_pct"] == pytest.approx(-10.0, abs=0.5)
    ci = got["drop"]["ci_pct"]
    assert isinstance(ci, list) and ci[0] < -10.0 < ci[1] < 0
    # too noisy for delta 3% within the budget: passes, and says what it would take
    assert got["noisy"]["status"] == "inconclusive" and got["noisy"]["n"] == 6
    result.stdout.fnmatch_lines([
        "*regression: drop: baseline median 1,00* op/s, this run 9* op/s, change -9.*% "
        "(* CI *), tolerance *%, detectable *%*(n = * in 3 boot(s) vs 6, *regression "
        "confirmed after re-measuring",
        "*inconclusive: test_workload[[]noisy[]]: noisy:*this run could only detect a "
        "regression of *% (delta 3%); deciding needs *",
        "*suite: 3 metric(s) judged against the baseline at per-metric alpha 5%/3: "
        "P(an unchanged run fails any metric) <= 5%*"])


def test_min_effect_and_budget_options(pytester: pytest.Pytester, scripted: Run) -> None:
    save_three_boots(scripted, "benchmarks", "-k", "noisy")
    out = pytester.path / "r.json"
    wide = scripted("new", "benchmarks", "-k", "noisy", "--sbc-min-effect", "40",
                    "--sbc-max-runs", "4", "--sbc-results", str(out))
    wide.assert_outcomes(passed=1)
    noisy = verdicts(out)["noisy"]
    # delta 40%: the noise allows "no regression of 40%" within the minimum
    assert noisy["status"] == "pass" and noisy["min_effect_pct"] == 40.0 and noisy["n"] == 3
    capped = scripted("new", "benchmarks", "-k", "noisy", "--sbc-max-runs", "4",
                      "--sbc-results", str(out))
    capped.assert_outcomes(passed=1)
    assert verdicts(out)["noisy"]["status"] == "inconclusive" and verdicts(out)["noisy"]["n"] == 4


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--sbc-min-effect", "0", "*not a valid smallest effect*0.1 to 50*"),
    ("--sbc-min-effect", "nan", "*not a valid smallest effect*"),
    ("--sbc-max-runs", "0", "*not a positive whole number*"),
    ("--sbc-max-runs", "5000", "*too large a run budget*"),
])
def test_option_ranges_are_usage_errors(pytester: pytest.Pytester, option: str, value: str,
                                        message: str) -> None:
    result = pytester.runpytest(option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_budget_below_the_planned_runs_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--sbc-runs", "5", "--sbc-max-runs", "3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-max-runs 3 is below --sbc-runs 5*"])


def test_strict_fails_inconclusive(pytester: pytest.Pytester, scripted: Run) -> None:
    """On a captured board tree (static clocks, performance governor, no steal time) so that
    no validity finding can make a verdict ``invalid`` under --sbc-strict."""
    tree = str(star64_tree(pytester.path / "tree"))
    save_three_boots(scripted, "benchmarks", "--sbc-sysroot", tree)
    lenient = scripted("new", "benchmarks", "--sbc-sysroot", tree)
    lenient.assert_outcomes(passed=3)
    strict = scripted("new", "benchmarks", "--sbc-sysroot", tree, "--sbc-strict")
    strict.assert_outcomes(passed=2, failed=1)
    strict.stdout.fnmatch_lines(["*inconclusive (--sbc-strict): noisy:*could only detect*"])
