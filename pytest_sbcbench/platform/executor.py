"""The one seam through which every command runs and every board file is read.

A workload never calls :mod:`subprocess` itself: it asks the session's :class:`Executor`.
:class:`LocalExecutor` runs on this machine; a remote executor (labgrid) runs on a board and
moves files with the board's file transfer.  Commands are argument vectors, never shell
strings; every call carries an explicit timeout.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .proctree import STARTED


@dataclass(frozen=True)
class Completed:
    """A finished command: what it was, how it ended, what it printed."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


@runtime_checkable
class Spawned(Protocol):
    """A long-running command started with :meth:`Executor.spawn` (a board-side sampler)."""

    def lines(self) -> Iterator[str]:
        """Lines of standard output as they arrive; ends when the command ends."""
        ...

    def stop(self) -> None:
        """End the command (and everything it started); idempotent."""
        ...


@runtime_checkable
class Executor(Protocol):
    """Where commands run and board files are read: this machine, or a board."""

    @property
    def name(self) -> str:
        """``local``, or the remote target's name (``labgrid:star64-1``)."""
        ...

    @property
    def is_local(self) -> bool:
        """True when commands run on the machine pytest runs on."""
        ...

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        """Run ``argv`` to completion (killed after ``timeout`` seconds, then ``timed_out``).

        ``env`` adds to (or overrides) the target's environment; it never replaces it."""
        ...

    def read(self, path: str) -> bytes | None:
        """The bytes of a file on the target, or ``None`` when it cannot be read."""
        ...

    def put(self, local: Path, remote: str) -> None:
        """Copy a local file to the target."""
        ...

    def get(self, remote: str, local: Path) -> None:
        """Copy a file from the target."""
        ...

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> Spawned:
        """Start ``argv`` in the background and stream its output lines."""
        ...


# The local implementation ------------------------------------------------------------------

KILL_WAIT_S = 5.0
PIPE_GRACE_S = 0.5  # for the killed group to let go of the pipes before they are searched


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """SIGKILL the process group ``proc`` leads (the child and everything it started that
    stayed in its group: a shell wrapper's grandchildren included).

    Called before ``proc`` is reaped, so its pid (the group id) cannot have been reused."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _start(args: tuple[str, ...], started: list[subprocess.Popen[str]],
           **options: Any) -> subprocess.Popen[str]:
    """``Popen(args, start_new_session=True, **options)``, appended to ``started`` before any
    interrupt can be acted on, so the caller (whose ``try`` began before this call) always
    finds the command it must kill: a signal that arrives while it starts (after the fork,
    before ``Popen`` returns) is held, the started command's group killed, and the signal then
    delivered as it would have been."""
    from .interrupts import deferred

    with deferred() as held:
        proc = subprocess.Popen(args, text=True, errors="replace", start_new_session=True,
                                **options)
        started.append(proc)
    if held.received:
        with proc:  # closes its pipes and reaps it
            _kill_group(proc)
        for signum in held.received:
            signal.raise_signal(signum)
    STARTED.add(proc.pid)  # the sampler's tree finds it without listing every process
    return proc


def _end(started: list[subprocess.Popen[str]]) -> None:
    """Kill the group of a started command that is not reaped yet (so its pid is still its
    group's id), reap it and close its pipes: whatever ended the caller, nothing it started
    outlives it."""
    for proc in started:
        if proc.returncode is None:
            _kill_group(proc)
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _environ(env: Mapping[str, str] | None) -> dict[str, str] | None:
    return None if env is None else {**os.environ, **env}


class LocalExecutor:
    """Commands run on this machine, each in its own session (process group).

    ``env`` adds to (or overrides) this process's environment.  A timeout, Ctrl-C or any
    other exception while a command runs kills the command's whole process group, and so does
    its exit (with whatever left the group but still holds its output), so no grandchild
    outlives it.  An executable that does not exist raises
    :class:`FileNotFoundError` (a remote executor reports exit status 127 instead)."""

    name = "local"
    is_local = True

    def run(self, argv: Sequence[str], timeout: float, env: Mapping[str, str] | None = None,
            cwd: str | None = None) -> Completed:
        """Run ``argv`` to completion; ``timed_out`` when it was killed after ``timeout``.

        The command has completed when it exits, not when its output pipes close: a child it
        left running (``tool &``, a daemon) that still holds them is killed with the rest of
        the group, or found by the pipe it holds (:func:`.host.pipe_holders`) when it left
        the group, and the command's own exit status is reported, never "timed out"."""
        args = tuple(str(a) for a in argv)
        started: list[subprocess.Popen[str]] = []
        try:  # begun before the command starts: an interrupt at any moment kills its group
            proc = _start(args, started, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=_environ(env), cwd=cwd)
            readers = _Readers(proc)
            ended = _exited(proc, timeout)
            _kill_group(proc)  # before reaping: its pid is still the group's id
            out, err = readers.collect(proc)
            proc.wait()
        finally:
            _end(started)  # on an interrupt or error: the group killed, reaped, pipes closed
        return Completed(args, proc.returncode, out, err, timed_out=not ended)

    def read(self, path: str) -> bytes | None:
        try:
            return Path(path).read_bytes()
        except OSError:
            return None

    def put(self, local: Path, remote: str) -> None:
        shutil.copyfile(local, remote)

    def get(self, remote: str, local: Path) -> None:
        shutil.copyfile(remote, local)

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> LocalHandle:
        """Start ``argv`` in its own process group; its stdout and stderr lines stream
        through :meth:`LocalHandle.lines`."""
        started: list[subprocess.Popen[str]] = []
        try:
            return LocalHandle(_start(tuple(str(a) for a in argv), started,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, bufsize=1, env=_environ(env)))
        except BaseException:
            _end(started)
            raise


def _exited(proc: subprocess.Popen[str], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for ``proc`` to exit, without reaping it (``WNOWAIT``:
    its pid stays its group's id until the group is killed).  False when it is still running.

    A thread blocks in ``waitid`` (no polling while a long build runs); Ctrl-C still ends the
    wait, and the thread ends when the command does (reaped or killed)."""
    ended = threading.Event()

    def watch() -> None:
        with contextlib.suppress(ChildProcessError):  # reaped already (Ctrl-C path)
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        ended.set()
    threading.Thread(target=watch, daemon=True, name="sbcbench-waitid").start()
    return ended.wait(timeout)


class _Readers:
    """Both output pipes read to their end by two threads, each on its own duplicate of the
    pipe (closing the command's pipes never pulls a descriptor from under a blocked read)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None and proc.stderr is not None
        self.encoding = str(getattr(proc.stdout, "encoding", None) or "utf-8")  # Popen's text
        self.inode = os.fstat(proc.stdout.fileno()).st_ino, os.fstat(proc.stderr.fileno()).st_ino
        self.chunks: tuple[list[bytes], list[bytes]] = ([], [])
        self.threads = [threading.Thread(target=self._read, args=(os.dup(f.fileno()), chunks),
                                         daemon=True, name="sbcbench-pipe")
                        for f, chunks in zip((proc.stdout, proc.stderr), self.chunks,
                                             strict=True)]
        for thread in self.threads:
            thread.start()

    @staticmethod
    def _read(fd: int, chunks: list[bytes]) -> None:
        try:
            while data := os.read(fd, 65536):
                chunks.append(data)
        finally:
            os.close(fd)

    def _join(self, timeout: float) -> bool:
        """Whether both pipes ended within ``timeout`` seconds (one deadline for both)."""
        done = threading.Event()

        def joined() -> None:
            for thread in self.threads:
                thread.join()
            done.set()
        threading.Thread(target=joined, daemon=True, name="sbcbench-pipe-join").start()
        return done.wait(timeout)

    def collect(self, proc: subprocess.Popen[str]) -> tuple[str, str]:
        """What was printed, once every holder of the pipes is gone: the group was killed
        already; what still holds a pipe after :data:`PIPE_GRACE_S` left the group and is
        killed by the pipe it holds.  Text as ``Popen(text=True, errors="replace")`` gives."""
        if not self._join(PIPE_GRACE_S):
            from .host import pipe_holders

            for pid in pipe_holders(set(self.inode)):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            self._join(KILL_WAIT_S)
        out, err = (b"".join(c).decode(self.encoding, "replace").replace("\r\n", "\n")
                    .replace("\r", "\n") for c in self.chunks)
        return out, err


class LocalHandle:
    """A background command on this machine (see :meth:`LocalExecutor.spawn`)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self._proc = proc
        self._stopped = False

    @property
    def pid(self) -> int:
        return self._proc.pid

    def lines(self) -> Iterator[str]:
        stream = self._proc.stdout
        if stream is None:
            return
        for line in stream:
            yield line.rstrip("\n")

    def wait(self, timeout: float | None = None) -> int:
        """The exit status once the command has ended (``TimeoutExpired`` after ``timeout``)."""
        return self._proc.wait(timeout)

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self._proc.returncode is None:  # not reaped yet, so its group id is still its own
            _kill_group(self._proc)
        self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()


LOCAL = LocalExecutor()


def default_executor() -> LocalExecutor:
    """The executor measure functions use when the caller (the session) passes none."""
    return LOCAL
