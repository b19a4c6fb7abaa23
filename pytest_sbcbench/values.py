"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The values that enter a run from the command line: defaults, limits and argparse validators
(used by the plugin's option table and by the ``sbcbench`` command).  Plain functions: this
module is imported when pytest starts and costs next to nothing."""

from __future__ import annotations

import argparse
import math

from .errors import BoardError

DEFAULT_INTERVAL = 1.0
IDLE_WAIT = 10.0
QUICK_IDLE_WAIT = 2.0


def board_name(value: str) -> str:
    from .platform.board import check_board_name

    try:
        return check_board_name(value)
    except BoardError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def candidate_label(value: str) -> str:
    """A ``--sbc-candidate`` label: printable text on one line, not only spaces (the history
    lists labels one a line)."""
    if not value.strip():
        raise argparse.ArgumentTypeError(f"{value!r}: a label needs a non-blank name (the "
                                         "kernel or BSP under test)")
    if not value.isprintable():
        raise argparse.ArgumentTypeError(f"{value!r}: a label is one line of printable text "
                                         "(no newline, tab or control character)")
    return value.strip()


def commit_hash(value: str) -> str:
    """A ``--sbc-kernel-commit``: 7 to 64 hex digits."""
    from .platform.booted import valid_commit

    reason = valid_commit(value.strip())
    if reason is not None:
        raise argparse.ArgumentTypeError(f"{value!r}: {reason}")
    return value.strip().lower()


MAX_RUNS = 1000  # timed runs per workload: beyond this a typo, not a plan (days of runs)


def whole_number(value: str) -> int:
    """A whole number from 1 up."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive whole number (1, 2, 3...)")
    return number


def positive_int(value: str) -> int:
    """A number of runs (``--sbc-runs``): a whole number from 1 to :data:`MAX_RUNS`."""
    number = whole_number(value)
    if number > MAX_RUNS:
        raise argparse.ArgumentTypeError(f"{value!r} is too many runs: at most {MAX_RUNS}")
    return number


MAX_BOOTS = 50


AUTO_BOOTS = "auto"


def boot_count(value: str) -> int:
    """Boots of one run (``--sbc-boots-budget``): a whole number from 1 to :data:`MAX_BOOTS`."""
    number = whole_number(value)
    if number > MAX_BOOTS:
        raise argparse.ArgumentTypeError(f"{value!r} is too many boots: at most {MAX_BOOTS}")
    return number


def boots_value(value: str) -> int | str:
    """``--sbc-boots``: a number of boots (:func:`boot_count`) or ``auto``."""
    return AUTO_BOOTS if value.strip().lower() == AUTO_BOOTS else boot_count(value)


def _seconds(value: str, low: float, high: float, what: str, *, zero_ok: bool = False) -> float:
    """``value`` as a finite number of seconds in (``low``, ``high``] (or exactly 0 when
    ``zero_ok``); inf, nan, 1e-9 and words are an :class:`argparse.ArgumentTypeError` saying
    the accepted range."""
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and (low < number or (zero_ok and number == 0))
            and number <= high):
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a valid {what}: give a number of seconds above {low:g} and at "
            f"most {high:g}")
    return number


MIN_INTERVAL = 0.05
MAX_INTERVAL = 3600.0
MAX_DURATION = 7 * 24 * 3600.0


def interval_seconds(value: str) -> float:
    """A sampler interval: 0.05 s (faster busy-loops and perturbs the benchmark) to one hour."""
    number = _seconds(value, 0.0, MAX_INTERVAL, "sampler interval")
    if number < MIN_INTERVAL:
        raise argparse.ArgumentTypeError(
            f"{value!r} is too short a sampler interval: the sampler would busy-loop and "
            f"disturb the benchmark; use {MIN_INTERVAL:g} to {MAX_INTERVAL:g} seconds")
    return number


def duration_seconds(value: str) -> float:
    """A finite duration: more than 0 s, at most a week."""
    return _seconds(value, 0.0, MAX_DURATION, "duration")


def seconds_or_zero(value: str) -> float:
    """A finite number of seconds, 0 (none) up to a week."""
    return _seconds(value, 0.0, MAX_DURATION, "number of seconds (0: no wait)", zero_ok=True)


MIN_EFFECT_RANGE = (0.1, 50.0)


def min_effect_pct(value: str) -> float:
    """delta, the smallest change that matters: a percentage from 0.1 to 50."""
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    low, high = MIN_EFFECT_RANGE
    if not (math.isfinite(number) and low <= number <= high):
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a valid smallest effect: give a percentage from {low:g} to "
            f"{high:g} (3 means a 3% regression matters)")
    return number


def max_runs(value: str) -> int:
    """The run budget per metric: a whole number from 1 to :data:`MAX_RUNS`."""
    number = whole_number(value)
    if number > MAX_RUNS:
        raise argparse.ArgumentTypeError(f"{value!r} is too large a run budget (at most "
                                         f"{MAX_RUNS})")
    return number
