"""Timed clean builds: warm-up untimed, then each run after the clean command and ``sync``.

Per run: wall time, user and system CPU of the whole build tree (``getrusage`` of the reaped
children), and the tree's peak resident memory (psutil sampling; GNU ``time -v`` reports zeros
on some boards).  Every build writes to a log kept in the cache; a failed build raises with the
command and the log's last 30 lines."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import psutil

from ..errors import BuildError
from .cputime import tree
from .sanity import checked
from .tools import run_tool

LOG_TAIL = 30


@dataclass(frozen=True)
class BuildRun:
    wall_s: float
    user_s: float
    sys_s: float
    peak_tree_rss_bytes: int
    max_process_rss_bytes: int

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


class PeakMemory:
    """Sample the summed RSS of a process tree until stopped."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="sbcbench-rss")
        self.interval = interval

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            for proc in tree(self.root):
                try:
                    total += proc.memory_info().rss
                except psutil.Error:
                    continue
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def tail(log: Path, lines: int = LOG_TAIL) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def run_logged(argv: Sequence[str], cwd: Path, log: Path, env: Mapping[str, str] | None,
               what: str, clock: Callable[[], float] = time.perf_counter) -> BuildRun:
    """Run one build step with its output appended to ``log``; measure it.  A wall time that
    cannot be real (zero, negative, NaN, absurd) is a :class:`ToolError` naming ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"\n$ {' '.join(argv)}\n")
        handle.flush()
        start = clock()
        try:
            proc = subprocess.Popen(list(argv), cwd=cwd, stdout=handle, stderr=subprocess.STDOUT,
                                    env=None if env is None else {**os.environ, **env})
        except FileNotFoundError as exc:
            raise BuildError(argv, None, str(exc), f"{what}: executable not found") from exc
        with PeakMemory(proc.pid) as memory:
            returncode = proc.wait()
        wall = clock() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if returncode != 0:
        raise BuildError(argv, returncode, tail(log), f"{what} failed (log: {log})")
    checked(wall, "s", argv, f"{what} wall time", output=tail(log), returncode=returncode)
    return BuildRun(wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime,
                    memory.peak, after.ru_maxrss * 1024)


def with_jobs(build: Sequence[str], jobs: int | None) -> list[str]:
    """``-j N`` for the build tools that take it (cargo, make, ninja)."""
    argv = list(build)
    if jobs is not None and Path(argv[0]).name in ("cargo", "make", "ninja", "gmake"):
        argv += ["-j", str(jobs)]
    return argv


def toolchain(build: Sequence[str]) -> str:
    """Versions of what the build uses: ``rustc -V`` and ``cargo -V``, or the C compiler's."""
    tool = Path(build[0]).name
    commands = [["rustc", "-V"], ["cargo", "-V"]] if tool == "cargo" else \
        [[os.environ.get("CC", "cc"), "--version"]]
    versions = []
    for argv in commands:
        if shutil.which(argv[0]) is None:
            versions.append(f"{argv[0]}: not found")
            continue
        versions.append(run_tool(argv, 60, f"{argv[0]} version").splitlines()[0].strip())
    return "; ".join(versions)


Prepare = Callable[[], None]


def prepare_clean(clean: Sequence[str], cwd: Path, log: Path, env: Mapping[str, str] | None,
                  drop_caches: Callable[[], None] | None) -> Prepare:
    """The step before each timed run: the clean command, ``sync``, optional cache drop."""
    def prepare() -> None:
        run_logged(clean, cwd, log, env, "clean")
        os.sync()
        if drop_caches is not None:
            drop_caches()
    return prepare
