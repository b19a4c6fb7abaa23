"""Numbers for other systems (LAVA, JUnit): in the unit the terminal shows (MB/s, not B/s),
rounded to :data:`DIGITS` significant digits, never in exponent notation.

Five digits keep every figure the terminal prints (``4,403.4 MB/s`` is ``4403.4``) while a
run-to-run spread of a fraction of a percent makes more digits noise."""

from __future__ import annotations

import math

from ..model import DISPLAY_UNITS

DIGITS = 5


def significant(value: float, digits: int = DIGITS) -> str:
    """``value`` rounded to ``digits`` significant digits, as plain decimal text."""
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a number")
    if value == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    rounded = round(value, places)
    return f"{rounded:.{max(places, 0)}f}"


def in_display_unit(value: float, unit: str) -> tuple[str, str]:
    """(text, unit) as the terminal shows the unit: ``(4403.4, MB/s)`` for 4.4034e9 B/s."""
    shown, factor = DISPLAY_UNITS.get(unit, (unit, 1.0))
    return significant(value * factor), shown


def percent(value: float) -> str:
    """A percentage with two decimals and its sign: ``-3.20``."""
    return f"{value:+.2f}"
