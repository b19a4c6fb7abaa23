"""``sbcbench compare`` and the run give one judgement on the same files (real pytest runs
writing real results files): the same verdicts, the same boot counts, the same tally and exit,
and whatever compare leaves out it names.

The machine is scripted (a host whose counters show two CPUs busy with a process named
``busy-loop``, or none busy), so what ran beside each test is exact: three candidate boots
measured beside the neighbour were judged ``invalid`` by the run, and compare gave
``inconclusive`` with one candidate boot, two files dropped without a word and the third
re-judged."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from widget import WIDGET

from pytest_sbcbench.cli import main
from pytest_sbcbench.platform.host import CpuTimes, LocalHost, ProcessUse
from pytest_sbcbench.plugin.state import session_of


class Scripted(LocalHost):
    """This machine, except its system-wide counters: ``busy`` CPUs of 2 in use by a process
    named ``busy-loop`` (none when 0), never stolen.  Handed to the run's session."""

    def __init__(self, busy: float) -> None:
        super().__init__()
        self.busy, self.ticks = busy, 0.0

    def cpu_times(self) -> CpuTimes:
        self.ticks += 200.0
        return CpuTimes(total=self.ticks, idle=(2.0 - self.busy) * 100.0 * self.ticks / 200.0,
                        steal=0.0, cpus=2)

    def processes(self) -> tuple[ProcessUse, ...]:
        if not self.busy:
            return ()
        return (ProcessUse(4242, "busy-loop", int(self.ticks * self.busy / 2), False),)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        run = session_of(session.config)
        run.target = run.target.replace(host=self)


Run = Callable[..., pytest.RunResult]


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(samples, busy, *args)``: one pytest run of the widget on the scripted machine."""
    pytester.makepyfile(test_widget=WIDGET)

    def one(samples: str, busy: float, *args: str) -> pytest.RunResult:
        monkeypatch.setenv("WIDGET_SAMPLES", samples)
        return pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"), *QUICKER,
                                  *args, plugins=[Scripted(busy)])
    return one


# plugins the widget's runs do not use: importing them took two thirds of each run here
QUICKER = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:labgrid")


def compare(capsys: pytest.CaptureFixture[str], *files: Path) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["compare", *map(str, files), "--json"])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, out


def record_gate(pytester: pytest.Pytester, run: Run, busy: float) -> tuple[list[Path], int]:
    """A quiet baseline of two sessions, then three candidate runs of one label beside
    ``busy`` CPUs of other work, each writing its results file; the last run's exit."""
    for samples in ("100,101,99.5", "100.5,99.8,100.2"):
        run(samples, 0.0, "--sbc-idle-wait", "0", "--sbc-save-baseline").assert_outcomes(
            passed=1)
    files, code = [], 0
    for i, samples in enumerate(("99.9,100.6,100.1", "100.3,99.7,100.4", "100.1,100.2,99.6")):
        path = pytester.path / f"c{i + 1}.json"
        code = int(run(samples, busy, "--sbc-idle-wait", "0.2", "--sbc-gate", "--sbc-candidate",
                       "L", "--sbc-results", str(path)).ret)
        files.append(path)
    return files, code


def verdicts(path: Path) -> list[dict[str, Any]]:
    return [r["verdict"] for r in json.loads(path.read_text())["results"]]


def test_invalid_runs_stay_invalid_in_compare_and_the_files_left_out_are_named(
        pytester: pytest.Pytester, run: Run, capsys: pytest.CaptureFixture[str]) -> None:
    files, ran = record_gate(pytester, run, busy=2.0)
    for path in files:  # the run: a wall-time number beside other work judges nothing
        (verdict,) = verdicts(path)
        assert verdict["status"] == "invalid", verdict["detail"]
        assert "busy-loop (pid 4242)" in str(verdict["detail"])
    (baseline,) = (pytester.path / "bl").glob("*.json")
    code, out = compare(capsys, baseline, *files)
    assert code == ran == 6  # the run's gate exit: undecided
    (judged,) = out["verdicts"]
    assert judged["status"] == "invalid" and judged["detail"] == verdicts(files[-1])[0]["detail"]
    assert out["tally"] == "gate: 1 metric, no baseline: 1 invalid"
    notes = out["notes"]
    assert isinstance(notes, list)
    for path in files[:2]:
        assert f"note: {path}: 1 result left out (not a candidate boot): invalid in its run: " \
               "widget" in notes


def test_a_cpu_time_rate_beside_other_work_gets_the_runs_verdict_in_compare(
        pytester: pytest.Pytester, run: Run, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A rate per second of the tool's own CPU time is judged beside the load (said in its
    line), in the run and in compare alike, with the same boots."""
    monkeypatch.setenv("WIDGET_CLOCK", "user-cpu")
    files, ran = record_gate(pytester, run, busy=2.0)
    (last,) = verdicts(files[-1])
    assert last["status"] not in ("invalid", "no-baseline"), last["detail"]
    assert "measured beside other work (other processes kept" in str(last["detail"])
    (baseline,) = (pytester.path / "bl").glob("*.json")
    code, out = compare(capsys, baseline, *files)
    assert code == ran
    (judged,) = out["verdicts"]
    assert judged["status"] == last["status"] and judged["detail"] == last["detail"]
    evidence = judged["evidence"]
    assert isinstance(evidence, dict)
    for key in ("baseline_boots", "candidate_boots", "samples", "baseline_samples"):
        assert evidence[key] == last[key], key
    assert out["notes"] == []
