"""The first ten minutes of a new user (issue 32, Part 3): what the tally says it can catch,
every skip with its reason, a tool where Debian's user installs it, the lab recipe's files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO
from pytest_sbcbench.measure.tools import not_found
from pytest_sbcbench.model import Evidence, Identity, Measurement, Result, Summary, Verdict
from pytest_sbcbench.report.tally import tally_line
from pytest_sbcbench.words import caught


def judged(catch95_pct: float) -> Result:
    """An inconclusive metric whose gate catches 95% of drops of ``catch95_pct`` or more."""
    m = Measurement("sha256", "B/s", "higher", Identity.of(tool="openssl"), (1.0, 2.0))
    ev = Evidence(change_pct=-20.0, ci_pct=(-60.0, 20.0), confidence_pct=95.0,
                  tolerance_pct=1.0, detectable_pct=catch95_pct, min_effect_pct=3.0, samples=2,
                  baseline_samples=2, baseline_boots=1, candidate_boots=1,
                  catch95_pct=catch95_pct)
    return Result("t::x", m, Summary(2, 1.5, 1.5, 0.7, 0.47), Verdict("inconclusive", "", ev), {})


def test_a_catchable_drop_is_a_figure_and_an_impossible_one_is_said_in_words() -> None:
    assert caught(2.44) == "95% of drops >= 2.4% are caught"
    assert caught(89.9) == "95% of drops >= 89.9% are caught"
    assert caught(90.0) == "nothing smaller than a 90% drop can be caught"
    assert caught(279.8) == "nothing smaller than a 90% drop can be caught"


def test_a_tally_that_can_catch_nothing_says_so() -> None:
    line = tally_line([judged(279.8)])
    assert "nothing smaller than a 90% drop can be caught (median metric)" in line
    assert "279.8" not in line
    assert "95% of drops >= 3.1% are caught (median metric)" in tally_line([judged(3.1)])


def test_the_history_files_in_baselines_are_ignored_by_git() -> None:
    names = ["history.sqlite", "history.sqlite-wal", "history.sqlite-shm", "history.sqlite.lock",
             ".star64.json.lock"]
    done = subprocess.run(["git", "check-ignore", *[f"baselines/{n}" for n in names]],
                          cwd=REPO, capture_output=True, text=True)
    assert done.stdout.split() == [f"baselines/{n}" for n in names]
    kept = subprocess.run(["git", "check-ignore", "baselines/star64.json"], cwd=REPO,
                          capture_output=True, text=True)
    assert kept.returncode == 1  # a baseline file is committed, not ignored


def test_the_readme_gate_steps_on_the_qemu_board_name_the_kernel_they_boot() -> None:
    readme = (REPO / "README.md").read_text()
    gate = readme[readme.index("## Gate a new kernel"):readme.index("## What a person reads")]
    lines = [line for line in gate.splitlines() if "QEMU" in line and "--sbc-" in line]
    assert len(lines) >= 2, "the README's gate recipe has no QEMU board steps"
    for line in lines:
        assert "--sbc-lab-kernel kernel-6." in line, line


def test_the_lab_build_time_is_the_measured_one() -> None:
    text = (REPO / "docs" / "lab.md").read_text()
    build = next(line for line in text.splitlines() if "scripts/qemu_lab.py build " in line)
    assert "1-2 min" not in build
    assert "94-267 s" in build
    saved = next(line for line in text.splitlines() if "--sbc-save-baseline" in line
                 and "a72.yaml" in line)
    assert "--sbc-lab-kernel kernel-6.1 " in saved


def test_cargo_in_the_users_cargo_bin_is_named_when_path_lacks_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    cargo = home / ".cargo" / "bin" / "cargo"
    cargo.parent.mkdir(parents=True)
    cargo.write_text("#!/bin/sh\necho cargo 1.65.0\n")
    monkeypatch.setenv("HOME", str(home))
    assert not_found("cargo", "install it") == "cargo not found on PATH: install it"
    cargo.chmod(0o755)  # a program now: named, with the PATH line it needs
    assert not_found("cargo", "install it") == (
        f"cargo not found on PATH, but {cargo} is installed: add ~/.cargo/bin to PATH "
        f"(export PATH=\"{cargo.parent}:$PATH\") and run again")
    assert not_found("no-such-tool", "install it") == "no-such-tool not found on PATH: install it"


def test_sbcbench_list_names_the_cargo_the_path_misses(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cargo = home / ".cargo" / "bin" / "cargo"
    cargo.parent.mkdir(parents=True)
    cargo.write_text("#!/bin/sh\necho cargo 1.65.0\n")
    cargo.chmod(0o755)
    bare = tmp_path / "bin"  # a PATH with neither cargo nor anything else
    bare.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": str(bare)}
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "list", "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    reasons = {row["name"]: row["reason"] for row in json.loads(done.stdout)
               if row["name"].startswith("compile")}
    assert reasons and all(str(cargo) in (r or "") for r in reasons.values()), reasons


def test_sbcbench_run_says_why_each_test_skipped_at_the_end(tmp_path: Path) -> None:
    """pytest's default short summary names no skip's reason (``-rs``); ``sbcbench run`` asks
    for it, so the reason is in the default output next to the counts, not only up front."""
    env = {k: v for k, v in os.environ.items() if k != "SBCBENCH_BSSL"}
    env["PATH"] = str(tmp_path / "bin")  # no bssl (nor anything else) on it
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "run", "-k", "bssl"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout[done.stdout.index("short test summary info"):]
    assert "SKIPPED [1] " in summary and "bssl not found on PATH" in summary, done.stdout
