"""Running a call without root's override of permission bits, for the tests that check what
an unprivileged user meets (a read-only or unreadable directory).  Shared by ``test_fileio``
and ``test_loaders``; imported as ``from nobody import ...`` (``tests/`` is on ``sys.path``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

NOBODY = 65534


@contextmanager
def reachable_dir(prefix: str) -> Iterator[Path]:
    """A temporary directory that ``nobody`` can reach (pytest's ``tmp_path`` is private to
    root); directories a test locked (mode 000 or 555) are opened again before removal."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for child in (path, *path.rglob("*")):
            if child.is_dir() and not child.is_symlink():
                child.chmod(0o755)
        shutil.rmtree(path)


def as_nobody(call: Callable[[], str]) -> str:
    """``call()``'s text, computed as ``nobody`` when the tests run as root (in a forked child
    that drops its groups and ids first), else directly.  A child that fails is an
    ``AssertionError`` carrying its exception, never a second pytest running in the fork."""
    if os.geteuid() != 0:
        return call()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            out, code = call(), 0
        except BaseException as exc:  # reported to the parent, whatever it is
            out = f"{type(exc).__name__}: {exc}"
        try:
            with os.fdopen(write, "wb") as pipe:
                pipe.write(out.encode())
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        out = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, f"as nobody: {out}"
    return out
