"""Tiny C helpers compiled on first use with the system compiler and cached by content."""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolError
from ..platform.executor import Executor
from .tools import run_tool


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/pytest-sbcbench`` (``~/.cache/pytest-sbcbench``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-sbcbench"


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
    """The binary for ``source``, built once per source, flags and compiler (and compiler
    ``version``, when given; with ``executor``, default this machine: a remote executor needs
    the cache on the board)."""
    cc = compiler()
    if cc is None:
        raise ToolError(["cc"], None, "", f"no C compiler for {name}: install one "
                        "(apt-get install gcc) or set CC")
    key = [source, cc, *flags, *([version] if version else [])]
    digest = hashlib.sha256("\0".join(key).encode()).hexdigest()[:16]
    binary = cache / f"{name}-{digest}"
    if binary.exists():
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    src = cache / f"{name}-{digest}.c"
    src.write_text(source)
    tmp = cache / f".{name}-{digest}.{os.getpid()}"
    run_tool([cc, *flags, "-o", str(tmp), str(src)], 120, f"compiling {name}",
             expect_output=False, executor=executor)
    os.replace(tmp, binary)  # atomic: a half-written binary is never cached
    return binary
