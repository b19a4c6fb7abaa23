"""What the sampler reads from the board at each wake-up: each CPU's clock, each sensor's
temperature, memory and swap in use; and what it knows from the start (the CPUs with a clock,
their maximum and governor, the sensors, the probes that cannot run).

:func:`board_readings` picks the source for a sysroot: the kernel's files through the Sysroot
(:class:`SysrootReadings`: cpufreq, thermal zones, meminfo) on Linux and captured Linux trees,
``sysctl`` and psutil on a FreeBSD machine or capture
(:class:`.freebsd.readings.FreeBsdReadings`)."""

from __future__ import annotations

from ..model import Sensor
from . import cpufreq, thermal
from .board_sample import BoardReadings, BoardSample
from .host import read_meminfo
from .sysroot import Sysroot

__all__ = ["BoardReadings", "BoardSample", "SysrootReadings", "board_readings",
           "unavailable_probes"]


def unavailable_probes(sysroot: Sysroot, clocks: bool, sensors: bool) -> dict[str, str]:
    """Preflight: each probe that cannot run here, with the reason."""
    out: dict[str, str] = {}
    if not clocks:
        out["cpufreq"] = cpufreq.missing_reason(sysroot)
    if not sensors:
        out["thermal"] = thermal.missing_reason(sysroot)
    if not sysroot.meminfo(default=""):
        out["memory"] = f"no meminfo under {sysroot.root}: memory and swap are not sampled"
    return out


def _mhz(khz: int | None) -> float | None:
    return khz / 1000.0 if khz is not None else None


class SysrootReadings:
    """The kernel's files through a Sysroot: cpufreq clocks (kHz files), thermal zones and
    hwmon (millidegree files), meminfo."""

    def __init__(self, sysroot: Sysroot) -> None:
        self.sysroot = sysroot
        per_cpu = {cpu: p for p in cpufreq.policies(sysroot) for cpu in p.cpus}
        self.cpus: tuple[int, ...] = tuple(sorted(per_cpu))
        self.max_mhz: tuple[float | None, ...] = tuple(_mhz(per_cpu[c].max_khz)
                                                      for c in self.cpus)
        self.governors: tuple[str | None, ...] = tuple(per_cpu[c].governor for c in self.cpus)
        self.sensors: tuple[Sensor, ...] = tuple(thermal.choose_sensors(sysroot))
        self.unavailable = unavailable_probes(sysroot, bool(self.cpus), bool(self.sensors))

    def memory(self) -> tuple[int | None, int | None]:
        info = read_meminfo(self.sysroot)
        if info is None:
            return None, None
        used = swap = None
        if "MemTotal" in info and "MemAvailable" in info:
            used = info["MemTotal"] - info["MemAvailable"]
        if "SwapTotal" in info and "SwapFree" in info:
            swap = info["SwapTotal"] - info["SwapFree"]
        return used, swap

    def read(self) -> BoardSample:
        used, swap = self.memory()
        return BoardSample(
            tuple(_mhz(cpufreq.current_khz(self.sysroot, c)) for c in self.cpus),
            tuple(thermal.read_celsius(self.sysroot, s) for s in self.sensors), used, swap)

    def residency(self) -> tuple[dict[int, int], ...]:
        return tuple(cpufreq.time_in_state(self.sysroot, c) for c in self.cpus)


def board_readings(sysroot: Sysroot) -> BoardReadings:
    """The readings source for ``sysroot``: FreeBSD's ``sysctl`` for a FreeBSD machine or
    capture, the kernel's files for anything else."""
    from .freebsd.detect import freebsd_machine
    from .freebsd.readings import FreeBsdReadings

    machine = freebsd_machine(sysroot)
    if machine is not None:
        return FreeBsdReadings(machine)
    return SysrootReadings(sysroot)
