"""Real pytest runs stopped at a known moment, shared by ``test_interrupts``,
``test_baseline_plugin`` and ``scripts/hostile_pytest.py`` (which puts ``tests/`` on
``sys.path`` to import it).

Every wait is on an event, bounded by a generous deadline that fails with the run's log:

- a stand-in tool announces that it has started by writing into a FIFO the caller holds
  open; the caller ``select``s on it together with a pidfd of the pytest process, which
  becomes readable if pytest ends first;
- processes that must end are watched through pidfds opened while they were known to be
  alive (no pid reuse; a zombie that a container's init never reaps counts as ended);
- concurrent runs meet at a barrier of two pipes: each writes one byte, then blocks reading
  until the caller, having read every run's byte, closes the other pipe.

- a save held up by a lock says so before it blocks (``sbcbench: waiting for LOCK``), and the
  caller reads the run's output pipe until that line comes."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

WAIT_S = 300.0  # for anything a loaded 2-core machine does in seconds
BARRIER_ENV = "SBCBENCH_TEST_BARRIER_FDS"

BLOCKING_TOOL = """
# Blocks like a long benchmark.  With UNLESS named and absent it prints READING and exits (a
# check before the run).  Otherwise: its pid and its child's, then more output than a pipe
# holds (so the announcement comes only once the caller reads: its Popen has returned and its
# clean-up is armed), then "started" into the FIFO, then it waits.  Its child blocks opening a
# FIFO nobody writes to: it waits for no time, only for its kill.
[ -n "{unless}" ] && [ ! -e "{unless}" ] && {{ echo "{reading}"; exit 0; }}
echo $$ > "{dir}/tool.pid"
[ -p "{dir}/hold" ] || mkfifo "{dir}/hold"
cat "{dir}/hold" > /dev/null &
echo $! > "{dir}/grandchild.pid"
yes sbcbench | head -c 200000
echo started > "{dir}/started"
wait
"""

def pytest_argv(*args: str) -> list[str]:
    """A whole ``python -m pytest`` process of this interpreter, without the cache plugin."""
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]


MEET = f'''
def meet():
    """Concurrent runs (the caller's barrier): this one is here; wait until every run is."""
    import os
    fds = os.environ.get("{BARRIER_ENV}")
    if fds:
        ready, go = (int(fd) for fd in fds.split(","))
        os.write(ready, b"+")
        os.read(go, 1)  # end of file once the caller has let every run go on
'''


def stand_in(folder: Path, name: str, before: str = "", unless: str = "",
             reading: str = "") -> Path:
    """An executable ``folder/name``: the shell lines ``before``, then :data:`BLOCKING_TOOL`
    (announcing through ``folder/started``, see :func:`announced`)."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + before
                    + BLOCKING_TOOL.format(dir=folder, unless=unless, reading=reading))
    path.chmod(0o755)
    return path


@dataclass(frozen=True)
class Interrupted:
    code: int
    output: str
    survivors: list[int]  # stand-in processes still running once the run ended


# Signals a test sends are handled as a user's would be, even when this suite runs with them
# ignored (``nohup``, or a background job of a script: ignoring is inherited across exec and
# the plugin leaves an ignored signal ignored, so the run would never see the signal).
DEFAULT_SIGNALS = """
import os, signal, sys
for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    signal.signal(signum, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])
"""


@contextmanager
def pytest_process(cwd: Path, argv: Sequence[str], env: dict[str, str], log: Path,
                   pass_fds: Sequence[int] = ()) -> Iterator[subprocess.Popen[bytes]]:
    """``argv`` running in ``cwd`` with its output in ``log`` and the default dispositions of
    the signals the tests send (see :data:`DEFAULT_SIGNALS`); killed if left running."""
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", DEFAULT_SIGNALS, *argv], cwd=cwd,
                                env={**os.environ, **env}, stdout=out,
                                stderr=subprocess.STDOUT, pass_fds=tuple(pass_fds))
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


@contextmanager
def announced(folder: Path) -> Iterator[int]:
    """The FIFO ``folder/started`` open for reading (so the tool's write never blocks)."""
    folder.mkdir(exist_ok=True)
    os.mkfifo(folder / "started")
    fd = os.open(folder / "started", os.O_RDONLY | os.O_NONBLOCK)
    try:
        yield fd
    finally:
        os.close(fd)


def wait_readable(fd: int, runs: Sequence[tuple[subprocess.Popen[bytes], Path]],
                  what: str) -> None:
    """Until ``fd`` is readable; an ``AssertionError`` with the log if one of the pytest
    ``runs`` (process, log) ends first or nothing comes within :data:`WAIT_S`."""
    ended = watch([proc.pid for proc, _ in runs])
    try:
        reaped = len(ended) < len(runs)  # already waited for: it has ended
        ready = [] if reaped else select.select([fd, *ended], [], [], WAIT_S)[0]
    finally:
        for pidfd in ended:
            os.close(pidfd)
    if fd in ready:
        return
    for proc, log in runs:
        if proc.poll() is not None:
            raise AssertionError(f"{what}: pytest ended first (rc {proc.returncode}):\n"
                                 + log.read_text())
    for proc, _ in runs:
        proc.kill()
    raise AssertionError(f"{what}: nothing within {WAIT_S:g} s:\n"
                         + "\n".join(log.read_text() for _, log in runs))


def watch(pids: Sequence[int]) -> dict[int, int]:
    """pidfd -> pid for those of ``pids`` still existing."""
    watched = {}
    for pid in pids:
        try:
            watched[os.pidfd_open(pid)] = pid
        except ProcessLookupError:
            pass
    return watched


def survivors(watched: dict[int, int], timeout: float = WAIT_S) -> list[int]:
    """The watched processes that have not ended within ``timeout`` (a SIGKILL takes effect
    asynchronously); closes every pidfd."""
    pending = dict(watched)
    deadline = time.monotonic() + timeout
    try:
        while pending and (left := deadline - time.monotonic()) > 0:
            for fd in select.select(list(pending), [], [], left)[0]:
                os.close(fd)
                del pending[fd]
        return sorted(pending.values())
    finally:
        for fd in pending:
            os.close(fd)


def interrupted_when_started(cwd: Path, argv: Sequence[str], env: dict[str, str], tools: Path,
                             signum: int, check: Callable[[], None] = lambda: None
                             ) -> Interrupted:
    """Run pytest until a stand-in in ``tools`` (see :func:`stand_in`) has started, call
    ``check``, send ``signum``, wait for the exit; then which of the stand-in's processes (the
    pids in ``tools/*.pid``) are left."""
    log = cwd / "run.log"
    with announced(tools) as started, pytest_process(cwd, argv, env, log) as proc:
        wait_readable(started, [(proc, log)], "the stand-in tool never started")
        said = os.read(started, 64)
        assert said.startswith(b"started"), f"the stand-in said {said!r}:\n{log.read_text()}"
        watched = watch([int(p.read_text()) for p in tools.glob("*.pid")])
        check()
        os.kill(proc.pid, signum)
        code = proc.wait(timeout=WAIT_S)
    return Interrupted(code, log.read_text(), survivors(watched))


WAITING = b"sbcbench: waiting for "  # what a save held up by another's lock says first


def read_until(proc: subprocess.Popen[bytes], out: bytearray, marker: bytes) -> None:
    """Read ``proc``'s output pipe into ``out`` until it holds ``marker``; an
    ``AssertionError`` with the output if the pipe ends first or nothing comes within
    :data:`WAIT_S`."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + WAIT_S
    while marker not in out:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            proc.kill()
            raise AssertionError(f"no {marker!r} within {WAIT_S:g} s:\n{out.decode()}")
        chunk = os.read(fd, 65536)
        if not chunk:
            raise AssertionError(f"pytest ended (rc {proc.wait()}) before {marker!r}:\n"
                                 + out.decode())
        out += chunk


def interrupted_during_save(cwd: Path, argv: Sequence[str], env: dict[str, str], lock: Path,
                            signum: int) -> Interrupted:
    """Hold ``lock`` (the baseline's) before pytest starts, so its save must wait; once it
    says it waits (:data:`WAITING`, just before blocking in ``flock``), send ``signum``, then
    release the lock and wait for the exit.  The signal lands while the save waits or a
    moment before it blocks: both are inside the save, which must end the same way."""
    held = os.open(lock, os.O_RDWR | os.O_CREAT)
    out = bytearray()
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = subprocess.Popen([sys.executable, "-c", DEFAULT_SIGNALS, *argv], cwd=cwd,
                                env={**os.environ, **env}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        try:
            read_until(proc, out, WAITING)
            os.kill(proc.pid, signum)
            if signum == signal.SIGKILL:
                proc.wait(timeout=WAIT_S)
            os.close(held)  # releases the lock: a caught signal lets the save complete
            held = -1
            rest, _ = proc.communicate(timeout=WAIT_S)
            out += rest
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    finally:
        if held >= 0:
            os.close(held)
    (cwd / "run.log").write_bytes(out)
    return Interrupted(proc.returncode, out.decode(), [])


def concurrent_runs(runs: Sequence[tuple[Path, Sequence[str], dict[str, str], Path]]
                    ) -> list[tuple[int, str]]:
    """Start every ``(cwd, argv, env, log)`` run at once; each calls ``meet()`` (:data:`MEET`)
    from its test, after loading the baseline and before saving; once every run has met, all
    go on.  Returns each run's exit code and output."""
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    env = {BARRIER_ENV: f"{ready_w},{go_r}"}
    try:
        with contextlib.ExitStack() as stack:
            started = [(stack.enter_context(pytest_process(cwd, argv, {**extra, **env}, log,
                                                           (ready_w, go_r))), log)
                       for cwd, argv, extra, log in runs]
            for fd in (ready_w, go_r):  # only the runs hold these now
                os.close(fd)
            ready_w = go_r = -1
            for _ in started:  # one byte per run
                wait_readable(ready_r, started, "the concurrent runs never all met")
                said = os.read(ready_r, 1)
                assert said == b"+", "every run ended before meeting:\n" + "\n".join(
                    log.read_text() for _, log in started)
            os.close(go_w)  # every run reads end of file: all go on
            go_w = -1
            codes = [proc.wait(timeout=WAIT_S) for proc, _ in started]
        return [(code, log.read_text()) for code, (_, log) in zip(codes, started, strict=True)]
    finally:
        for fd in (ready_r, ready_w, go_r, go_w):
            if fd >= 0:
                os.close(fd)
