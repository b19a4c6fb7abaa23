"""Timed clean builds: warm-up untimed, then each run after the clean command and ``sync``.

Per run: wall time, user and system CPU of the whole build tree (``getrusage`` of the reaped
children), and the tree's peak resident memory (sampled through the host; GNU ``time -v``
reports zeros on some boards).  Every build writes to a log kept in the cache; a failed build
raises with the command and the log's last 30 lines."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from ..errors import BuildError
from ..platform.executor import Completed, Executor, default_executor
from ..platform.host import ChildTimes, Host, default_host
from .sanity import checked
from .tools import run_tool, which

LOG_TAIL = 30
BUILD_TIMEOUT_S = 6 * 3600.0  # a build that runs longer is stuck, not slow


@dataclass(frozen=True)
class BuildRun:
    wall_s: float
    user_s: float
    sys_s: float
    peak_tree_rss_bytes: int | None  # None: the build ended before a reading saw it
    max_process_rss_bytes: int

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


class PeakMemory:
    """Read the summed RSS of this process's child processes every interval until stopped.

    The build is the only child while it runs, so this is the build tree's memory.  ``peak``
    stays ``None`` when no reading saw the tree (a build shorter than the interval, or a
    sampling thread that a loaded machine did not schedule in time): unknown, never 0."""

    def __init__(self, host: Host, interval: float = 0.1) -> None:
        self.host = host
        self.peak: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="sbcbench-rss")
        self.interval = interval

    def _run(self) -> None:
        while not self._stop.is_set():
            total = self.host.descendants_rss(self.host.self_pid())
            if total:
                self.peak = max(self.peak or 0, total)
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


def _children_times(host: Host, argv: Sequence[str]) -> ChildTimes:
    times = host.children_times()
    if times is None:
        raise BuildError(argv, None, "", "this host cannot account the CPU time of a build")
    return times


def run_logged(argv: Sequence[str], cwd: Path, log: Path, env: Mapping[str, str] | None,
               what: str, clock: Callable[[], float] = time.perf_counter, *,
               executor: Executor | None = None, host: Host | None = None,
               timeout: float = BUILD_TIMEOUT_S) -> BuildRun:
    """Run one build step, append its output (stdout, then stderr) to ``log``, measure it.
    A wall time that cannot be real (zero, negative, NaN, absurd) is a :class:`..errors.ToolError`.

    ``executor`` and ``host`` default to this machine; the session passes its own."""
    runner = executor if executor is not None else default_executor()
    host = host if host is not None else default_host()
    before = _children_times(host, argv)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"\n$ {' '.join(argv)}\n")
        handle.flush()
        start = clock()
        try:
            with PeakMemory(host) as memory:
                done = runner.run(list(argv), timeout, env=env, cwd=str(cwd))
        except FileNotFoundError as exc:
            raise BuildError(argv, None, str(exc), f"{what}: executable not found") from exc
        wall = clock() - start
        handle.write(done.stdout + done.stderr)
    after = _children_times(host, argv)
    if done.timed_out:
        raise BuildError(argv, None, tail(log), f"{what} timed out after {timeout:.0f} s "
                                                f"(log: {log})")
    if done.returncode != 0:
        raise BuildError(argv, done.returncode, tail(log), f"{what} failed (log: {log})")
    checked(wall, "s", argv, f"{what} wall time", output=tail(log), returncode=done.returncode)
    return BuildRun(wall, after.user_s - before.user_s, after.sys_s - before.sys_s,
                    memory.peak, after.max_rss_bytes)


def with_jobs(build: Sequence[str], jobs: int | None) -> list[str]:
    """``-j N`` for the build tools that take it (cargo, make, ninja)."""
    argv = list(build)
    if jobs is not None and Path(argv[0]).name in ("cargo", "make", "ninja", "gmake"):
        argv += ["-j", str(jobs)]
    return argv


def toolchain(build: Sequence[str], *, executor: Executor | None = None) -> str:
    """Versions of what the build uses: ``rustc -V`` and ``cargo -V``, or the C compiler's."""
    tool = Path(build[0]).name
    commands = [["rustc", "-V"], ["cargo", "-V"]] if tool == "cargo" else \
        [[os.environ.get("CC", "cc"), "--version"]]
    versions = []
    for argv in commands:
        if which(argv[0], executor=executor) is None:
            versions.append(f"{argv[0]}: not found")
            continue
        banner = run_tool(argv, 60, f"{argv[0]} version", executor=executor)
        versions.append(banner.splitlines()[0].strip())
    return "; ".join(versions)


Prepare = Callable[[], None]


def prepare_clean(clean: Sequence[str], cwd: Path, log: Path, env: Mapping[str, str] | None,
                  drop_caches: Callable[[], None] | None, *, executor: Executor | None = None,
                  host: Host | None = None) -> Prepare:
    """The step before each timed run: the clean command, ``sync``, optional cache drop."""
    def prepare() -> None:
        run_logged(clean, cwd, log, env, "clean", executor=executor, host=host)
        os.sync()
        if drop_caches is not None:
            drop_caches()
    return prepare


# Builds on a remote board ---------------------------------------------------------------------

@dataclass(frozen=True)
class BoardBuildRun:
    """One build timed on the board (:mod:`.board_timing`): wall time from the board's uptime
    clock and the build tree's user and system CPU from the shell's ``times``, never the
    controller's round trip.  The build tree's memory is not sampled on a board."""

    wall_s: float
    user_s: float
    sys_s: float
    timed_on: str  # the executor: labgrid:main
    timing: str = "board: uptime clock and sh times (sbcbench-time v1)"

    def as_dict(self) -> dict[str, float | str]:
        return asdict(self)


def _board_step(argv: Sequence[str], cwd: str, log: Path, env: Mapping[str, str] | None,
                what: str, executor: Executor, timeout: float) -> Completed:
    """Run ``argv`` on the board in ``cwd``; log stdout and stderr; raise when it timed out."""
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"\n$ {' '.join(argv)}    # on {executor.name} in {cwd}\n")
        handle.flush()
        done = executor.run(list(argv), timeout, env=env, cwd=cwd)
        handle.write(done.stdout + done.stderr)
    if done.timed_out:
        raise BuildError(argv, None, tail(log), f"{what} on {executor.name} timed out after "
                                                f"{timeout:.0f} s (log: {log})")
    return done


def _check_exit(argv: Sequence[str], code: int, log: Path, what: str, name: str) -> None:
    if code == 127:
        raise BuildError(argv, code, tail(log), f"{what}: {argv[0]} not found on {name}")
    if code != 0:
        raise BuildError(argv, code, tail(log), f"{what} on {name} failed (log: {log})")


def run_on_board(argv: Sequence[str], cwd: str, log: Path, env: Mapping[str, str] | None,
                 what: str, *, executor: Executor, timeout: float = BUILD_TIMEOUT_S) -> None:
    """An untimed build step on the board (warm-up build, clean), logged like a local one."""
    done = _board_step(argv, cwd, log, env, what, executor, timeout)
    _check_exit(argv, done.returncode, log, what, executor.name)


def timed_on_board(argv: Sequence[str], cwd: str, log: Path, env: Mapping[str, str] | None,
                   what: str, *, executor: Executor,
                   timeout: float = BUILD_TIMEOUT_S) -> BoardBuildRun:
    """One build on the board wrapped in :func:`.board_timing.timed_argv`; its report (taken
    off the stderr) gives wall and CPU time.  A missing or broken report is a ParseError."""
    from .board_timing import parse_timing, timed_argv

    done = _board_step(timed_argv(argv), cwd, log, env, what, executor, timeout)
    timing, _ = parse_timing(done.stderr)
    _check_exit(argv, timing.returncode, log, what, executor.name)
    checked(timing.wall_s, "s", argv, f"{what} wall time on {executor.name}", output=tail(log),
            returncode=timing.returncode)
    return BoardBuildRun(timing.wall_s, timing.user_s, timing.sys_s, executor.name)


def prepare_clean_on_board(clean: Sequence[str], cwd: str, log: Path,
                           env: Mapping[str, str] | None, *, executor: Executor) -> Prepare:
    """The step before each timed run on the board: the clean command, then the board's
    ``sync`` (the controller's would flush nothing there)."""
    def prepare() -> None:
        run_on_board(clean, cwd, log, env, "clean", executor=executor)
        run_on_board(["sync"], cwd, log, None, "sync", executor=executor, timeout=600)
    return prepare
