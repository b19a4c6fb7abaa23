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
