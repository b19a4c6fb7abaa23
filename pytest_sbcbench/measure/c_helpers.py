"""Tiny C helpers compiled on first use with the system compiler and cached by content."""

from __future__ import annotations

import hashlib
import os
import shutil
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


def compiled(cache: Path, name: str, source: str, flags: tuple[str, ...] = ("-O2",), *,
             executor: Executor | None = None) -> Path:
    """The binary for ``source``, built once per source, flags and compiler (with
    ``executor``, default this machine; a remote executor needs the cache on the board)."""
    cc = compiler()
    if cc is None:
        raise ToolError(["cc"], None, "", f"no C compiler for {name}: install one "
                        "(apt-get install gcc) or set CC")
    digest = hashlib.sha256("\0".join([source, cc, *flags]).encode()).hexdigest()[:16]
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
