"""What runs beside one workload's call phase: the idle gate, the sampler, the status line.

Imported only once a benchmark runs (it pulls in the sampler and psutil)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from ..measure.board_sampler import BoardSampler
from ..measure.emulator_host import EmulatorHost
from ..measure.sampler import Sampler
from ..model import Finding, Trace
from ..platform.executor import Executor
from ..platform.host import Host
from ..report.progress import StatusLine
from ..settings import Settings
from .quiet import Quiet


@dataclass
class Watch:
    """The sampler and status line of one test, and the idle gate's finding; ``local`` is the
    sampler on this machine (not a board's): the one that attributes load."""

    sampler: Sampler | BoardSampler
    status: StatusLine | None
    gate: Finding | None
    emulator: EmulatorHost | None = None  # this controller, when the board is its emulator
    local: Sampler | None = field(init=False)

    def __post_init__(self) -> None:
        self.local = self.sampler if isinstance(self.sampler, Sampler) else None

    def stop(self, line_end: int | None) -> tuple[Trace | None, list[Finding]]:
        """Stop sampling and erase the status line (the cursor goes back to ``line_end``):
        the trace (None when the board sampler could not run: its reason is in
        ``unavailable``) and the watch's :meth:`findings`."""
        trace = None if "sampler" in self.sampler.unavailable else self.sampler.stop()
        if self.status is not None:
            self.status.close(line_end)
        return trace, self.findings()

    def findings(self) -> list[Finding]:
        """The idle gate's finding, and what the emulator's host did during the test (steal
        time, other work) when the board is an emulator on this controller."""
        found = [self.gate] if self.gate is not None else []
        host = self.emulator.stop() if self.emulator is not None else None
        if host is not None:
            from ..judge.validity import emulator_host

            found += emulator_host(host.steal_pct, host.other_cpus, host.seconds, host.who)
        return found


def start(settings: Settings, label: str, terminal: TextIO | None, host: Host,
          clock: Callable[[], float], quiet: Quiet | None = None,
          remote: Executor | None = None, emulator_host: Host | None = None) -> Watch:
    """The idle gate (``quiet``'s: at most ``--sbc-idle-wait`` seconds, never on a captured
    tree, whose counters never move: the run says so once, :data:`.preflight.REPLAY_NOTE`),
    then a sampler reading ``host`` (the session's) timed by ``clock``;
    on a ``remote`` board the sh sampler runs there instead (no idle gate yet), and when the
    board is an emulator on this controller, ``emulator_host`` (this machine) is read at the
    start and the end of the test."""
    status = StatusLine(terminal, label, live=True) if terminal is not None else None
    if remote is not None:
        board = BoardSampler(remote, settings.interval)
        board.start()
        meter = EmulatorHost(emulator_host) if emulator_host is not None else None
        return Watch(board, status, None, meter)
    gate = (quiet or Quiet([])).before_test(settings, host)
    sampler = Sampler(settings.sysroot, settings.interval,
                      on_reading=status.update if status else None, host=host, clock=clock)
    sampler.start()
    return Watch(sampler, status, gate)
