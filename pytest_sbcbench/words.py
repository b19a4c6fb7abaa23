"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Counted nouns in the lines a person reads: ``1 boot``, ``3 boots``, never ``3 boot(s)``."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 (``plural``, else ``word`` + s)."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


CATCH_FLOOR_PCT = 90.0
"""A drop the gate would catch with 95% probability only at this size or above is no catch at
all: a rate cannot drop by more than 100%, so the figure is said in words, not as a number."""


def caught(catch95_pct: float) -> str:
    """What the gate can catch, in the tally and in a verdict's detail: ``95% of drops >= 2.4%
    are caught``; from :data:`CATCH_FLOOR_PCT` on (``279.8%``, a drop no rate can have),
    ``nothing smaller than a 90% drop can be caught``."""
    if catch95_pct >= CATCH_FLOOR_PCT:
        return f"nothing smaller than a {CATCH_FLOOR_PCT:g}% drop can be caught"
    return f"95% of drops >= {catch95_pct:.1f}% are caught"


WIDE_PCT = 50.0
"""An interval holding no change that reaches this far either way tells nothing a number
would: it is said as "cannot tell" (a -99.8% .. +61,611% interval printed to two decimals
reads as a precise figure)."""


def pct_text(x: float) -> str:
    """A signed percentage a person reads: ``+0.80%``, ``-59.9%``, ``+61,611%``."""
    if x != x:  # NaN
        return "n/a"
    if x in (float("inf"), float("-inf")):
        return "+inf%" if x > 0 else "-inf%"
    if abs(x) >= 1000:
        return f"{x:+,.0f}%"
    return f"{x:+.1f}%" if abs(x) >= WIDE_PCT else f"{x:+.2f}%"


def wide(low: float | None, high: float | None) -> bool:
    """The interval holds no change either way that :data:`WIDE_PCT` would not: "cannot
    tell" (an unbounded side counts as wide)."""
    if low is None or high is None or low != low or high != high:
        return True
    if low in (float("inf"), float("-inf")) or high in (float("inf"), float("-inf")):
        return True
    return low < 0.0 < high and (low <= -WIDE_PCT or high >= WIDE_PCT)


def interval_text(low: float | None, high: float | None, confidence: float | None = None
                  ) -> str:
    """``99.89% CI -1.20% .. +0.40%``, or ``cannot tell: the 99.89% interval spans -99.8% ..
    +61,611%`` (:func:`wide`)."""
    shown = [pct_text(v) if v is not None else "unbounded" for v in (low, high)]
    level = f"{confidence:.2f}% " if confidence else ""
    if wide(low, high):
        return f"cannot tell: the {level}interval spans {shown[0]} .. {shown[1]}"
    return f"{level}CI {shown[0]} .. {shown[1]}"
