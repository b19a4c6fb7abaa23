"""What runs beside one workload's call phase: the idle gate, the sampler, the status line.

Imported only once a benchmark runs (it pulls in the sampler and psutil)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from .judge.validity import Finding
from .measure.idle import wait_for_idle
from .measure.sampler import Sampler, Trace
from .report.progress import StatusLine
from .settings import Settings


@dataclass
class Watch:
    """The sampler and status line of one test, and the idle gate's finding."""

    sampler: Sampler
    status: StatusLine | None
    gate: Finding | None

    def stop(self, line_end: int | None) -> Trace:
        """Stop sampling and erase the status line (the cursor goes back to ``line_end``)."""
        trace = self.sampler.stop()
        if self.status is not None:
            self.status.close(line_end)
        return trace


def idle_gate(settings: Settings) -> Finding | None:
    """Wait (at most ``--sbc-idle-wait`` seconds) for background load to settle."""
    if settings.idle_wait <= 0:
        return None
    _, finding = wait_for_idle(settings.idle_wait)
    return finding


def start(settings: Settings, label: str, terminal: TextIO | None) -> Watch:
    gate = idle_gate(settings)
    status = StatusLine(terminal, label, live=True) if terminal is not None else None
    sampler = Sampler(settings.sysroot, settings.interval,
                      on_sample=status.update if status else None)
    sampler.start()
    return Watch(sampler, status, gate)
