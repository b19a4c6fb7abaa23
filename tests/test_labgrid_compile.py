"""Integration: compile workloads on a labgrid board (the real sshd lab of tests/labgrid_lab.py).

The "board" gets a ``cargo`` (and ``rustc``) on its sshd session's PATH that logs every call
with its working directory and whether its parent is the board-side timing shell
(``sbcbench-time``), then runs the real one.  That proves the tree was unpacked and built in
the board-side directory, warm-up and clean untimed, each timed build under
:mod:`pytest_sbcbench.measure.board_timing`.  Skips only when cargo, sshd or labgrid is missing.
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
from labgrid_lab import TAGS, Lab, LabUnavailable, preload_labgrid, start_lab

from pytest_sbcbench.errors import CheckoutError
from pytest_sbcbench.measure import board_tree
from pytest_sbcbench.measure.offline_crate import SHA
from pytest_sbcbench.platform.host import SysrootHost
from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.workload import Context
from pytest_sbcbench.workloads.compile import CARGO_CLEAN, Build, BuildSpec

preload_labgrid()

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
    try:
        running = start_lab(tmp_path_factory.mktemp("lab"))
    except LabUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield running
    finally:
        running.close()


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


@pytest.fixture(scope="module")
def executor(lab: Lab) -> Iterator[LabgridExecutor]:
    target = open_target(lab.env_file)
    try:
        yield LabgridExecutor(target)
    finally:
        target.cleanup()


# -- the board tree: transfer, verification, a tampered tree -------------------------------------

def small_tree(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "Cargo.toml").write_text('[package]\nname = "t"\nversion = "0.1.0"\n')
    (root / "src" / "lib.rs").write_text("pub fn f() -> u32 { 7 }\n")
    (root / "src" / "with space.rs").write_text("// a name with a space\n")
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (root / "run.sh").chmod(0o755)
    return root


def test_tree_arrives_verified_and_is_removed(executor: LabgridExecutor, tmp_path: Path,
                                              lab: Lab) -> None:
    """The board's find/sha256sum/sort digest equals the controller's; .git stays here;
    modes survive; the run directory goes away with remove()."""
    root = small_tree(tmp_path / "tree")
    board = board_tree.transfer(root, executor, str(lab.root / "board-api"), "small tree")
    assert board.digest == board_tree.digest_of(board_tree.listing(root))
    assert board.digest.files == 4 and board.path.startswith(str(lab.root / "board-api"))
    shown = executor.run(["sh", "-c", 'ls -A "$1"; test -x "$1/run.sh" && echo exec',
                          "sh", board.path], timeout=30)
    assert shown.stdout.split() == ["Cargo.toml", "run.sh", "src", "exec"]
    board_tree.remove(board, executor)
    assert executor.run(["test", "-e", board.run_dir], timeout=30).returncode == 1


def test_tampered_tree_fails_loudly(executor: LabgridExecutor, tmp_path: Path,
                                    lab: Lab) -> None:
    """A file changed and one added on the board after the transfer: the verification names
    both digests, both file counts and the paths."""
    root = small_tree(tmp_path / "tree")
    board = board_tree.transfer(root, executor, str(lab.root / "board-api"), "tampered")
    try:
        executor.run(["sh", "-c", 'echo "// changed" >> "$1/src/lib.rs"; : > "$1/extra.rs"',
                      "sh", board.path], timeout=30)
        with pytest.raises(CheckoutError) as failed:
            board_tree.verify(board, executor, board_tree.listing(root))
    finally:
        board_tree.remove(board, executor)
    message = str(failed.value)
    assert f"controller {board.digest}" in message and "(4 files)" in message
    assert "board sha256:" in message and "(5 files)" in message
    assert "src/lib.rs (content differs)" in message and "extra.rs (only on the board)" in message


def offline_settings(tmp: Path) -> Settings:
    return Settings(board=None, baselines=tmp / "baselines", save_baseline=False, results=None,
                    sysroot=Sysroot(tmp / "captured"), sysroot_given=True, quick=True, runs=None,
                    interval=1.0, strict=False, performance=False, trace_dir=None,
                    cache=tmp / "cache", drop_caches=False, allow_incomparable=False,
                    verify_key=None, report_dir=None)


def test_board_missing_build_tool_skips_with_the_reason(executor: LabgridExecutor,
                                                        tmp_path: Path) -> None:
    """``available()`` asks the board (not this machine) for the build tool and names it."""
    ctx = Context(offline_settings(tmp_path), executor, SysrootHost(Sysroot(tmp_path)))
    missing = Build("x", "test_x", BuildSpec(["sbcbench-no-cargo", "build"], list(CARGO_CLEAN)))
    reason = missing.available(ctx)
    assert reason is not None and reason.startswith(
        "sbcbench-no-cargo not found on the board's PATH (labgrid:main)")
    assert board_tree.missing_tools(executor) == []  # tar, sha256sum, find, sort are there


# -- the shipped compile suite over --lg-env ----------------------------------------------------

def lab_profile(baselines: Path) -> None:
    """The lab board's own profile (the place's ``board`` tag names it)."""
    folder = baselines / "boards"
    folder.mkdir(parents=True)
    (folder / f"{TAGS['board']}.json").write_text(json.dumps({
        "schema": "sbcbench-board/1", "name": TAGS["board"], "title": "sshd lab board",
        "soc": TAGS["soc"], "arch": os.uname().machine,
        "clusters": [{"cores": os.cpu_count() or 1, "core": "lab core"}]}))


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
