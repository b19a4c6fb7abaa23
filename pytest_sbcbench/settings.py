"""The plugin's command-line options: declared, validated when pytest starts."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from .errors import BoardError
from .platform.sysroot import Sysroot

DEFAULT_INTERVAL = 1.0
IDLE_WAIT = 10.0
QUICK_IDLE_WAIT = 2.0


def board_name(value: str) -> str:
    from .platform.board import check_board_name

    try:
        return check_board_name(value)
    except BoardError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


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


def positive_float(value: str) -> float:
    """A finite, positive number of seconds (at most a week)."""
    return _seconds(value, 0.0, MAX_DURATION, "number of seconds")


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
MAX_RUNS_LIMIT = 1000


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
    """The run budget per metric: a whole number from 1 to MAX_RUNS_LIMIT."""
    number = whole_number(value)
    if number > MAX_RUNS_LIMIT:
        raise argparse.ArgumentTypeError(f"{value!r} is too large a run budget (at most "
                                         f"{MAX_RUNS_LIMIT})")
    return number


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("sbcbench", "single-board-computer benchmarks (pytest-sbcbench)")
    add = group.addoption
    add("--board", type=board_name, default=None, metavar="NAME",
        help="board profile to judge against (default: auto-detected)")
    add("--sbc-baselines", type=Path, default=None, metavar="DIR",
        help="baseline directory (default: baselines/ in the rootdir)")
    add("--sbc-save-baseline", action="store_true",
        help="record this run's results into the board's baseline (verdicts pass, "
             "improvement, inconclusive and no-baseline; see --sbc-accept)")
    add("--sbc-accept", action="append", default=None, metavar="TESTS",
        help="with --sbc-save-baseline: also save these non-passing results (a node id or "
             "any part of one, e.g. test_sequential; repeat for more)")
    add("--sbc-results", type=Path, default=None, metavar="PATH",
        help="write this run's results JSON to PATH")
    add("--sbc-sysroot", type=Path, default=None, metavar="DIR",
        help="read /proc and /sys from DIR instead of /")
    add("--sbc-lab-kernel", default=None, metavar="IMAGE",
        help="on a labgrid QEMUDriver board (--lg-env): boot the kernel of this key of the "
             "env file's images: (as a maintainer flashes a new kernel)")
    add("--sbc-quick", action="store_true",
        help="short durations and fewer runs, for smoke runs and CI")
    add("--sbc-runs", type=positive_int, default=None, metavar="N",
        help=f"timed runs per workload, 1 to {MAX_RUNS} (overrides the workload's default)")
    add("--sbc-min-effect", type=min_effect_pct, default=None, metavar="PCT",
        help="smallest change that matters, %% (default 3, or the workload's): 'pass' means no "
             "regression of at least this much")
    add("--sbc-max-runs", type=max_runs, default=None, metavar="N",
        help="run budget per metric for sequential sampling (default 2x the planned runs; "
             "at least the planned runs)")
    add("--sbc-interval", type=interval_seconds, default=None, metavar="SECONDS",
        help=f"sampler interval (default {DEFAULT_INTERVAL})")
    add("--sbc-idle-wait", type=seconds_or_zero, default=None, metavar="SECONDS",
        help=f"longest wait for the machine to settle before a workload (0: none; default "
             f"{IDLE_WAIT:g}, {QUICK_IDLE_WAIT:g} with --sbc-quick)")
    add("--sbc-strict", action="store_true",
        help="validity findings (throttling, swap, background load) fail the test")
    add("--sbc-performance", action="store_true",
        help="set the performance governor for the run and restore it after")
    add("--sbc-trace-dir", type=Path, default=None, metavar="DIR",
        help="write per-test sampler traces and charts to DIR")
    add("--sbc-cache", type=Path, default=None, metavar="DIR",
        help="checkout and build cache for compile workloads")
    add("--sbc-drop-caches", action="store_true",
        help="drop the page cache before each timed build (root only)")
    add("--sbc-allow-incomparable", action="store_true",
        help="do not fail tests whose baseline identity differs")
    add("--sbc-verify-key", type=Path, default=None, metavar="PUBKEY",
        help="refuse baselines that are unsigned or whose signature does not match")
    add("--sbc-report", type=Path, default=None, metavar="DIR",
        help="write the fleet report for this run among the published boards")
    add("--sbc-list", choices=("text", "json"), default=None,
        help="list every registered workload (markers, availability, expected time) and exit; "
             "'sbcbench list' runs this")
    add("--sbc-storage-path", type=Path, default=None, metavar="DIR",
        help="directory for the storage test file (default: the current directory)")


@dataclass(frozen=True)
class Settings:
    board: str | None
    baselines: Path
    save_baseline: bool
    results: Path | None
    sysroot: Sysroot
    sysroot_given: bool
    quick: bool
    runs: int | None
    interval: float
    strict: bool
    performance: bool
    trace_dir: Path | None
    cache: Path | None
    drop_caches: bool
    allow_incomparable: bool
    verify_key: Path | None
    report_dir: Path | None
    storage_path: Path | None = None
    idle_wait_given: float | None = None
    explicit: bool = False
    accept: tuple[str, ...] = ()
    min_effect_pct: float | None = None
    max_runs: int | None = None

    @property
    def idle_wait(self) -> float:
        """Seconds the idle gate may wait: ``--sbc-idle-wait``, else 10 (2 quick)."""
        if self.idle_wait_given is not None:
            return self.idle_wait_given
        return QUICK_IDLE_WAIT if self.quick else IDLE_WAIT

    @property
    def seconds(self) -> int:
        """``openssl speed -seconds``: 3, or 1 with ``--sbc-quick``."""
        return 1 if self.quick else 3

    @property
    def cache_root(self) -> Path:
        """``--sbc-cache`` or the user's cache directory: checkouts, logs, compiled helpers."""
        if self.cache is not None:
            return self.cache
        from .measure.c_helpers import default_cache

        return default_cache()

    def runs_for(self, default: int = 3, quick: int = 2) -> int:
        """Timed runs: ``--sbc-runs`` if given, else the workload's (quick) default."""
        if self.runs is not None:
            return self.runs
        return quick if self.quick else default


OPTIONS = ("--board", "--sbc-baselines", "--sbc-save-baseline", "--sbc-accept",
           "--sbc-results", "--sbc-sysroot", "--sbc-quick", "--sbc-runs", "--sbc-interval",
           "--sbc-idle-wait", "--sbc-strict", "--sbc-performance", "--sbc-trace-dir", "--sbc-cache",
           "--sbc-drop-caches", "--sbc-allow-incomparable", "--sbc-verify-key", "--sbc-report",
           "--sbc-storage-path", "--sbc-min-effect", "--sbc-max-runs")


def explicit(config: pytest.Config) -> bool:
    """True when any sbcbench option was given: the run means to use the plugin."""
    return any(config.getoption(name) not in (None, False) for name in OPTIONS)


def from_config(config: pytest.Config) -> Settings:
    opt = config.getoption
    sysroot_dir: Path | None = opt("--sbc-sysroot")
    if sysroot_dir is not None and not sysroot_dir.is_dir():
        raise pytest.UsageError(f"--sbc-sysroot {sysroot_dir}: not a directory")
    baselines: Path | None = opt("--sbc-baselines")
    accept = tuple(opt("--sbc-accept") or ())
    if accept and not opt("--sbc-save-baseline"):
        raise pytest.UsageError("--sbc-accept names results to save: it needs "
                                "--sbc-save-baseline")
    if any(not pattern.strip() for pattern in accept):
        raise pytest.UsageError("--sbc-accept: an empty pattern would accept every result; "
                                "name the tests")
    runs, budget = opt("--sbc-runs"), opt("--sbc-max-runs")
    if runs is not None and budget is not None and budget < runs:
        raise pytest.UsageError(f"--sbc-max-runs {budget} is below --sbc-runs {runs}: the "
                                "budget must allow the planned runs")
    return Settings(
        board=opt("--board"),
        baselines=baselines if baselines is not None else config.rootpath / "baselines",
        save_baseline=bool(opt("--sbc-save-baseline")),
        results=opt("--sbc-results"),
        sysroot=Sysroot(sysroot_dir) if sysroot_dir is not None else Sysroot(),
        sysroot_given=sysroot_dir is not None,
        quick=bool(opt("--sbc-quick")),
        runs=opt("--sbc-runs"),
        interval=float(opt("--sbc-interval") or DEFAULT_INTERVAL),
        strict=bool(opt("--sbc-strict")),
        performance=bool(opt("--sbc-performance")),
        trace_dir=opt("--sbc-trace-dir"),
        cache=opt("--sbc-cache"),
        drop_caches=bool(opt("--sbc-drop-caches")),
        allow_incomparable=bool(opt("--sbc-allow-incomparable")),
        verify_key=opt("--sbc-verify-key"),
        report_dir=opt("--sbc-report"),
        storage_path=opt("--sbc-storage-path"),
        idle_wait_given=opt("--sbc-idle-wait"),
        explicit=explicit(config),
        accept=accept,
        min_effect_pct=opt("--sbc-min-effect"),
        max_runs=budget,
    )
