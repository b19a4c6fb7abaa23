"""Checks of a whole ``openssl speed`` output before its figures are believed.

A tool killed or cut off mid-write leaves a prefix of its last record (``+F:25:sha256:17``
where ``17.5e9`` was being printed): an output whose last result line has no newline is
refused.  ``-mr`` records that give two different figures for one cell or rate are refused
too: which one is the result would be a guess, never the first one taken silently."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable

from ..errors import ParseError


def one_figure(values: list[float], what: str) -> float | None:
    """The one figure the output gives for ``what`` (None when it gives none); two that
    differ are a :class:`ParseError`."""
    if len(set(values)) > 1:
        raise ParseError("openssl speed output", f"{what} is printed {len(values)} times with "
                         f"different figures ({', '.join(f'{v:g}' for v in values[:4])})")
    return values[0] if values else None


def no_conflicts(figures: Iterable[tuple[Hashable, float, str]]) -> None:
    """Every (key, figure, description) whose key appears with two figures is an error."""
    found: dict[Hashable, tuple[list[float], str]] = {}
    for key, value, what in figures:
        found.setdefault(key, ([], what))[0].append(value)
    for values, what in found.values():
        one_figure(values, what)


def check_terminated(text: str, *rows: re.Pattern[str]) -> None:
    """A :class:`ParseError` when ``text`` stops inside a result line: a ``+`` record or a
    line matching one of ``rows`` (the human table's) with no newline after it."""
    if not text or text.endswith("\n"):
        return
    last = text.rsplit("\n", 1)[-1].strip()
    if last.startswith("+") or any(row.match(last) for row in rows):
        raise ParseError("openssl speed output", f"the output ends inside a record "
                         f"({last[:80]!r} has no newline): the tool was cut off mid-write",
                         text[-600:])
