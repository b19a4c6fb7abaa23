"""Signals while the plugin is active: every way of stopping a run takes pytest's Ctrl-C path.

By default SIGTERM, SIGHUP and SIGQUIT end Python at once: no results file, the tool a workload
was running (in its own process group) keeps running, governors stay at ``performance``.  While
the plugin is active, :class:`Interrupts` turns them into :class:`KeyboardInterrupt` in the main
thread, so pytest's interrupted path runs: results are written, the baseline is not saved, the
executor kills the tool's process group, the governors are restored.

:func:`deferred` protects the few writes that must complete or not start (the results file, a
baseline save): a signal arriving then is noted and acted on afterwards; a second one aborts at
once (the atomic write then leaves the old file)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

TERMINATING: tuple[int, ...] = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
Handler = Callable[[int, FrameType | None], Any] | int | None


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class Interrupts:
    """SIGTERM, SIGHUP and SIGQUIT raise :class:`KeyboardInterrupt` in the main thread between
    :meth:`install` and :meth:`uninstall` (which puts the previous handlers back).  A signal
    the process ignores (``nohup``) stays ignored."""

    def __init__(self) -> None:
        self.previous: dict[int, Handler] = {}

    def install(self) -> None:
        if self.previous or not _main_thread():
            return
        for signum in TERMINATING:
            current = signal.getsignal(signum)
            if current is signal.SIG_IGN:
                continue
            self.previous[signum] = current
            signal.signal(signum, self._handle)

    @staticmethod
    def _handle(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt(signal_name(signum))

    def uninstall(self) -> None:
        if not _main_thread():
            return
        for signum, handler in self.previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self.previous.clear()


@dataclass
class Deferred:
    """What :func:`deferred` saw: the signals that arrived during the protected section."""

    received: list[int] = field(default_factory=list)

    @property
    def names(self) -> str:
        return ", ".join(signal_name(s) for s in self.received)


@contextmanager
def deferred() -> Iterator[Deferred]:
    """Hold SIGINT, SIGTERM, SIGHUP and SIGQUIT during the block (main thread only): the first
    is recorded in the yielded :class:`Deferred`, a second raises :class:`KeyboardInterrupt`
    at once (the user insists).  Previous handlers are put back on exit."""
    seen = Deferred()
    if not _main_thread():
        yield seen
        return

    def hold(signum: int, frame: FrameType | None) -> None:
        seen.received.append(signum)
        if len(seen.received) > 1:
            raise KeyboardInterrupt(signal_name(signum))

    previous: dict[int, Handler] = {}
    for signum in (int(signal.SIGINT), *TERMINATING):
        current = signal.getsignal(signum)
        if current is signal.SIG_IGN:
            continue
        previous[signum] = current
        signal.signal(signum, hold)
    try:
        yield seen
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
