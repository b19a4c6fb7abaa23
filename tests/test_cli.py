"""``sbcbench probe`` on this machine and on captured board trees."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main


def test_probe_json_on_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["arch"] == platform.machine()
    assert facts["cpus"] >= 1 and facts["cpu_model"]
    assert "board_model" in facts


def test_probe_star64_tree(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64), "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert (facts["arch"], facts["cpus"], facts["board_model"]) == ("riscv64", 4, "Pine64 Star64")


def test_probe_text_output(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64)]) == 0
    assert "Pine64 Star64" in capsys.readouterr().out


def test_probe_of_a_missing_tree_exits_2(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(tmp_path)]) == 2
    assert "proc/cpuinfo" in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "probe", "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["cpus"] >= 1
