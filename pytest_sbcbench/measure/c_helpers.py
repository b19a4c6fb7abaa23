"""Tiny C helpers compiled with the system compiler, once per process and per content.

A helper measures (the STREAM kernel) or checks the clock, so its binary is as much a part of
the result as the package's code.  The one rule for caches (derived from verified bytes and
bound to their digest) applies: a binary is named by the digest of what builds it (source,
compiler and its version, flags), and only a binary this process compiled from that source,
still at the inode, size and time it was written at, is run; one left in the user's cache by
an earlier process (which anyone who can write that directory could have replaced) is built
again.  On a remote board the board's own cache is used (:func:`compiled_on_board`): the board
is what is measured, and what runs there is as trusted as its kernel."""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolError
from ..platform.executor import Executor
from .tools import run_tool


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


@dataclass(frozen=True)
class Compiled:
    """A compiled helper and what built it: the compiler, its version and the flags belong in
    the identity of every number the helper produces (another compiler is another program)."""

    path: Path
    compiler: str
    compiler_version: str
    flags: tuple[str, ...]


def compiler_version(cc: str, executor: Executor | None = None) -> str:
    """The first line of ``cc --version``, e.g. ``cc (Debian 12.2.0-14) 12.2.0``."""
    return run_tool([cc, "--version"], 30, f"{cc} --version",
                    executor=executor).splitlines()[0].strip()


def compiled_with_identity(cache: Path, name: str, source: str,
                           flags: tuple[str, ...] = ("-O2",), *,
                           executor: Executor | None = None) -> Compiled:
    """:func:`compiled`, with the compiler, its version and the flags that built it (the
    version is part of the cache key: an upgraded compiler builds a new binary, so the identity
    never names a compiler that did not build it)."""
    cc = compiler()
    version = compiler_version(cc, executor) if cc is not None else ""
    binary = compiled(cache, name, source, flags, version=version, executor=executor)
    return Compiled(binary, Path(cc or "cc").name, version, flags)


def compiled(cache: Path, name: str, source: str, flags: tuple[str, ...] = ("-O2",), *,
             version: str = "", executor: Executor | None = None) -> Path:
    """The binary for ``source``, built once per process, source, flags and compiler (and
    compiler ``version``, when given; with ``executor``, default this machine: a remote
    executor needs the cache on the board)."""
    cc = compiler()
    if cc is None:
        raise ToolError(["cc"], None, "", f"no C compiler for {name}: install one "
                        "(apt-get install gcc) or set CC")
    key = [source, cc, *flags, *([version] if version else [])]
    digest = hashlib.sha256("\0".join(key).encode()).hexdigest()[:16]
    binary = cache / f"{name}-{digest}"
    known = _BUILT_HERE.get(str(binary))
    if known is not None and known == _identity(binary):
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    src = cache / f"{name}-{digest}.c"
    src.write_text(source)
    tmp = cache / f".{name}-{digest}.{os.getpid()}"
    run_tool([cc, *flags, "-o", str(tmp), str(src)], 120, f"compiling {name}",
             expect_output=False, executor=executor)
    os.replace(tmp, binary)  # atomic: a half-written binary is never run
    written = _identity(binary)
    if written is not None:
        _BUILT_HERE[str(binary)] = written
    return binary


# The binaries this process compiled, by path, with the identity each was written at
_BUILT_HERE: dict[str, tuple[int, int, int]] = {}


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


# On a remote board: the board's compiler, the board's cache -------------------------------

BOARD_COMPILERS = ("cc", "gcc", "clang")
BOARD_CACHE = ("sh", "-c", 'd="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pytest-sbcbench"; '
               'mkdir -p -- "$d" && printf "%s\\n" "$d"', "sbcbench-cache")
BOARD_COMPILE_TIMEOUT_S = 600.0


def board_compiler(executor: Executor) -> str | None:
    """The path of the board's C compiler (``cc``, else ``gcc``, else ``clang`` on the PATH
    where ``executor`` runs commands), or ``None``.  The controller's ``CC`` names a
    controller program and is not consulted."""
    from .tools import which

    for name in BOARD_COMPILERS:
        found = which(name, executor=executor)
        if found is not None:
            return found
    return None


def board_cache(executor: Executor) -> str:
    """The board's cache directory (its user's ``$XDG_CACHE_HOME/pytest-sbcbench``, made
    when missing): compiled helpers live on the board that runs them."""
    out = run_tool(BOARD_CACHE, 30, "making the board's cache directory", executor=executor)
    path = out.strip().splitlines()[-1]
    if not path.startswith("/"):
        raise ToolError(BOARD_CACHE, 0, out, f"the board's cache directory {path!r} is not "
                                             "an absolute path")
    return path


def compiled_on_board(executor: Executor, name: str, source: str,
                      flags: tuple[str, ...] = ("-O2",)) -> Compiled:
    """``source`` built on the board with the board's compiler, once per source, flags,
    compiler and compiler version (the board's cache, as :func:`compiled` keeps this
    machine's).  The source is copied with the executor's file transfer; the compiler runs
    there as an argument vector; the binary is moved into place only when complete.
    :attr:`Compiled.path` is the binary's path on the board."""
    import tempfile

    cc = board_compiler(executor)
    if cc is None:
        raise ToolError(["cc"], None, "", f"no C compiler on the board ({executor.name}) for "
                        f"{name}: install one there (cc, gcc or clang on its PATH)")
    version = compiler_version(cc, executor)
    key = [source, cc, *flags, version]
    digest = hashlib.sha256("\0".join(key).encode()).hexdigest()[:16]
    cache = board_cache(executor)
    binary = f"{cache}/{name}-{digest}"
    compiled_ = Compiled(Path(binary), Path(cc).name, version, flags)
    if executor.run(["test", "-x", binary], 30).returncode == 0:
        return compiled_
    src, tmp = f"{binary}.c", f"{cache}/.{name}-{digest}.{os.getpid()}"
    with tempfile.TemporaryDirectory(prefix="sbcbench-src-") as local:
        local_src = Path(local) / f"{name}.c"
        local_src.write_text(source)
        executor.put(local_src, src)
    try:
        run_tool([cc, *flags, "-o", tmp, src], BOARD_COMPILE_TIMEOUT_S,
                 f"compiling {name} on the board", expect_output=False, executor=executor)
        run_tool(["mv", "-f", "--", tmp, binary], 30, f"caching {name} on the board",
                 expect_output=False, executor=executor)
    finally:
        executor.run(["rm", "-f", "--", tmp], 30)
    return compiled_
