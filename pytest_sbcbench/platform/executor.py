"""The one seam through which every command runs and every board file is read.

A workload never calls :mod:`subprocess` itself: it asks the session's :class:`Executor`.
:class:`LocalExecutor` runs on this machine; a remote executor (labgrid) runs on a board and
moves files with the board's file transfer.  Commands are argument vectors, never shell
strings; every call carries an explicit timeout.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class Completed:
    """A finished command: what it was, how it ended, what it printed."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


@runtime_checkable
class Handle(Protocol):
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
        """Run ``argv`` to completion (killed after ``timeout`` seconds, then ``timed_out``)."""
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

    def spawn(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> Handle:
        """Start ``argv`` in the background and stream its output lines."""
        ...
