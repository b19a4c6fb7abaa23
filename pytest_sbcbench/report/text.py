"""Plain-text rendering of ``sbcbench probe`` and ``sbcbench monitor`` data for people: no
Python lists or dicts, ``n/a`` for unknown, byte counts in MiB, lists of records as tables.
``--json`` prints the same data unchanged."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..model import Reading

WRAP = 100


def scalar(value: Any, key: str = "") -> str:
    """One value as text: ``n/a`` for None, yes/no, ``%g`` floats, ``_bytes`` keys in MiB."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key.endswith("_bytes") and isinstance(value, (int, float)):
        return f"{value / 2**20:,.1f} MiB"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(scalar(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {scalar(v, str(k))}" for k, v in value.items()) or "none"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _records(rows: Sequence[Mapping[str, Any]], indent: str) -> list[str]:
    """A list of records as an aligned table (columns of the first record)."""
    keys = list(rows[0])
    grid = [[k.replace("_", " ") for k in keys],
            *([scalar(row.get(k), k) for k in keys] for row in rows)]
    widths = [max(len(r[i]) for r in grid) for i in range(len(keys))]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in grid]


def _listing(values: Sequence[Any], key: str, prefix: str, indent: str) -> list[str]:
    text = ", ".join(scalar(v, key) for v in values) if values else "none"
    return textwrap.wrap(text, WRAP, initial_indent=prefix,
                         subsequent_indent=indent + " " * (len(prefix) - len(indent)),
                         break_on_hyphens=False) or [prefix.rstrip()]


def lines(data: Mapping[str, Any], width: int, indent: str = "") -> list[str]:
    """Every key on its own line, labelled without underscores; nested objects indented."""
    out: list[str] = []
    for key, value in data.items():
        name = key.replace("_", " ")
        label = f"{indent}{name:{width}} " if width else f"{indent}{name}: "
        if isinstance(value, Mapping):
            if value and all(_is_scalar(v) for v in value.values()) and \
                    all(len(scalar(v, k)) < 24 for k, v in value.items()):
                out.append(label + ", ".join(f"{k.replace('_', ' ')} {scalar(v, k)}"
                                             for k, v in value.items()))
            elif value:
                out += [label.rstrip() + ":", *lines(value, 0, indent + "  ")]
            else:
                out.append(label + "none")
        elif isinstance(value, (list, tuple)) and value and all(
                isinstance(v, Mapping) for v in value):
            out += [f"{label.rstrip()}: {len(value)}", *_records(value, indent + "  ")]
        elif isinstance(value, (list, tuple)):
            out += _listing(value, key, label, indent)
        else:
            out.append(label + scalar(value, key))
    return out


def reading_line(reading: Reading) -> str:
    """One monitor reading as a progress line: time, clock range, hottest sensor, load, memory."""
    mhz = [m for m in reading.mhz if m is not None]
    clock = (f"{min(mhz):.0f}-{max(mhz):.0f} MHz" if len(set(mhz)) > 1 else f"{mhz[0]:.0f} MHz") \
        if mhz else "clock n/a"
    temp = f"{reading.temp_c:.1f} C" if reading.temp_c is not None else "temp n/a"
    busy = f"{reading.system_busy_cpus:.2f} CPUs busy" if reading.system_busy_cpus is not None \
        else "load n/a"
    memory = f"{reading.mem_used / 2**20:,.0f} MiB used" if reading.mem_used is not None \
        else "memory n/a"
    return f"{reading.t:7.1f} s  {clock}  {temp}  {busy}  {memory}"
