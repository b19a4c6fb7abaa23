"""The pluggy extension seams: contributed board profiles and per-result callbacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import DATA, build_tree

CONFTEST = """
import json
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
