"""Reading the project's JSON files (baselines, results, board profiles) strictly.

:func:`strict_json` refuses what Python's json module would let through: NaN and Infinity,
numbers that overflow a float, integers too long to be a measurement, nesting deep enough to
exhaust the stack of whatever walks the document next, invalid UTF-8.  Every refusal is a
:class:`SchemaError` naming the file, so a loader never crashes without saying which file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import SchemaError

MAX_INT_DIGITS = 30
MAX_NESTING = 64


def read_bytes(path: Path, what: str) -> bytes:
    """The bytes of ``path``; any failure (missing, a directory, unreadable) is a
    :class:`SchemaError` naming the file and ``what`` it should have been."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise SchemaError(path, None, f"unreadable {what}: {exc.strerror or exc}") from exc


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _bounded_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise ValueError(f"integer of {len(digits)} digits is out of range")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:40]} is out of range for a number")
    return value


def _depth(value: Any) -> int:
    """The deepest nesting of lists and objects in a parsed document, walked without
    recursion (a hostile document must not exhaust the stack of whatever reads it next)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            stack += [(child, depth + 1) for child in item]
    return deepest


def strict_json(data: bytes | str, path: Path | str, what: str) -> Any:
    """Parse ``data`` (the contents of ``path``) as JSON a measurement file may hold.

    NaN, Infinity, numbers that overflow a float, integers over 30 digits, nesting deeper than
    64 levels and invalid UTF-8 are :class:`SchemaError` naming ``path`` and ``what``."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        try:
            document = json.loads(text, parse_constant=_refuse_constant,
                                  parse_int=_bounded_int, parse_float=_finite_float)
        except RecursionError as exc:
            raise ValueError(f"nested deeper than {MAX_NESTING} levels") from exc
        if _depth(document) > MAX_NESTING:
            raise ValueError(f"nested deeper than {MAX_NESTING} levels")
        return document
    except json.JSONDecodeError as exc:
        raise SchemaError(path, None, f"unreadable {what}: corrupt or truncated {what} JSON "
                                      f"({exc})") from exc
    except ValueError as exc:
        raise SchemaError(path, None, f"unreadable {what}: {exc}") from exc
