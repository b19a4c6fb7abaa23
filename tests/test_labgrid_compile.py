"""Integration: compile workloads on a labgrid board (the real sshd lab of tests/labgrid_lab.py).

The board's build directory (``SBCBENCH_BOARD_DIR``) carries a cargo configuration whose
rustc wrapper logs every compiler call with its working directory and whether the cargo that
made it was started by the board-side timing shell (``sbcbench-time``).  That proves the tree
was unpacked and built in the board-side directory, the warm-up untimed and each timed build
under :mod:`pytest_sbcbench.measure.board_timing`.  Skips only when cargo, sshd or labgrid is
missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from labgrid_lab import Lab, lab_profile, running_lab, start_lab

from pytest_sbcbench.measure import board_tree
from pytest_sbcbench.measure.offline_crate import SHA

REPO = Path(__file__).resolve().parents[1]
TEST = "benchmarks/test_compile.py::test_offline_crate"
# The board's rustc wrapper (cargo's ``build.rustc-wrapper``): logs "<timed|untimed> <cargo pid>
# <pwd>", timed when the cargo that started it was started by the board_timing shell.
RUSTC_WRAPPER = """#!/bin/sh
cargo_parent=$(cut -d' ' -f4 /proc/$PPID/stat)
case "$(tr '\\0' ' ' < /proc/$cargo_parent/cmdline)" in
  *sbcbench-time*) how=timed ;;
  *) how=untimed ;;
esac
echo "$how $PPID $(pwd)" >> {log}
exec "$@"
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    if shutil.which("cargo") is None or shutil.which("rustc") is None:
        pytest.skip("cargo and rustc not found: install Rust (apt-get install cargo)")
    with running_lab(start_lab, tmp_path_factory.mktemp("lab")) as running:
        yield running


@pytest.fixture(scope="module")
def board_rustc(lab: Lab) -> Path:
    """The board build directory (``SBCBENCH_BOARD_DIR``) with a cargo configuration whose
    rustc wrapper logs each compiler call (cargo reads it from the build's parent
    directories, whatever cargo the board's login shell finds first); returns the log."""
    builds = lab.root / "board-builds"
    (builds / ".cargo").mkdir(parents=True)
    wrapper, log = lab.root / "board-rustc-wrapper", lab.root / "board-rustc.log"
    wrapper.write_text(RUSTC_WRAPPER.format(log=log))
    wrapper.chmod(0o755)
    (builds / ".cargo" / "config.toml").write_text(f'[build]\nrustc-wrapper = "{wrapper}"\n')
    return log


# -- the board tree: transfer, verification, a tampered tree (in a child process) -----------------

@pytest.fixture(scope="module")
def checks(lab: Lab, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """tests/labgrid_board_checks.py against this lab (see there why in a child process)."""
    work = tmp_path_factory.mktemp("board-checks")
    done = subprocess.run([sys.executable, str(REPO / "tests" / "labgrid_board_checks.py"),
                           str(lab.env_file), str(lab.root / "board-api"), str(work)],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_tree_arrives_verified_and_is_removed(checks: dict[str, Any], lab: Lab) -> None:
    """The digest the tree carries is the board's find/sha256sum/sort one: equal to hashlib's
    over the unpacked tree (and so to the controller's); .git stays here; the executable bit
    survives; the run directory goes away with remove()."""
    done = checks["transferred"]
    assert done["board"] == done["unpacked"] and done["board"].endswith("(4 files)")
    assert done["controller"] == done["board"]
    assert done["path"].startswith(f"{lab.root / 'board-api'}/")
    assert done["shown"] == ["Cargo.toml", "run.sh", "src", "exec"]
    assert done["gone_rc"] == 1


def test_tampered_tree_fails_loudly(checks: dict[str, Any]) -> None:
    """A file changed and one added on the board after the transfer: the verification names
    both digests, both file counts and the paths."""
    message = checks["tampered"]["error"]
    assert message is not None, "the tampered tree passed verification"
    assert f"controller {checks['tampered']['controller']}" in message
    assert "(4 files)" in message and "board sha256:" in message and "(5 files)" in message
    assert "src/lib.rs (content differs)" in message and "extra.rs (only on the board)" in message


def test_board_missing_build_tool_skips_with_the_reason(checks: dict[str, Any]) -> None:
    """``available()`` asks the board (not this machine) for the build tool and names it."""
    reason = checks["missing_reason"]
    assert reason is not None and reason.startswith(
        "sbcbench-no-cargo not found on the board's PATH (labgrid:main)")
    assert checks["missing_tools"] == []  # tar, sha256sum, find and sort are there


# -- the shipped compile suite over --lg-env ----------------------------------------------------

@dataclass
class CompileRun:
    out: subprocess.CompletedProcess[str]
    result: dict[str, Any]
    calls: list[list[str]]  # [timed|untimed, cargo pid, pwd] per rustc call on the board
    board_dir: Path


@pytest.fixture(scope="module")
def compile_run(lab: Lab, board_rustc: Path, tmp_path_factory: pytest.TempPathFactory
                ) -> CompileRun:
    """``pytest -p labgrid --lg-env ENV benchmarks/test_compile.py -k offline --sbc-quick``
    with the board's build directory in the lab (``SBCBENCH_BOARD_DIR``)."""
    tmp = tmp_path_factory.mktemp("compile-run")
    lab_profile(tmp / "baselines")
    results = tmp / "results.json"
    board_dir = board_rustc.parent / "board-builds"
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_compile.py", "-k", "offline",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-rs",
            "-p", "labgrid", "--lg-env", str(lab.env_file),
            "--sbc-baselines", str(tmp / "baselines"), "--sbc-results", str(results),
            "--sbc-cache", str(tmp / "cache")]
    env = {k: v for k, v in os.environ.items() if k != "LG_ENV"}
    env[board_tree.BOARD_DIR_ENV] = str(board_dir)
    out = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=900,
                         check=False, env=env)
    doc = json.loads(results.read_text()) if results.exists() else {"results": []}
    found = [r for r in doc["results"] if r["test"] == TEST]
    calls = [line.split(" ", 2) for line in
             (board_rustc.read_text().splitlines() if board_rustc.exists() else [])]
    return CompileRun(out, found[0] if found else {}, calls, board_dir)


def test_offline_crate_builds_on_the_board(compile_run: CompileRun) -> None:
    """The compiler ran in the board-side tree under three cargo processes: one untimed
    (the warm-up), then one per quick sample started by the board timing shell; the run
    directory is gone afterwards (only the lab's cargo configuration stays)."""
    out = compile_run.out
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed" in out.stdout
    tree = compile_run.result["details"]["board_dir"]
    assert tree.startswith(f"{compile_run.board_dir}/") and tree.endswith("/tree")
    assert compile_run.calls and all(pwd == tree for _, _, pwd in compile_run.calls)
    cargos = list(dict.fromkeys((how, pid) for how, pid, _ in compile_run.calls))
    assert [how for how, _ in cargos] == ["untimed", "timed", "timed"]
    assert [p.name for p in compile_run.board_dir.iterdir()] == [".cargo"]


def test_timing_and_identity_come_from_the_board(compile_run: CompileRun) -> None:
    """Each run's wall and CPU time are board_timing's (its report is in the build log);
    the toolchain was read on the board; the verified tree's digest travels with the result."""
    result = compile_run.result
    identity = result["identity"]
    assert identity["commit"] == SHA and identity["toolchain"].startswith("rustc ")
    runs = result["details"]["runs"]
    assert len(runs) == 2
    for run in runs:
        assert run["timed_on"] == "labgrid:main" and run["timing"].startswith("board: ")
        assert run["wall_s"] > 0 and run["user_s"] + run["sys_s"] > 0
    log = Path(result["details"]["log"]).read_text()
    reports = [line for line in log.splitlines() if line.startswith("sbcbench-time v1 start=")]
    assert len(reports) == 2
    assert len(result["details"]["tree_sha256"]) == 64 and result["details"]["tree_files"] > 33
