"""``sbcbench probe`` on this machine and on captured board trees."""

from __future__ import annotations

import json
import platform
import shutil
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


def test_list_names_every_workload_with_availability(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no tool at all: each says why it cannot run
    monkeypatch.delenv("SBCBENCH_OPENSSL", raising=False)
    assert main(["list", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert {"openssl-aes-128-gcm", "openssl-rsa2048-sign", "cryptography-aes-128-gcm",
            "compile-offline-crate", "compile-ballistics-pinned", "scaling-openssl",
            "scaling-sysbench", "scaling-stress-ng", "memory-stream",
            "storage-sequential"} <= set(rows)
    assert rows["openssl-sha256"]["test"] == "test_digest[sha256]"
    assert rows["openssl-sha256"]["markers"] == ["crypto"]
    assert not rows["openssl-sha256"]["available"]
    assert "openssl not found on PATH" in rows["openssl-sha256"]["reason"]
    assert "sysbench not installed" in rows["scaling-sysbench"]["reason"]
    assert rows["cryptography-aes-128-gcm"]["available"]
    times = rows["openssl-rsa2048-sign"]["expected_s"]
    assert times == {"quick": 4.0, "full": 18.0}  # sign and verify phases, 2 or 3 runs


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not on PATH")
def test_run_ships_the_suite_to_any_directory(tmp_path: Path) -> None:
    """``sbcbench run`` from an empty directory: the shipped suite, test ids as in the
    repository, results where asked, baselines under ./baselines."""
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "run", "-m", "crypto",
                           "--sbc-quick", "-k", "sha256", "--sbc-idle-wait", "0",
                           "--sbc-results", "r.json", "--sbc-save-baseline"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [r["test"] for r in doc["results"]] == ["benchmarks/test_crypto.py::test_digest[sha256]"]
    assert (tmp_path / "baselines" / f"{doc['board']}.json").exists()


def test_compare_uses_the_same_judge_as_pytest(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Physics and the other-machine check apply offline as they do inside pytest."""
    def results(samples: list[float], cpu: str) -> Path:
        entry = {"test": "benchmarks/test_storage.py::test_sequential", "metric": "storage-read",
                 "unit": "B/s", "better": "higher", "identity": {"tool": "sbcbench-storage"},
                 "samples": samples, "telemetry": {}, "verdict": {"status": "pass"}}
        doc = {"schema": "sbcbench-results/1", "board": "star64", "created": "x",
               "environment": {"cpu_model": cpu, "cpus": 4}, "results": [entry]}
        path = tmp_path / f"{cpu}-{samples[0]}.json"
        path.write_text(json.dumps(doc))
        return path
    baseline = tmp_path / "star64.json"
    baseline.write_text(json.dumps({"schema": "sbcbench-baseline/1", "board": "star64",
                                    "entries": [{
        "test": "benchmarks/test_storage.py::test_sequential", "metric": "storage-read",
        "unit": "B/s", "better": "higher", "identity": {"tool": "sbcbench-storage"},
        "sessions": [{"created": "x", "samples": [20e6, 20.1e6, 19.9e6],
                      "environment": {"cpu_model": "U74", "cpus": 4}}]}]}))
    capsys.readouterr()
    assert main(["compare", str(baseline), str(results([20e6, 20.05e6], "U74"))]) == 0
    assert main(["compare", str(baseline), str(results([40e6, 40.1e6], "U74"))]) == 1
    assert "implausible  benchmarks/test_storage.py::test_sequential: storage-read 40" in \
        capsys.readouterr().out
    assert main(["compare", str(baseline), str(results([20e6, 20.05e6], "Cortex-A76"))]) == 0
    out = capsys.readouterr().out
    assert "incomparable" in out and "measured on another machine (cpu_model: baseline 'U74'" \
        in out
