"""Thermal zones and hwmon temperatures, read through a Sysroot."""

from __future__ import annotations

import re

from ..model import Sensor
from .sysroot import HWMON_DIR, THERMAL_DIR, Sysroot

PREFERRED = re.compile(r"cpu|soc|core|cluster|pkg|package|tctl|tdie|big|little", re.I)
VALID_RANGE_C = (-40.0, 150.0)


def plausible(celsius: float) -> bool:
    """Readings outside -40..150 degrees C are sensor faults, not temperatures."""
    return VALID_RANGE_C[0] <= celsius <= VALID_RANGE_C[1]


def _trips(sysroot: Sysroot, zone: str) -> tuple[tuple[str, float], ...]:
    out = []
    for name in sysroot.listdir(f"{THERMAL_DIR}/{zone}"):
        match = re.match(r"^trip_point_(\d+)_temp$", name)
        if not match:
            continue
        millis = sysroot.read_int(f"{THERMAL_DIR}/{zone}/{name}")
        kind = sysroot.read(f"{THERMAL_DIR}/{zone}/trip_point_{match.group(1)}_type",
                            default="").strip()
        if millis is not None and kind in ("passive", "hot", "critical"):
            out.append((kind, millis / 1000.0))
    return tuple(sorted(out, key=lambda t: t[1]))


def thermal_zones(sysroot: Sysroot) -> list[Sensor]:
    zones = []
    for zone in sysroot.listdir(THERMAL_DIR):
        if not zone.startswith("thermal_zone"):
            continue
        kind = sysroot.read(f"{THERMAL_DIR}/{zone}/type", default=zone).strip()
        zones.append(Sensor(kind, f"{THERMAL_DIR}/{zone}/temp", _trips(sysroot, zone)))
    return zones


def hwmon_sensors(sysroot: Sysroot) -> list[Sensor]:
    out = []
    for hwmon in sysroot.listdir(HWMON_DIR):
        chip = sysroot.read(f"{HWMON_DIR}/{hwmon}/name", default=hwmon).strip()
        for name in sysroot.listdir(f"{HWMON_DIR}/{hwmon}"):
            if re.match(r"^temp\d+_input$", name):
                out.append(Sensor(f"{chip}/{name}", f"{HWMON_DIR}/{hwmon}/{name}"))
    return out


def choose_sensors(sysroot: Sysroot) -> list[Sensor]:
    """CPU/SoC thermal zones first, any zone next, hwmon as the fallback."""
    zones = thermal_zones(sysroot)
    preferred = [z for z in zones if PREFERRED.search(z.name)]
    if preferred or zones:
        return preferred or zones
    hwmon = hwmon_sensors(sysroot)
    return [s for s in hwmon if PREFERRED.search(s.name)] or hwmon


def read_celsius(sysroot: Sysroot, sensor: Sensor) -> float | None:
    """The sensor's temperature, or None when unreadable or implausible."""
    millis = sysroot.read_int(sensor.path)
    if millis is None:
        return None
    celsius = millis / 1000.0
    return celsius if plausible(celsius) else None


def missing_reason(sysroot: Sysroot) -> str:
    """Why temperature cannot be sampled when :func:`choose_sensors` found nothing."""
    return (f"no thermal zone under {sysroot.path(THERMAL_DIR)} and no hwmon temperature: "
            "temperature is not sampled")
