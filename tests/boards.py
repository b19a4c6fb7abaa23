"""Stand-in boards and digests shared by the board tests (imported by module name, like
``labgrid_lab``; ``tests/labgrid_board_checks.py`` imports it from its own directory)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from pytest_sbcbench.measure import board_tree
from pytest_sbcbench.platform.executor import Completed, LocalExecutor


class PathBoard(LocalExecutor):
    """A remote board whose PATH is one directory (real tools, stand-ins, or only ``sh``)."""

    is_local = False

    def __init__(self, path: Path, name: str = "path-board") -> None:
        self.path = path
        self.name = name

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        return super().run(argv, timeout, {**(env or {}), "PATH": str(self.path)}, cwd)


def hashlib_digest(tree: Path) -> board_tree.TreeDigest:
    """The listing digest of ``tree`` computed with hashlib alone (no board_tree code):
    ``<sha256>  ./<path>`` per regular file, sorted as bytes, then its SHA-256."""
    lines = sorted(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  "
                   f"./{p.relative_to(tree).as_posix()}\n".encode()
                   for p in tree.rglob("*") if p.is_file() and not p.is_symlink())
    return board_tree.TreeDigest(hashlib.sha256(b"".join(lines)).hexdigest(), len(lines))
