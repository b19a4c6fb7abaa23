"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

Reading the project's JSON files (baselines, results, board profiles) strictly.

:func:`strict_json` refuses what Python's json module would let through: NaN and Infinity,
numbers that overflow a float, integers too long to be a measurement, nesting deep enough to
exhaust the stack of whatever walks the document next, invalid UTF-8, and an object holding one
key twice (Python keeps the last: a reviewer reads the first, the judge would use the second).
:func:`read_bytes` reads only a regular file of bounded size (a FIFO or ``/dev/zero`` given as
a baseline is refused, never waited on or read until memory runs out).  Every refusal is a
:class:`SchemaError` naming the file, so a loader never crashes without saying which file.
"""

from __future__ import annotations

import json
from itertools import chain
from pathlib import Path
from typing import Any

from .errors import SchemaError
from .fileio import MAX_INPUT_BYTES, read_regular

MAX_INT_DIGITS = 30
MAX_NESTING = 64


def read_bytes(path: Path, what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``; any failure (missing, a directory, a FIFO or device, more than
    ``limit`` bytes, unreadable) is a :class:`SchemaError` naming the file and ``what`` it
    should have been."""
    try:
        return read_regular(Path(path), limit)
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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members; a key given twice is an error, never "the last one wins"."""
    out = dict(pairs)
    if len(out) == len(pairs):  # no key twice: one C-level pass (a baseline has millions)
        return out
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {key!r} appears twice in one object (which one counts "
                             "would be a guess)")
        out[key] = value
    return out


_CONTAINERS = frozenset((dict, list))  # what JSON nests (json makes no subclasses)
_INFINITIES = (float("inf"), float("-inf"))
_INT_LIMIT = 10**MAX_INT_DIGITS  # an integer this large has more than MAX_INT_DIGITS digits


def _walk(value: Any) -> tuple[int, bool]:
    """The deepest nesting of lists and objects in a parsed document (counted up to
    ``MAX_NESTING + 1``), walked level by level without recursion (a hostile document must
    not exhaust the stack of whatever reads it next), and whether it holds a number json's own
    parsing let through that :func:`strict_json` refuses (an overflowed float, an integer
    over :data:`MAX_INT_DIGITS` digits).  Each level's members are gathered into one list and
    checked in C-level passes (their types, infinities, the largest integers): a baseline
    holds millions of numbers, and a walk calling Python per member was a third of reading
    one."""
    if type(value) not in _CONTAINERS:
        return 0, _odd([value])
    level, depth, odd = [value], 0, False
    while level and depth <= MAX_NESTING:
        depth += 1
        members = list(chain.from_iterable(x.values() if type(x) is dict else x
                                           for x in level))
        odd = odd or _odd(members)
        level = [] if _CONTAINERS.isdisjoint(map(type, members)) else \
            [c for c in members if type(c) in _CONTAINERS]
    return depth, odd


def _odd(values: list[Any]) -> bool:
    """Whether ``values`` hold an infinite float or an integer over MAX_INT_DIGITS digits
    (booleans count as the integers 0 and 1)."""
    if _INFINITIES[0] in values or _INFINITIES[1] in values:
        return True
    ints = list(filter(int.__instancecheck__, values))
    return bool(ints) and (max(ints) >= _INT_LIMIT or min(ints) <= -_INT_LIMIT)


def _strict_loads(text: str) -> Any:
    """json.loads checking every number as it is parsed (the exact refusal)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int,
                          parse_float=_finite_float, object_pairs_hook=_unique_keys)
    except RecursionError as exc:
        raise ValueError(f"nested deeper than {MAX_NESTING} levels") from exc


def _loads(text: str) -> Any:
    """The document, parsed by json's own C number parsing and its numbers checked after
    (:func:`_walk`); a document that fails either way is parsed again by
    :func:`_strict_loads`, which says why exactly (the literal that overflowed, say)."""
    try:
        document = json.loads(text, parse_constant=_refuse_constant,
                              object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        document = _strict_loads(text)  # raises, saying why
    depth, odd = _walk(document)
    if odd or depth > MAX_NESTING:  # a number error comes first, as when parsing checks them
        document = _strict_loads(text)
    if depth > MAX_NESTING:
        raise ValueError(f"nested deeper than {MAX_NESTING} levels")
    return document


def strict_json(data: bytes | str, path: Path | str, what: str) -> Any:
    """Parse ``data`` (the contents of ``path``) as JSON a measurement file may hold.

    NaN, Infinity, numbers that overflow a float, integers over 30 digits, nesting deeper than
    64 levels, invalid UTF-8 and duplicate keys are :class:`SchemaError` naming ``path`` and
    ``what``."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return _loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(path, None, f"unreadable {what}: corrupt or truncated {what} JSON "
                                      f"({exc})") from exc
    except ValueError as exc:
        raise SchemaError(path, None, f"unreadable {what}: {exc}") from exc
