"""The plugin's command-line options, declared once.

:data:`OPTIONS` is the one table: ``pytest_addoption`` adds each row, :func:`settings_from`
builds :class:`~pytest_sbcbench.settings.Settings` from the same rows (a row names the field
it fills), and :func:`explicit` (was any sbcbench option given, so the run means to use the
plugin) reads them too.  A test checks that every ``Settings`` field is filled by a row or is
one of :data:`DERIVED`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..values import (
    AUTO_BOOTS,
    DEFAULT_INTERVAL,
    IDLE_WAIT,
    MAX_RUNS,
    QUICK_IDLE_WAIT,
    board_name,
    boot_count,
    boots_value,
    candidate_label,
    commit_hash,
    interval_seconds,
    max_runs,
    min_effect_pct,
    positive_int,
    seconds_or_zero,
)

if TYPE_CHECKING:
    from ..settings import Settings

GROUP = ("sbcbench", "single-board-computer benchmarks (pytest-sbcbench)")


@dataclass(frozen=True)
class Option:
    """One command-line option: its flag, the :class:`Settings` field it fills (``None``: it
    is an action, not a setting, and does not make a run explicit), argparse's keywords and
    the help text."""

    flag: str
    setting: str | None
    help: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)


def _flag(flag: str, setting: str, help: str) -> Option:
    return Option(flag, setting, help, {"action": "store_true"})


def _value(flag: str, setting: str, help: str, kind: Any, metavar: str, **more: Any) -> Option:
    return Option(flag, setting, help, {"type": kind, "default": None, "metavar": metavar,
                                        **more})


OPTIONS: tuple[Option, ...] = (
    _value("--board", "board", "board profile to judge against (default: auto-detected)",
           board_name, "NAME"),
    _value("--sbc-baselines", "baselines",
           "baseline directory (default: baselines/ in the rootdir)", Path, "DIR"),
    _flag("--sbc-save-baseline", "save_baseline",
          "record this run's results into the board's baseline (verdicts pass, improvement, "
          "inconclusive and no-baseline; see --sbc-accept)"),
    Option("--sbc-accept", "accept",
           "with --sbc-save-baseline: also save these non-passing or quarantined results (a "
           "node id or part of one, e.g. test_sequential; repeat for more)",
           {"action": "append", "default": None, "metavar": "TESTS"}),
    _value("--sbc-results", "results", "write this run's results JSON to PATH", Path, "PATH"),
    _value("--sbc-sysroot", "sysroot", "read /proc and /sys from DIR instead of /", Path,
           "DIR"),
    _value("--sbc-lab-kernel", "lab_kernel",
           "on a labgrid QEMUDriver board (--lg-env): boot the kernel of this key of the env "
           "file's images: (as a maintainer flashes a new kernel)", str, "IMAGE"),
    _flag("--sbc-quick", "quick", "short durations and fewer runs, for smoke runs and CI"),
    _value("--sbc-runs", "runs",
           f"timed runs per workload, 1 to {MAX_RUNS} (overrides the workload's default)",
           positive_int, "N"),
    _value("--sbc-min-effect", "min_effect_pct",
           "smallest change that matters, %% (default 3, or the workload's): 'pass' means no "
           "regression of at least this much", min_effect_pct, "PCT"),
    _value("--sbc-max-runs", "max_runs",
           "run budget per metric for sequential sampling (default 2x the planned runs; at "
           "least the planned runs)", max_runs, "N"),
    _value("--sbc-interval", "interval", f"sampler interval (default {DEFAULT_INTERVAL})",
           interval_seconds, "SECONDS"),
    _value("--sbc-idle-wait", "idle_wait_given",
           f"longest wait for the machine to settle before a workload (0: none; default "
           f"{IDLE_WAIT:g}, {QUICK_IDLE_WAIT:g} with --sbc-quick)", seconds_or_zero, "SECONDS"),
    _flag("--sbc-strict", "strict",
          "validity findings (throttling, swap, background load) fail the test"),
    _flag("--sbc-performance", "performance",
          "set the performance governor for the run and restore it after"),
    _value("--sbc-trace-dir", "trace_dir", "write per-test sampler traces and charts to DIR",
           Path, "DIR"),
    _value("--sbc-cache", "cache", "checkout and build cache for compile workloads", Path,
           "DIR"),
    _flag("--sbc-drop-caches", "drop_caches",
          "drop the page cache before each timed build (root only)"),
    _flag("--sbc-allow-incomparable", "allow_incomparable",
          "do not fail tests whose baseline identity differs"),
    _value("--sbc-verify-key", "verify_key",
           "refuse baselines that are unsigned or whose signature does not match", Path,
           "PUBKEY"),
    _value("--sbc-report", "report_dir",
           "write the fleet report for this run among the published boards", Path, "DIR"),
    _value("--sbc-storage-path", "storage_path",
           "directory for the storage test file (default: the current directory)", Path,
           "DIR"),
    _flag("--sbc-gate", "gate",
          "gate mode for CI: before measuring, fail when a selected test has no baseline or an "
          "incomparable one (exit 4); at the end, fail on any regression or incomparable result"),
    _value("--sbc-boots", "boots",
           "run the suite N times, rebooting the lab board between (each boot a session; "
           "judged at the last); 'auto': boot on until decided, at most --sbc-boots-budget "
           "boots",
           boots_value, "N|auto"),
    _value("--sbc-boots-budget", "boots_budget",
           "most boots of a label judged at every boot (auto, by hand), the error rates "
           "spent over them (default 6, fixed at the label's first run)", boot_count, "N"),
    _value("--sbc-candidate", "candidate",
           "label of what this run measures in the history (a kernel or BSP under test; "
           "default: the kernel release)", candidate_label, "LABEL"),
    _value("--sbc-history", "history",
           "the history: sqlite:///PATH or postgresql://... (default: SBCBENCH_HISTORY, else "
           "history.sqlite in the baselines directory)", str, "URL"),
    _value("--sbc-kernel-commit", "kernel_commit",
           "the commit the booted kernel was built from, recorded in the history (default: "
           "the -g<sha> suffix of its release, if any)", commit_hash, "SHA"),
    Option("--sbc-list", None,
           "list every registered workload (markers, availability, expected time) and exit; "
           "'sbcbench list' runs this", {"choices": ("text", "json"), "default": None}),
)
# Settings fields no option fills directly: worked out from the rows above
DERIVED = frozenset({"sysroot_given", "explicit", "boots_auto"})
# For tests and simulations only (like SBCBENCH_BOOT_ID): lets --sbc-save-baseline save a run
# replayed on a --sbc-sysroot tree, whose numbers are this machine's, as the tree's board.
REPLAY_SAVE_VARIABLE = "SBCBENCH_SIMULATED_SAVE"


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup(*GROUP)
    for option in OPTIONS:
        group.addoption(option.flag, help=option.help, **option.kwargs)


def given(config: pytest.Config) -> dict[str, Any]:
    """The value of every setting row, as given (``None`` or ``False`` when not given)."""
    return {o.setting: config.getoption(o.flag) for o in OPTIONS if o.setting is not None}


def explicit(values: Mapping[str, Any]) -> bool:
    """True when any sbcbench setting was given: the run means to use the plugin."""
    return any(value not in (None, False) for value in values.values())


def check(config: pytest.Config) -> dict[str, Any]:
    """The given values, their combinations checked when pytest starts (a usage error now, not
    once a benchmark is collected); :func:`settings_from` turns them into the run's settings."""
    values = given(config)
    sysroot: Path | None = values["sysroot"]
    if sysroot is not None and not sysroot.is_dir():
        raise pytest.UsageError(f"--sbc-sysroot {sysroot}: not a directory")
    _check_replay_save(sysroot, bool(values["save_baseline"]))
    _check_accept(tuple(values["accept"] or ()), bool(values["save_baseline"]))
    _check_history(values["history"])
    runs, budget = values["runs"], values["max_runs"]
    if runs is not None and budget is not None and budget < runs:
        raise pytest.UsageError(f"--sbc-max-runs {budget} is below --sbc-runs {runs}: the "
                                "budget must allow the planned runs")
    return values


def settings_from(config: pytest.Config, values: Mapping[str, Any] | None = None) -> Settings:
    """The run's :class:`Settings` from the rows of :data:`OPTIONS` (``values``: as
    :func:`check` returned them)."""
    from ..platform.sysroot import Sysroot
    from ..settings import Settings

    given_values = dict(values if values is not None else check(config))
    sysroot = given_values["sysroot"]
    baselines = given_values["baselines"]
    given_values.update(
        baselines=baselines if baselines is not None else config.rootpath / "baselines",
        sysroot=Sysroot(sysroot) if sysroot is not None else Sysroot(),
        sysroot_given=sysroot is not None,
        interval=float(given_values["interval"] or DEFAULT_INTERVAL),
        accept=tuple(given_values["accept"] or ()),
        explicit=explicit(given_values),
        boots_auto=given_values["boots"] == AUTO_BOOTS,
    )
    if given_values["boots_auto"]:
        given_values["boots"] = None
    return Settings(**given_values)


def _check_history(url: str | None) -> None:
    """``--sbc-history`` (else ``SBCBENCH_HISTORY``) names a history this install can use: a
    PostgreSQL URL without psycopg is a usage error naming the extra, now.  Neither given:
    the default (the baselines' SQLite file) needs no check, and nothing is imported."""
    if url is None and not os.environ.get("SBCBENCH_HISTORY"):
        return
    from ..judge.history_pg import available
    from ..judge.history_url import VARIABLE, HistoryError, PostgresHistory, location

    try:
        where = location(url, Path("baselines"))
    except HistoryError as exc:
        raise pytest.UsageError(f"{'--sbc-history' if url else VARIABLE}: {exc}") from None
    if isinstance(where, PostgresHistory) and not available():
        raise pytest.UsageError(f"--sbc-history {where}: a PostgreSQL history needs psycopg 3 "
                                "(pip install 'pytest-sbcbench[postgres]')")


def _check_replay_save(sysroot: Path | None, save: bool) -> None:
    """A captured tree replays a board's files, but the benchmarks run here: saving would put
    this machine's numbers into the captured board's baseline (issue 23, item 13)."""
    if sysroot is None or not save:  # first: most runs need no Sysroot (nor what it imports)
        return
    from ..platform.sysroot import Sysroot

    if Sysroot(sysroot).is_host:
        return
    if os.environ.get(REPLAY_SAVE_VARIABLE) == "1":
        return
    raise pytest.UsageError(
        f"--sbc-sysroot {sysroot} with --sbc-save-baseline: the benchmarks run on this "
        "machine, so their numbers are this machine's, not the captured board's; save on the "
        "board itself (or through --lg-env), or drop --sbc-save-baseline")


def _check_accept(accept: tuple[str, ...], save: bool) -> None:
    if accept and not save:
        raise pytest.UsageError("--sbc-accept names results to save: it needs "
                                "--sbc-save-baseline")
    if any(not pattern.strip() for pattern in accept):
        raise pytest.UsageError("--sbc-accept: an empty pattern would accept every result; "
                                "name the tests")
