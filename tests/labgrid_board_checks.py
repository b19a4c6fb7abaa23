"""The board-tree checks of tests/test_labgrid_compile.py, run in a child process through a real
:class:`LabgridExecutor`: labgrid keeps one coordinator session per process (its
``RemotePlaceManager``), so a second lab could not be reached from the test process once
tests/test_labgrid.py has used its own; a child process has its own session.

    python tests/labgrid_board_checks.py ENV_FILE BOARD_BASE WORK_DIR   # prints one JSON object
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from boards import hashlib_digest

from pytest_sbcbench.errors import CheckoutError
from pytest_sbcbench.measure import board_tree
from pytest_sbcbench.platform.host import SysrootHost
from pytest_sbcbench.platform.labgrid_executor import LabgridExecutor, open_target
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.workload import Context
from pytest_sbcbench.workloads.compile import CARGO_CLEAN, Build, BuildSpec

SHOW = 'ls -A "$1"; test -x "$1/run.sh" && echo exec'
TAMPER = 'echo "// changed" >> "$1/src/lib.rs"; : > "$1/extra.rs"'


def small_tree(root: Path) -> Path:
    """Four files (one executable, one name with a space) and a .git that must stay here."""
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "Cargo.toml").write_text('[package]\nname = "t"\nversion = "0.1.0"\n')
    (root / "src" / "lib.rs").write_text("pub fn f() -> u32 { 7 }\n")
    (root / "src" / "with space.rs").write_text("// a name with a space\n")
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (root / "run.sh").chmod(0o755)
    return root


def settings(work: Path) -> Settings:
    return Settings(board=None, baselines=work / "baselines", save_baseline=False, results=None,
                    sysroot=Sysroot(work / "captured"), sysroot_given=True, quick=True,
                    runs=None, interval=1.0, strict=False, performance=False, trace_dir=None,
                    cache=work / "cache", drop_caches=False, allow_incomparable=False,
                    verify_key=None, report_dir=None)


def transferred(executor: LabgridExecutor, root: Path, base: str) -> dict[str, Any]:
    """A clean transfer: digests, what arrived, and whether remove() removed it."""
    board = board_tree.transfer(root, executor, base, "small tree")
    shown = executor.run(["sh", "-c", SHOW, "sh", board.path], timeout=30).stdout.split()
    unpacked = hashlib_digest(Path(board.path))  # the lab board's files are on this machine
    board_tree.remove(board, executor)
    gone = executor.run(["test", "-e", board.run_dir], timeout=30).returncode
    return {"board": str(board.digest), "unpacked": str(unpacked), "controller": str(
        board_tree.digest_of(board_tree.listing(root))), "path": board.path, "shown": shown,
        "gone_rc": gone}


def tampered(executor: LabgridExecutor, root: Path, base: str) -> dict[str, Any]:
    """A file changed and one added on the board after the transfer, then verified again."""
    board = board_tree.transfer(root, executor, base, "tampered")
    try:
        executor.run(["sh", "-c", TAMPER, "sh", board.path], timeout=30)
        board_tree.verify(board, executor, board_tree.listing(root))
        error = None
    except CheckoutError as exc:
        error = str(exc)
    finally:
        board_tree.remove(board, executor)
    return {"controller": str(board_tree.digest_of(board_tree.listing(root))), "error": error}


def main(env_file: str, base: str, work: str) -> None:
    root = small_tree(Path(work) / "tree")
    target = open_target(Path(env_file))
    try:
        executor = LabgridExecutor(target)
        ctx = Context(settings(Path(work)), executor, SysrootHost(Sysroot(Path(work))))
        no_cargo = Build("x", "test_x", BuildSpec(["sbcbench-no-cargo", "build"],
                                                  list(CARGO_CLEAN)))
        print(json.dumps({
            "transferred": transferred(executor, root, base),
            "tampered": tampered(executor, root, base),
            "missing_reason": no_cargo.available(ctx),
            "missing_tools": board_tree.missing_tools(executor),
        }))
    finally:
        target.cleanup()


if __name__ == "__main__":
    main(*sys.argv[1:4])
