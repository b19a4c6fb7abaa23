"""One reading of a board's clocks, temperatures and memory, and the protocol of the sources
that take it (Linux's kernel files, FreeBSD's sysctl: :mod:`.readings`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..model import Sensor


@dataclass(frozen=True)
class BoardSample:
    """One reading of the board: clocks (MHz, per CPU), temperatures (per sensor), bytes."""

    mhz: tuple[float | None, ...]
    temps_c: tuple[float | None, ...]
    mem_used: int | None
    swap_used: int | None


class BoardReadings(Protocol):
    """A board's clock, temperature and memory source (see :func:`.readings.board_readings`)."""

    cpus: tuple[int, ...]
    max_mhz: tuple[float | None, ...]
    governors: tuple[str | None, ...]
    sensors: tuple[Sensor, ...]
    unavailable: dict[str, str]

    def read(self) -> BoardSample:
        ...

    def residency(self) -> tuple[dict[int, int], ...]:
        """Time in each clock state per CPU so far (cpufreq ``time_in_state``); empty where the
        kernel keeps none."""
        ...
