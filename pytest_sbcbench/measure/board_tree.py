"""The pinned tree on a remote board: packed on the controller, moved through the executor,
unpacked with the board's ``tar`` and verified there before anything is built.

The controller checked the tree out and fingerprinted it; it also lists its content: one
``<sha256>  ./<path>`` line per regular file (``.git`` left out), sorted bytewise, and the
SHA-256 of that listing.  The board recomputes the same listing with POSIX tools (``find``,
``sha256sum``, ``sort``: busybox has them all) and its digest with ``sha256sum``.  A different
digest is a :class:`CheckoutError` naming both digests, both file counts and the first paths
that differ: a build of another tree must never be measured as the pinned one.

Every board command is an argument vector (the executor quotes it); paths reach the fixed
``sh`` programs below as positional arguments, never as shell text.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tarfile
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from ..errors import CheckoutError, ParseError
from ..platform.executor import Executor
from .tools import run_tool, which

BOARD_DIR_ENV = "SBCBENCH_BOARD_DIR"
BOARD_TOOLS = ("tar", "sha256sum", "find", "sort")
STEP_TIMEOUT_S = 600.0  # one transfer, unpack or listing of a source tree
SHOWN_PATHS = 5

# The board's default base directory: its user's cache, not /tmp (often a small tmpfs).
_BASE = 'printf "%s\\n" "${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/sbcbench/builds"'
# $1 base, $2 the run's directory (new: a clash fails), then its empty tree directory.
_MAKE_DIR = 'mkdir -p -- "$1" && mkdir -- "$2" && mkdir -- "$2/tree"'
# $1 the tree, $2 the listing file (outside the tree).  The listing, then its own digest.
_LISTING = """cd -- "$1" || exit 2
find . -type f -exec sha256sum {} + > "$2" || exit 3
LC_ALL=C sort -o "$2" "$2" || exit 4
cat -- "$2" && sha256sum < "$2"
"""
_LINE = re.compile(r"^([0-9a-f]{64})  \./(.+)$")
_TOTAL = re.compile(r"^([0-9a-f]{64})  -$")


@dataclass(frozen=True)
class TreeDigest:
    """What a tree's content is: the digest of its file listing and its regular files."""

    sha256: str
    files: int

    def __str__(self) -> str:
        return f"sha256:{self.sha256} ({self.files} files)"


@dataclass(frozen=True)
class BoardTree:
    """A tree unpacked on the board: its run directory (removed afterwards), the tree inside,
    and the digest the board's own listing gave (verified equal to the controller's)."""

    run_dir: str
    path: str
    digest: TreeDigest


def missing_tools(executor: Executor, tools: tuple[str, ...] = BOARD_TOOLS) -> list[str]:
    """The tools the transfer needs that the board's ``PATH`` does not have."""
    return [tool for tool in tools if which(tool, executor=executor) is None]


def _regular_files(root: Path) -> list[str]:
    """Relative paths of the regular files under ``root`` (symlinks not followed, the
    top-level ``.git`` left out), refusing names that ``sha256sum`` would escape."""
    found = []
    for folder, _, files in _walk(root):
        for name in files:
            path = folder / name
            if path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if "\n" in rel or "\\" in rel:
                raise CheckoutError(f"{root}: file name {rel!r} cannot be verified on a board "
                                    "(a newline or backslash)")
            found.append(rel)
    return found


def listing(root: Path) -> str:
    """The content listing of ``root`` exactly as the board's ``find | sha256sum | sort``
    prints it: ``<sha256>  ./<path>`` lines, sorted as bytes (``LC_ALL=C``)."""
    lines = [f"{hashlib.sha256((root / rel).read_bytes()).hexdigest()}  ./{rel}\n"
             for rel in _regular_files(root)]
    return "".join(sorted(lines, key=lambda line: line.encode("utf-8", "surrogateescape")))


def digest_of(text: str) -> TreeDigest:
    """The digest of a listing (its SHA-256, as ``sha256sum`` computes it) and its lines."""
    data = text.encode("utf-8", "surrogateescape")
    return TreeDigest(hashlib.sha256(data).hexdigest(), len(text.splitlines()))


def _entries(root: Path) -> list[Path]:
    """Everything under ``root`` but the top-level ``.git``, symlinks kept as links."""
    return sorted(folder / name for folder, dirs, files in _walk(root)
                  for name in (*dirs, *files))


def _walk(root: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """``os.walk(root)`` without the top-level ``.git`` (the tree's content, not its history)."""
    for folder, dirs, files in os.walk(root):
        if Path(folder) == root and ".git" in dirs:
            dirs.remove(".git")
        yield Path(folder), dirs, files


def pack(root: Path, out: Path) -> None:
    """A plain tar of the work tree without ``.git``: sorted, owner 0, modes kept, whole
    seconds (no compression and no extended headers for the board's ``tar`` to support)."""
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        for path in _entries(root):
            info = tar.gettarinfo(str(path), arcname=path.relative_to(root).as_posix())
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = int(info.mtime)
            if info.isreg():
                with path.open("rb") as data:
                    tar.addfile(info, data)
            else:
                tar.addfile(info)


def board_base(executor: Executor, environ: Mapping[str, str] | None = None) -> str:
    """Where run directories go on the board: ``$SBCBENCH_BOARD_DIR`` (set on the controller,
    naming a board path: a lab chooses the board's disk), else the board user's cache."""
    given = (environ if environ is not None else os.environ).get(BOARD_DIR_ENV, "")
    base = given or run_tool(["sh", "-c", _BASE], 60, "board cache directory",
                             executor=executor).strip()
    if not PurePosixPath(base).is_absolute():
        raise CheckoutError(f"board build directory {base!r} is not an absolute path "
                            f"(set {BOARD_DIR_ENV} to one)")
    return base


def make_run_dir(executor: Executor, base: str, label: str) -> str:
    """A new directory for this run under ``base`` on the board (``label`` plus a random
    suffix, so two runs never share one)."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or "tree"
    run_dir = str(PurePosixPath(base) / f"{safe}-{uuid.uuid4().hex[:8]}")
    run_tool(["sh", "-c", _MAKE_DIR, "sbcbench-mkdir", base, run_dir], 60,
             "make the board build directory", expect_output=False, executor=executor)
    return run_dir


def transfer(root: Path, executor: Executor, base: str, label: str) -> BoardTree:
    """Pack ``root``, put it into a new run directory on the board, unpack it there and
    verify its digest; returns where it is.  The run directory is removed on any failure."""
    text = listing(root)
    run_dir = make_run_dir(executor, base, label)
    board = BoardTree(run_dir, f"{run_dir}/tree", digest_of(text))  # until the board says
    try:
        with tempfile.TemporaryDirectory(prefix="sbcbench-tree-") as tmp:
            archive = Path(tmp) / "tree.tar"
            pack(root, archive)
            executor.put(archive, f"{run_dir}/tree.tar")
        run_tool(["tar", "-xmf", f"{run_dir}/tree.tar"], STEP_TIMEOUT_S, "unpack the tree on "
                 "the board", expect_output=False, cwd=Path(board.path), executor=executor)
        run_tool(["rm", "-f", "--", f"{run_dir}/tree.tar"], 60, "remove the board's tar",
                 expect_output=False, executor=executor)
        seen = verify(board, executor, text)
    except BaseException as exc:
        remove_after(exc, board, executor)
        raise
    return replace(board, digest=seen)


def parse_board_listing(stdout: str) -> tuple[str, str]:
    """The board's listing and the digest ``sha256sum`` printed for it (its last line)."""
    lines = stdout.splitlines()
    total = _TOTAL.match(lines[-1]) if lines else None
    if total is None:
        raise ParseError("board tree listing", "no 'sha256sum' digest on its last line",
                         "\n".join(lines[-3:]))
    body = lines[:-1]
    bad = next((line for line in body if not _LINE.match(line)), None)
    if bad is not None:
        raise ParseError("board tree listing", "a line is not '<sha256>  ./<path>'", bad)
    return "".join(f"{line}\n" for line in body), total.group(1)


def _files(text: str) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in map(_LINE.match, text.splitlines()) if m}


def differences(expected: str, found: str) -> list[str]:
    """The paths whose content differs between two listings, each with how."""
    want, have = _files(expected), _files(found)
    out = [f"{p} (missing on the board)" for p in sorted(want.keys() - have.keys())]
    out += [f"{p} (only on the board)" for p in sorted(have.keys() - want.keys())]
    out += [f"{p} (content differs)" for p in sorted(want.keys() & have.keys())
            if want[p] != have[p]]
    return out


def verify(board: BoardTree, executor: Executor, expected: str) -> TreeDigest:
    """Recompute the tree's listing and digest on the board and return the board's digest; a
    difference from the controller's ``expected`` listing fails loudly, naming both digests
    and file counts."""
    out = run_tool(["sh", "-c", _LISTING, "sbcbench-tree", board.path, f"{board.run_dir}/listing"],
                   STEP_TIMEOUT_S, "list the tree on the board", executor=executor)
    found, total = parse_board_listing(out)
    seen = TreeDigest(total, len(found.splitlines()))
    want = digest_of(expected)
    if seen != want:
        diff = differences(expected, found)
        shown = "; ".join(diff[:SHOWN_PATHS]) + (" ..." if len(diff) > SHOWN_PATHS else "")
        raise CheckoutError(
            f"the tree on the board ({executor.name}:{board.path}) is not the tree checked "
            f"out here: controller {want}, board {seen}"
            + (f"; {shown}" if shown else "; same files: the listings differ in order or "
               "format (the board's sort or sha256sum)"))
    return seen


def remove(board: BoardTree, executor: Executor) -> None:
    """Remove the run's directory on the board (its tree and build output)."""
    if not board.run_dir.startswith("/") or board.run_dir.rstrip("/").count("/") < 2:
        raise CheckoutError(f"refusing to remove {board.run_dir!r} on the board")
    run_tool(["rm", "-rf", "--", board.run_dir], STEP_TIMEOUT_S, "remove the board build "
             "directory", expect_output=False, executor=executor)


def remove_after(failure: BaseException, board: BoardTree, executor: Executor) -> None:
    """Remove the run's directory after ``failure``; a removal that fails too (an ssh drop)
    is attached to ``failure`` as a note, never raised in its place: the original error is
    what the user must see."""
    try:
        remove(board, executor)
    except Exception as exc:
        add_note(failure, f"removing the board build directory {board.run_dir} failed too: "
                          f"{exc}")


def add_note(failure: BaseException, note: str) -> None:
    """``failure.add_note(note)`` (Python 3.11+; before that the same ``__notes__`` list)."""
    if sys.version_info >= (3, 11):
        failure.add_note(note)
    else:  # no notes before 3.11: keep it where a 3.11 traceback would look
        failure.__dict__.setdefault("__notes__", []).append(note)
