"""Where a FreeBSD machine prints its CPU clocks and temperatures, and how to read them.

Clocks: ``dev.cpu.N.freq`` (MHz, per CPU, from cpufreq(4)); on Raspberry Pi boards
bcm2835_cpufreq prints only ``hw.cpufreq.arm_freq`` (Hz, one clock for every core).
Temperatures: ``dev.cpu.N.temperature`` (coretemp(4), amdtemp(4): per core), else the SoC's
``hw.cpufreq.temperature`` (thousandths of a degree C), and the ACPI thermal zones
``hw.acpi.thermal.tzN.temperature`` with their trip points (``_PSV``, ``_HOT``, ``_CRT``).
A :class:`~...model.Sensor`'s ``path`` is the sysctl name it is read from."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ...model import Sensor
from ..thermal import plausible
from .sysctl import millidegrees_c, temperature_c, whole

CPU_FREQ = re.compile(r"^dev\.cpu\.(\d+)\.freq$")
CPU_TEMP = re.compile(r"^dev\.cpu\.(\d+)\.temperature$")
ACPI_TZ = re.compile(r"^hw\.acpi\.thermal\.tz(\d+)\.temperature$")
ARM_FREQ = "hw.cpufreq.arm_freq"
SOC_TEMP = "hw.cpufreq.temperature"
TRIPS = {"_PSV": "passive", "_HOT": "hot", "_CRT": "critical"}
SUBTREES = ("hw.ncpu", "dev.cpu", "hw.cpufreq", "hw.acpi.thermal")  # what sampling reads


@dataclass(frozen=True)
class Clocks:
    """Which sysctl gives each CPU's clock, and its unit in MHz (1 for MHz, 1e-6 for Hz)."""

    oids: dict[int, str]
    mhz_per_unit: float

    def read(self, entries: Mapping[str, str]) -> tuple[float | None, ...]:
        """Each CPU's clock now, in the order of ``sorted(oids)``."""
        out: list[float | None] = []
        for cpu in sorted(self.oids):
            value = whole(entries.get(self.oids[cpu]))
            out.append(value * self.mhz_per_unit if value is not None and value > 0 else None)
        return tuple(out)


def clocks(entries: Mapping[str, str], cpus: int) -> Clocks:
    """Per-CPU ``dev.cpu.N.freq`` where there is any; else the one ``hw.cpufreq.arm_freq`` for
    every CPU; else no clock."""
    per_cpu = {int(m.group(1)): name for name in entries if (m := CPU_FREQ.match(name))}
    if per_cpu:
        return Clocks(per_cpu, 1.0)
    if ARM_FREQ in entries:
        return Clocks({cpu: ARM_FREQ for cpu in range(max(cpus, 1))}, 1e-6)
    return Clocks({}, 1.0)


def _trips(entries: Mapping[str, str], zone: str) -> tuple[tuple[str, float], ...]:
    out = []
    for suffix, kind in TRIPS.items():
        celsius = temperature_c(entries.get(f"hw.acpi.thermal.{zone}.{suffix}"))
        if celsius is not None and plausible(celsius):
            out.append((kind, celsius))
    return tuple(sorted(out, key=lambda trip: trip[1]))


def sensors(entries: Mapping[str, str]) -> tuple[Sensor, ...]:
    """The temperature sensors, per-core ones first (``cpu0`` ...), then the SoC's (``soc``),
    then the ACPI thermal zones (``acpi-tz0`` ..., with their trip points)."""
    cores = sorted((int(m.group(1)), name) for name in entries if (m := CPU_TEMP.match(name)))
    zones = sorted((int(m.group(1)), name) for name in entries if (m := ACPI_TZ.match(name)))
    out = [Sensor(f"cpu{cpu}", name) for cpu, name in cores]
    if SOC_TEMP in entries:
        out.append(Sensor("soc", SOC_TEMP))
    out += [Sensor(f"acpi-tz{n}", name, _trips(entries, f"tz{n}")) for n, name in zones]
    return tuple(out)


def celsius(sensor: Sensor, entries: Mapping[str, str]) -> float | None:
    """The sensor's temperature in ``entries``; None when absent or implausible."""
    value = entries.get(sensor.path)
    degrees = millidegrees_c(value) if sensor.path == SOC_TEMP else temperature_c(value)
    return degrees if degrees is not None and plausible(degrees) else None


def missing_clock_reason() -> str:
    return ("no dev.cpu.N.freq and no hw.cpufreq.arm_freq (cpufreq(4) is not loaded, or a VM): "
            "clocks are not sampled")


def missing_sensor_reason() -> str:
    return ("no dev.cpu.N.temperature, hw.cpufreq.temperature or hw.acpi.thermal.tzN.temperature "
            "(load coretemp(4) or amdtemp(4)): temperature is not sampled")
