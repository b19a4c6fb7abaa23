"""The pluggy extension seams: contributed board profiles and per-result callbacks."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import DATA, build_tree
from pytest_sbcbench.cli import main

CONFTEST = """
import json
from collections.abc import Callable
from pathlib import Path

def pytest_sbcbench_boards(config):
    return [{
        "schema": "sbcbench-board/1", "name": "lab-rig", "title": "Lab rig", "soc": "TestSoC",
        "arch": "x86_64", "clusters": [{"cores": 2, "core": "EPYC", "max_mhz": 2600}],
        "match": {"model": ["Lab Rig"]}, "facts": {"sources": ["test"]},
    }]

SEEN = []

def pytest_sbcbench_result(config, result):
    SEEN.append(result.as_dict())
    Path("uploaded.json").write_text(json.dumps(SEEN))
"""

TEST = """
import pytest
from pytest_sbcbench.model import Identity, Measurement

@pytest.mark.crypto
def test_inprocess(sbcbench, sbc_board):
    assert sbc_board.name == "lab-rig"
    sbcbench.inprocess_aead("chacha20-poly1305")

def test_custom_workload(sbcbench):
    m = Measurement("widgets", "op/s", "higher", Identity.of(tool="widget", version="1"),
                    (10.0, 12.0, 11.0))
    result = sbcbench.record(m)
    assert result.summary.median == 11.0
"""


def test_conftest_implements_both_hooks(pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = build_tree(tmp_path / "rig", DATA / "this_machine/cpuinfo_amd-epyc-vm.txt",
                      model="Lab Rig")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(TEST)
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "lab-rig", "--sbc-quick",
                                "--sbc-runs", "1", "--sbc-idle-wait", "0", "--sbc-results",
                                "r.json")
    result.assert_outcomes(passed=2)
    uploaded = json.loads((pytester.path / "uploaded.json").read_text())
    assert [r["metric"] for r in uploaded] == ["chacha20-poly1305", "widgets"]
    written = json.loads((pytester.path / "r.json").read_text())
    assert written["board"] == "lab-rig"
    assert [r["test"].split("::")[-1] for r in written["results"]] == [
        "test_inprocess", "test_custom_workload"]
    assert uploaded == written["results"]


def test_a_hook_returning_junk_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("def pytest_sbcbench_boards(config):\n    return [42]\n")
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*pytest_sbcbench_boards returned int*"])


SEVEN_ZIP = """
from pytest_sbcbench.model import Identity
from pytest_sbcbench.workload import BaseWorkload, Plan, TimedRun

class Compress(BaseWorkload):
    '''A 7-zip-like workload: one module, one registration.'''
    name = "{name}"
    markers = ("compression",)
    description = "compression throughput"

    def plan(self, settings):
        return Plan(runs=3, quick_runs=2, seconds=0, quick_seconds=0)

    def identity(self, ctx):
        return Identity.of(tool="fake-7z", version="24.08")

    def timed_run(self, ctx):
        return TimedRun.of("compress", "B/s", "higher", 1.5e6)

def pytest_sbcbench_workloads(config):
    return [Compress()]
"""


def test_a_registered_workload_brings_its_marker_sampling_and_gate(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None]) -> None:
    pytester.makeconftest(SEVEN_ZIP.replace("{name}", "7zip"))
    copy_benchmarks("test_registered.py")
    out = pytester.path / "r.json"
    result = pytester.runpytest("benchmarks", "-m", "compression", "--strict-markers",
                                "--sbc-quick", "--sbc-idle-wait", "0", "--sbc-interval", "0.2",
                                "--sbc-results", str(out))
    result.assert_outcomes(passed=1)
    (entry,) = json.loads(out.read_text())["results"]
    assert entry["test"] == "benchmarks/test_registered.py::test_workload[7zip]"
    assert entry["samples"] == [1.5e6, 1.5e6] and entry["identity"]["tool"] == "fake-7z"
    assert entry["telemetry"]["samples"] >= 2  # sampled like every workload
    assert entry["verdict"]["status"] == "no-baseline"


def test_sbcbench_list_shows_what_sbcbench_run_runs(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``sbcbench run`` (rootdir: the package) never loads this directory's ``conftest.py``,
    so ``sbcbench list`` does not either: a workload registered there is listed and run by
    ``pytest`` in the project (``pytest --sbc-list``), not by ``sbcbench run``."""
    pytester.makeconftest(SEVEN_ZIP.replace("{name}", "7zip"))
    monkeypatch.chdir(pytester.path)
    capsys.readouterr()
    assert main(["list", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert "7zip" not in rows and "openssl-sha256" in rows
    ran = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "run", "--co", "-q"],
                         cwd=pytester.path, capture_output=True, text=True, timeout=300)
    assert "benchmarks/test_registered.py::test_workload[none]" in ran.stdout
    assert "7zip" not in ran.stdout
    project = pytester.runpytest("-p", "no:terminal", "-p", "no:labgrid", "--capture=no",
                                 "--sbc-list", "json")
    listed = {r["name"]: r for r in json.loads(project.stdout.str())}
    assert listed["7zip"] == {"name": "7zip", "test": "test_workload[7zip]",
                              "markers": ["compression"], "available": True, "reason": None,
                              "expected_s": {"quick": 0.0, "full": 0.0},
                              "at_most_s": {"quick": 4.0, "full": 20.0}}  # two idle waits


def test_a_duplicate_workload_name_is_a_usage_error(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None]) -> None:
    pytester.makeconftest(SEVEN_ZIP.replace("{name}", "openssl-sha256"))
    copy_benchmarks("test_registered.py")
    result = pytester.runpytest("benchmarks")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*two workloads are named 'openssl-sha256'*"])
