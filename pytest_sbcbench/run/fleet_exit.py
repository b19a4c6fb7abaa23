"""The exit code of ``sbcbench fleet run``: each place's pytest exit in the gate's contract,
and the fleet's as the worst of them.

The gate's contract (README, docs/gate.md): **0** no regression, **1** a regression, **4** cannot
gate, **6** undecided, **2** interrupted.  A place's pytest exits one of those, or something
else: 5 (no tests collected: nothing was gated) counts as 4; 3 (pytest's internal error), a
death by signal or any other code counts as 2 (unusable).  The fleet exits the worst place's
code in the order of :data:`WORST_FIRST`: 2 > 1 > 4 > 6 > 0.  An interrupted or unusable place
comes first (the fleet's answer is missing a part); then a regression, which one place that could
not gate or stayed undecided must never hide; then cannot gate, which is worse than undecided
(that place measured nothing); 0 only when every place passed.  No place at all is 4."""

from __future__ import annotations

from collections.abc import Iterable

NO_REGRESSION, REGRESSION, UNUSABLE, CANNOT_GATE, UNDECIDED = 0, 1, 2, 4, 6
NO_TESTS_COLLECTED = 5  # pytest's ExitCode.NO_TESTS_COLLECTED
WORST_FIRST = (UNUSABLE, REGRESSION, CANNOT_GATE, UNDECIDED, NO_REGRESSION)
MEANING = {NO_REGRESSION: "no regression", REGRESSION: "regression",
           UNUSABLE: "interrupted or unusable", CANNOT_GATE: "cannot gate",
           UNDECIDED: "undecided"}


def place_code(returncode: int) -> int:
    """One place's pytest exit status in the gate's contract (see the module's text)."""
    if returncode in WORST_FIRST:
        return returncode
    if returncode == NO_TESTS_COLLECTED:
        return CANNOT_GATE
    return UNUSABLE


def fleet_code(codes: Iterable[int]) -> int:
    """The worst of the places' codes (each first mapped by :func:`place_code`) in the order
    of :data:`WORST_FIRST`; no place at all cannot gate."""
    seen = {place_code(code) for code in codes}
    return next((code for code in WORST_FIRST if code in seen), CANNOT_GATE)


def described(code: int) -> str:
    """``exit 1 (regression)``."""
    return f"exit {code} ({MEANING.get(code, 'unusable')})"
