"""``sbcbench export lava RESULTS``: one LAVA test case per measured metric.

For labs that run the suite inside LAVA's test shell: each result becomes
``lava-test-case NAME --result pass|fail|unknown --measurement MEDIAN --units UNIT``, the median
in the unit the terminal shows (MB/s, not B/s) to five significant digits.  A verdict that
decided nothing (``inconclusive``, ``no-baseline``, ``incomparable``) is LAVA's ``unknown``,
never a pass.  A result judged against a baseline also gets its uncertainty as cases of their
own, with the same result: ``NAME.change`` (the change, %), ``NAME.ci_low`` and ``NAME.ci_high``
(its interval, %; left out when unbounded) and ``NAME.detectable_drop`` (the drop this run
could detect, %).  This module only
formats the cases; the command (:func:`pytest_sbcbench.cli.commands.export_lava`) calls
``lava-test-case`` when it is on PATH (LAVA records the case) and otherwise prints the command
lines, so they can be checked or replayed.

LAVA's dispatcher splits a test-case signal on whitespace and each ``KEY=VALUE`` on ``=``,
turns ``/`` into ``_`` and refuses a duplicate case name in one run, so a name keeps only
letters, digits, ``.``, ``_`` and ``-`` (other runs of characters become one ``_``), at most
:data:`MAX_NAME` characters, and is made unique with a ``-2``, ``-3`` ... suffix.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import SchemaError
from ..model import Result
from .figures import in_display_unit

MAX_NAME = 100
PASSING = frozenset({"pass", "improvement"})
FAILING = frozenset({"regression", "implausible", "invalid"})
UNKNOWN = frozenset({"inconclusive", "no-baseline", "incomparable"})
_NAME_BAD = re.compile(r"[^A-Za-z0-9._-]+")
_WORDS = re.compile(r"[a-z0-9]+")
_UNIT_OK = re.compile(r"^[A-Za-z0-9/%._-]+$")


@dataclass(frozen=True)
class LavaCase:
    """One ``lava-test-case`` call."""

    name: str
    result: str
    measurement: str
    units: str

    def argv(self) -> list[str]:
        return ["lava-test-case", self.name, "--result", self.result,
                "--measurement", self.measurement, "--units", self.units]

    def line(self) -> str:
        return shlex.join(self.argv())


def sanitise(text: str) -> str:
    """A LAVA-safe test case name (letters, digits, ``.``, ``_``, ``-``)."""
    name = _NAME_BAD.sub("_", text).strip("._-")
    return name[:MAX_NAME].rstrip("._-") or "unnamed"


def case_name(result: Result) -> str:
    """The test's name without its file (``test_cipher_aes-128-gcm``), plus the metric when
    the test name does not already say every word of it (``test_build.build_seconds``)."""
    name = sanitise(result.test.rsplit("::", 1)[-1])
    label = result.measurement.display_name
    said = set(_WORDS.findall(name.lower()))
    if set(_WORDS.findall(label.lower())) <= said:
        return name
    return sanitise(f"{name}.{label}")


def verdict_result(result: Result) -> str:
    status = result.verdict.status
    if status in PASSING:
        return "pass"
    if status in FAILING:
        return "fail"
    if status in UNKNOWN:
        return "unknown"
    raise SchemaError(result.test, status, f"unknown verdict status {status!r}")


def _measurement(result: Result) -> tuple[str, str]:
    """The median and its unit as the terminal shows them."""
    median = result.summary.median
    if not math.isfinite(median):
        raise SchemaError(result.test, None, f"median {median!r} is not a number LAVA can record")
    return in_display_unit(median, result.measurement.unit)


def _units(unit: str) -> str:
    return unit if _UNIT_OK.match(unit) else sanitise(unit)


def _uncertainty(result: Result) -> list[tuple[str, float]]:
    """(suffix, percent) of a baseline verdict: change, interval bounds, detectable drop."""
    e = result.verdict.evidence
    if e is None:
        return []
    found = [("change", e.change_pct), ("ci_low", e.ci_pct[0]), ("ci_high", e.ci_pct[1]),
             ("detectable_drop", e.detectable_pct)]
    return [(k, v) for k, v in found if v is not None and math.isfinite(v)]


def lava_cases(results: Iterable[Result]) -> list[LavaCase]:
    """One case per result (and its uncertainty's), names made unique in order of
    appearance."""
    seen: dict[str, int] = {}
    out = []
    for result in results:
        base = case_name(result)
        seen[base] = seen.get(base, 0) + 1
        name = base if seen[base] == 1 else f"{base[:MAX_NAME - 4]}-{seen[base]}"
        status = verdict_result(result)
        value, unit = _measurement(result)
        out.append(LavaCase(name, status, value, _units(unit)))
        out += [LavaCase(sanitise(f"{name[:MAX_NAME - 16]}.{suffix}"), status,
                         f"{pct:.2f}", "%") for suffix, pct in _uncertainty(result)]
    return out
