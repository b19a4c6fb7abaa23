"""The sampler's board readings on FreeBSD: clocks and temperatures from ``sysctl``, memory from
psutil (or, for a capture, from its ``sysctl`` entries).

Each reading is one ``sysctl -i`` of the clock and temperature names found at start
(``dev.cpu.N.freq``, ``dev.cpu.N.temperature``, ``hw.cpufreq.*``, ``hw.acpi.thermal.tzN.*``):
one short command a sample, through the executor seam, so a capture's stand-in answers it in
tests.  FreeBSD keeps no cpufreq residency table: :meth:`FreeBsdReadings.residency` is empty."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...model import Sensor
from ..board_sample import BoardSample
from .host import psutil_memory
from .machine import FreeBsd
from .sensors import (
    SUBTREES,
    celsius,
    clocks,
    missing_clock_reason,
    missing_sensor_reason,
    sensors,
)
from .sysctl import top_mhz, whole

Memory = Callable[[], tuple[int | None, int | None]]
MEMORY = ("hw.physmem", "hw.pagesize", "vm.stats.vm.v_page_size", "vm.stats.vm.v_free_count",
          "vm.stats.vm.v_inactive_count", "vm.stats.vm.v_cache_count")


def sysctl_memory(entries: Mapping[str, str]) -> tuple[int | None, int | None]:
    """Memory in use from captured sysctl entries: ``hw.physmem`` less the free, inactive and
    cache pages (``vm.stats.vm.v_*_count`` x ``v_page_size``), as psutil counts it on FreeBSD;
    (None, None) where the capture lacks them.  Swap in use is not in ``sysctl``."""
    total = whole(entries.get("hw.physmem"))
    page = whole(entries.get("vm.stats.vm.v_page_size")) or whole(entries.get("hw.pagesize"))
    counts = [whole(entries.get(f"vm.stats.vm.v_{kind}_count"))
              for kind in ("free", "inactive", "cache")]
    if total is None or page is None or counts[0] is None:
        return None, None
    return total - sum(c or 0 for c in counts) * page, None


class FreeBsdReadings:
    """Clocks, temperatures and memory of a FreeBSD machine, for the sampler."""

    def __init__(self, machine: FreeBsd, memory: Memory | None = None) -> None:
        self.machine = machine
        entries = machine.sysctl(*SUBTREES)
        ncpu = whole(entries.get("hw.ncpu")) or 1
        self._clocks = clocks(entries, ncpu)
        self.cpus: tuple[int, ...] = tuple(sorted(self._clocks.oids))
        self.max_mhz: tuple[float | None, ...] = tuple(
            top_mhz(entries.get(f"dev.cpu.{c}.freq_levels")) for c in self.cpus)
        self.governors: tuple[str | None, ...] = tuple(None for _ in self.cpus)
        self.sensors: tuple[Sensor, ...] = sensors(entries)
        self._names = sorted({*self._clocks.oids.values(), *(s.path for s in self.sensors)})
        if memory is None:
            captured = sysctl_memory(machine.sysctl(*MEMORY)) if not machine.live else None
            memory = psutil_memory if captured is None else (lambda: captured)
        self._memory = memory
        self.unavailable: dict[str, str] = {}
        if not self.cpus:
            self.unavailable["cpufreq"] = missing_clock_reason()
        if not self.sensors:
            self.unavailable["thermal"] = missing_sensor_reason()
        if memory() == (None, None):
            self.unavailable["memory"] = "no memory counters in the capture's sysctl: memory " \
                                         "and swap are not sampled"

    def read(self) -> BoardSample:
        """One reading: a single ``sysctl -i`` of every clock and temperature name."""
        entries = self.machine.sysctl(*self._names) if self._names else {}
        used, swap = self._memory()
        return BoardSample(self._clocks.read(entries),
                           tuple(celsius(s, entries) for s in self.sensors), used, swap)

    def residency(self) -> tuple[dict[int, int], ...]:
        return ()

