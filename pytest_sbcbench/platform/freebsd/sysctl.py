"""FreeBSD ``sysctl`` output, parsed: pure ``str -> value`` functions.

``sysctl -a`` prints ``name: value`` lines, but real outputs are not one line per entry: a
value may run over several lines (``kern.version`` ends in a newline, ``kern.sched.topology_spec``
and ``kern.geom.conftxt`` are multi-line text), and some names contain spaces
(``kern.timecounter.tc.ARM MPCore Timecounter.frequency``).  An entry starts on a line that
begins with a top-level name (``kern.``, ``hw.``, ``dev.`` ...) followed by the rest of the name
and ``: ``; any other line continues the value before it.  Values are kept as printed;
the functions below read the kinds the package uses (temperatures printed as ``49.0C``, clock
levels ``2501/35000 2500/35000 ...``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# The top-level nodes of FreeBSD's sysctl tree (sys/sysctl.h: CTL_KERN ... CTL_P1003_1B, and
# the nodes the kernel adds at run time: dev, security, compat, kstat from OpenZFS).
TOP_LEVEL = ("kern", "vm", "vfs", "net", "debug", "hw", "machdep", "user", "p1003_1b",
             "compat", "security", "dev", "kstat", "sysctl")
ENTRY = re.compile(r"^((?:" + "|".join(TOP_LEVEL) + r")(?:\.[^:\n]*?)?): ?(.*)$")
TEMPERATURE = re.compile(r"^\s*(-?\d+(?:[.,]\d+)?)\s*([CK]?)\s*$")
MAX_NAMES = 1 << 16  # a sysctl -a of a large machine has some 20000 entries


def parse_sysctl(text: str) -> dict[str, str]:
    """``name: value`` entries of ``sysctl -a`` (or of ``sysctl NAME...``), in the order printed;
    a continuation line joins the value before it with a newline, and trailing blank lines of a
    value (``kern.version``'s) are dropped.  Lines before the first entry are ignored."""
    out: dict[str, str] = {}
    name: str | None = None
    for line in text.splitlines():
        match = ENTRY.match(line)
        if match and len(out) < MAX_NAMES:
            name = match.group(1)
            out[name] = match.group(2)
        elif name is not None:
            out[name] = f"{out[name]}\n{line}"
    return {key: value.rstrip("\n") for key, value in out.items()}


def select(entries: Mapping[str, str], names: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """What ``sysctl NAME...`` prints from a tree read with ``sysctl -a``: each name is a leaf or a
    node (every entry below it), in the order asked.  Also returns the names that matched
    nothing (sysctl says ``unknown oid`` for those)."""
    found: dict[str, str] = {}
    unknown: list[str] = []
    for name in names:
        below = {k: v for k, v in entries.items() if k == name or k.startswith(f"{name}.")}
        if below:
            found.update(below)
        else:
            unknown.append(name)
    return found, unknown


def format_entries(entries: Mapping[str, str], values_only: bool = False) -> str:
    """Entries printed as ``sysctl`` does: ``name: value`` lines, or (``-n``) values only."""
    lines = (value if values_only else f"{name}: {value}" for name, value in entries.items())
    return "".join(f"{line}\n" for line in lines)


def whole(value: str | None) -> int | None:
    """A whole number value (``hw.ncpu: 4``), else None."""
    text = (value or "").strip()
    return int(text) if re.fullmatch(r"-?\d{1,20}", text) else None


def temperature_c(value: str | None) -> float | None:
    """A temperature as ``sysctl`` prints an ``IK`` value: ``49.0C`` (some locales print
    ``52,0C``); a bare number is degrees Celsius (drivers that export plain integers, such as
    eeemon's ``dev.cpu.0.temperature``); kelvin (``322.1K``) is converted.  None otherwise."""
    match = TEMPERATURE.match(value or "")
    if match is None:
        return None
    number = float(match.group(1).replace(",", "."))
    return number - 273.15 if match.group(2) == "K" else number


def millidegrees_c(value: str | None) -> float | None:
    """``hw.cpufreq.temperature`` of bcm2835_cpufreq: thousandths of a degree C (``43470``)."""
    number = whole(value)
    return number / 1000.0 if number is not None else None


def freq_levels(value: str | None) -> tuple[tuple[int, int | None], ...]:
    """``dev.cpu.N.freq_levels``: ``2501/35000 2500/35000 ... 800/9140`` -> ((2501, 35000), ...);
    MHz and milliwatts, the power ``-1`` where the driver does not know it (None here).  The
    first level one MHz above the second is Intel's turbo marker, not a clock."""
    out: list[tuple[int, int | None]] = []
    for word in (value or "").split():
        mhz, _, mw = word.partition("/")
        if not mhz.isdigit():
            continue
        power = whole(mw)
        out.append((int(mhz), power if power is not None and power >= 0 else None))
    return tuple(out)


def turbo_marker(levels: tuple[tuple[int, int | None], ...]) -> bool:
    """Whether the first level is the turbo marker (one MHz above the second: ``2501 2500``)."""
    return len(levels) >= 2 and levels[0][0] == levels[1][0] + 1


def top_mhz(value: str | None) -> float | None:
    """The highest clock of ``dev.cpu.N.freq_levels`` in MHz: the first level, or the second
    when the first is Intel's turbo marker (the turbo clock itself is not printed); None when
    there are no levels."""
    levels = freq_levels(value)
    if turbo_marker(levels):
        levels = levels[1:]
    return float(levels[0][0]) if levels else None
