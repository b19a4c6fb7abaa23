"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Reading and writing the project's files without losing or clobbering a byte.

Every file pytest-sbcbench writes (results JSON, baselines) goes through :func:`write_atomic`:
a temporary file beside the target, fsync, rename, fsync of the directory.  It writes only over
a regular file or nothing: a symlink is followed (the shared target is updated, the link stays),
a device node, directory, socket or FIFO is refused, and the target keeps its permission bits.
:func:`validate_outputs` finds every unusable output location before a run starts.
:func:`read_regular` is how every input file is read: a regular file of bounded size, opened
so that a FIFO cannot hang the run (parsing JSON is :mod:`pytest_sbcbench.jsonload`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import resource
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import SbcBenchError

TEMP_MARK = ".sbcbench-"
TEMP_SUFFIX = ".tmp"
MAX_INPUT_BYTES = 256 << 20  # the largest baseline, results file or key read (256 MiB)


class OutputError(SbcBenchError):
    """An output location that cannot or must not be written."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


class InputFileError(OSError):
    """An input that is not a regular file, or larger than its limit (an :class:`OSError`,
    so every reader's existing handling of unreadable files names it)."""


def read_regular(path: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed), at most ``limit`` of them.

    Opened with ``O_NONBLOCK`` and checked with ``fstat`` on the open descriptor, so a FIFO
    neither hangs the open nor is read, a device (``/dev/zero``) or directory is refused
    before a byte is read, and a file swapped after a check cannot slip through.  Anything
    but a regular file, or a file of more than ``limit`` bytes (read in bounded chunks: a
    ``/proc`` file's size says 0), is an :class:`InputFileError`; a missing file stays
    :class:`FileNotFoundError`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(errno.EINVAL, f"is {_kind(mode)}, not a regular file",
                                 str(path))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputFileError(errno.EFBIG, f"is larger than {limit} bytes, more than "
                                                  "such a file can hold", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def resolve_target(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file a write to ``path`` must update (symlinks followed) and its stat, or None when it
    does not exist yet.  Anything but a regular file is an :class:`OutputError`."""
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target, None
    except NotADirectoryError as exc:
        blocker = _nearest_existing(target.parent)
        raise OutputError(Path(path), f"{blocker} is not a directory") from exc
    except OSError as exc:
        raise OutputError(Path(path), f"cannot inspect: {exc.strerror}") from exc
    if not stat.S_ISREG(st.st_mode):
        shown = f"{path} -> {target}" if target != Path(path).absolute() else str(path)
        raise OutputError(Path(shown), f"is {_kind(st.st_mode)}; refusing to replace it "
                                       "(give the path of a regular file)")
    if not os.access(target, os.W_OK):
        raise OutputError(Path(path), "is a read-only file; refusing to replace it")
    return target, st


def _nearest_existing(path: Path) -> Path:
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    return probe


def check_writable_target(path: Path, what: str) -> str | None:
    """Why ``path`` cannot be written as ``what`` (e.g. ``"--sbc-results"``), or None.

    For start-up validation: the target must be a regular file or missing, and the directory
    that will hold it (or its nearest existing ancestor, which will be created) writable."""
    try:
        target, _ = resolve_target(path)
    except OutputError as exc:
        return f"{what} {exc}"
    return check_writable_dir(target.parent, what, target)


def check_writable_dir(directory: Path, what: str, shown: Path | None = None) -> str | None:
    """Why files cannot be created in ``directory`` (created later if missing), or None."""
    shown = shown if shown is not None else directory
    if directory.exists() and not directory.is_dir():
        return f"{what} {shown}: {directory} is not a directory"
    existing = _nearest_existing(directory)
    if not existing.is_dir():
        return f"{what} {shown}: {existing} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{what} {shown}: directory {existing} is not writable"
    return _probe(existing, what, shown)


def _probe(directory: Path, what: str, shown: Path) -> str | None:
    """Create and remove a file in ``directory``: permission bits say nothing to root, and
    ``/proc`` or a read-only mount refuses only when a file is really created."""
    try:
        fd, name = tempfile.mkstemp(prefix=".sbcbench-probe-", dir=directory)
    except OSError as exc:
        return f"{what} {shown}: cannot create a file in {directory}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(name)
    return None


def check_cache(given: Path | None) -> str | None:
    """Why the run's cache (``--sbc-cache``, else the user's cache directory) cannot be used,
    or None: found before measuring, never as an OSError mid-run, and never by creating a
    home directory that does not exist (as root, ``HOME=/nonexistent/home`` would)."""
    if given is not None:
        return check_writable_dir(given, "--sbc-cache")
    if not os.environ.get("XDG_CACHE_HOME"):
        home = Path.home()
        if not home.is_dir():
            return (f"the cache directory: HOME {home} does not exist; set XDG_CACHE_HOME or "
                    "give --sbc-cache DIR")
    return check_writable_dir(default_cache(), "the cache directory (XDG_CACHE_HOME, HOME or "
                                               "--sbc-cache)")


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/pytest-sbcbench`` (``~/.cache/pytest-sbcbench``): this machine's
    checkouts, build logs and compiled helpers (``--sbc-cache`` overrides it)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-sbcbench"


ROOM_BYTES = 1 << 20  # what a write that failed without saying why may have needed


def _size_limit() -> int | None:
    """This process' limit on the size of a file it writes (``ulimit -f``), or None."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _too_large() -> str:
    limit = _size_limit()
    return "file too large" + (f" (this process may write files of at most {limit} bytes: "
                               "ulimit -f)" if limit is not None else "")


def cannot_write(exc: OSError) -> str:
    """Why a write failed, as said to the user: a file that cannot grow (``EFBIG``, ``ENOSPC``,
    ``EDQUOT``) as ``could not write: file too large`` or ``no space left on device``, any
    other error by its own words."""
    if exc.errno == errno.EFBIG:
        return f"could not write: {_too_large()}"
    if exc.errno == errno.ENOSPC:
        return "could not write: no space left on device"
    if exc.errno == errno.EDQUOT:
        return "could not write: disk quota exceeded"
    return f"cannot write: {exc.strerror or exc}"


def no_room(path: Path) -> str | None:
    """Why a file at ``path`` (existing or not) may not grow, for a write that failed without
    saying why (SQLite's ``disk I/O error``): this process' file size limit, at or below what
    the file holds plus :data:`ROOM_BYTES`, or a file system with less than that free; None:
    neither (the failure was something else)."""
    limit = _size_limit()
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    if limit is not None and limit < size + ROOM_BYTES:
        return _too_large()
    try:
        fs = os.statvfs(path.parent)
    except OSError:
        return None
    return "no space left on device" if fs.f_bavail * fs.f_frsize < ROOM_BYTES else None


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _new_temp(target: Path) -> tuple[int, Path]:
    """An exclusive, locked temporary file beside ``target`` (mode 0666 minus the umask).

    The lock marks it as in use: :func:`clean_stale_temps` removes only temporaries whose lock
    is free, i.e. whose writer is gone.  A temporary removed between creation and locking
    (link count 0) is replaced by a fresh one."""
    while True:
        tmp = target.with_name(f".{target.name}{TEMP_MARK}{secrets.token_hex(6)}{TEMP_SUFFIX}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink > 0:
            return fd, tmp
        os.close(fd)


def _keep_owner_and_mode(fd: int, st: os.stat_result | None) -> None:
    if st is None:
        return
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except PermissionError:
            pass  # only root can give a file away; the mode below is still kept
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def write_atomic(path: Path, data: bytes) -> Path:
    """Replace the regular file at ``path`` (or its symlink's target) with ``data`` atomically.

    Returns the file actually written.  Readers see the old or the new bytes, never half; the
    temporary file is removed on any failure, Ctrl-C included."""
    target, st = resolve_target(Path(path))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _new_temp(target)
    except OSError as exc:
        raise OutputError(Path(path), cannot_write(exc)) from exc
    try:
        with os.fdopen(fd, "wb", closefd=False) as handle:
            handle.write(data)
            handle.flush()
            _keep_owner_and_mode(fd, st)
            os.fsync(fd)
        os.replace(tmp, target)
        _fsync_dir(target.parent)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(Path(path), cannot_write(exc)) from exc
        raise
    finally:
        os.close(fd)
    return target


def write_json_atomic(path: Path, data: Any) -> Path:
    """``data`` as indented JSON through :func:`write_atomic`; NaN and Infinity are refused."""
    try:
        text = json.dumps(data, indent=2, sort_keys=False, allow_nan=False) + "\n"
    except ValueError as exc:
        raise OutputError(Path(path), f"not written: {exc} (a NaN or infinite number is a "
                                      "bug in the measurement)") from exc
    return write_atomic(path, text.encode("utf-8"))


LEGACY_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")  # mkstemp names of earlier versions


def _is_temp(name: str) -> bool:
    ours = name.startswith(".") and TEMP_MARK in name and name.endswith(TEMP_SUFFIX)
    return ours or LEGACY_TEMP.fullmatch(name) is not None


def clean_stale_temps(directory: Path) -> list[Path]:
    """Remove temporaries of :func:`write_atomic` left in ``directory`` by a killed writer.

    A temporary whose writer still runs holds a lock on it and is left alone.  Returns the
    files removed."""
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(directory) if _is_temp(n)]
    except OSError:
        return removed
    for name in names:
        path = directory / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                path.unlink()
                removed.append(path)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.ENOENT):
                raise
        finally:
            os.close(fd)
    return removed


def say_waiting(lock_path: Path) -> None:
    """What a run held up by another's lock says before it waits (on stderr, at once): a
    second run saving the same baseline looks hung otherwise."""
    print(f"sbcbench: waiting for {lock_path}: another run holds it (saving the same "
          "baseline)", file=sys.stderr, flush=True)


@contextmanager
def locked(lock_path: Path, waiting: Callable[[Path], None] = say_waiting) -> Iterator[None]:
    """An exclusive ``flock`` on ``lock_path`` (created if missing, never deleted: deleting a
    lock file lets two processes lock two different files); when another process holds it,
    ``waiting`` is told before the wait."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting(lock_path)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def validate_outputs(results: Path | None, report_dir: Path | None, baselines_dir: Path | None,
                     trace_dir: Path | None, storage_path: Path | None) -> list[str]:
    """Every problem with the run's output locations, found before any benchmark runs.

    ``baselines_dir`` only when saving (reading needs no write access).  The plugin turns a
    non-empty list into a usage error (exit 4), instead of losing minutes of measurements to a
    crash at the end of the run."""
    problems = [
        results is not None and check_writable_target(results, "--sbc-results"),
        report_dir is not None and check_writable_dir(report_dir, "--sbc-report"),
        baselines_dir is not None and check_writable_dir(
            baselines_dir, "--sbc-baselines (with --sbc-save-baseline)"),
        trace_dir is not None and check_writable_dir(trace_dir, "--sbc-trace-dir"),
        storage_path is not None and _check_storage(storage_path),
    ]
    return [p for p in problems if p]


def _check_storage(path: Path) -> str | None:
    if not path.is_dir():
        return f"--sbc-storage-path {path}: not an existing directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"--sbc-storage-path {path}: directory is not writable"
    return None
