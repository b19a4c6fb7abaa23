"""The plugin's options: the one option table (``plugin/options.py``) from which pytest's
options, the run's ``Settings`` and the "was an sbcbench option given" check come; every option
parses; values out of range (unbounded intervals and durations, weeks of runs, a budget below the
planned runs) are usage errors, and the documented bounds are accepted."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from helpers import star64_tree
from pytest_sbcbench.plugin.options import DERIVED, OPTIONS
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.values import (
    duration_seconds,
    interval_seconds,
    positive_int,
)


def test_every_setting_is_filled_by_one_row_or_derived() -> None:
    fields = {f.name for f in dataclasses.fields(Settings)}
    rows = [o.setting for o in OPTIONS if o.setting is not None]
    assert len(rows) == len(set(rows)), "two rows fill one setting"
    assert set(rows) | DERIVED == fields
    assert not set(rows) & DERIVED


def test_flags_are_unique_and_named_for_the_plugin() -> None:
    flags = [o.flag for o in OPTIONS]
    assert len(flags) == len(set(flags))
    assert all(f == "--board" or f.startswith("--sbc-") for f in flags)


def test_pytest_lists_every_row(pytester: pytest.Pytester) -> None:
    shown = pytester.runpytest("--help").stdout.str()
    assert all(o.flag in shown for o in OPTIONS)


@pytest.mark.parametrize(("args", "explicit"), [
    ((), False), (("--sbc-quick",), True), (("--sbc-runs", "2"), True),
    (("--sbc-list", "text"), False),  # an action, not a setting: it lists and exits
])
def test_an_option_given_makes_the_run_explicit(pytester: pytest.Pytester,
                                                args: tuple[str, ...], explicit: bool) -> None:
    from pytest_sbcbench.plugin.options import settings_from

    config = pytester.parseconfig(*args)
    assert settings_from(config).explicit is explicit


TRIVIAL = """
def test_board(sbc_board):
    print("BOARD=" + sbc_board.name)
"""


@pytest.mark.parametrize("runs", ["1001", "100000000"])
def test_runs_beyond_the_cap_are_a_usage_error(pytester: pytest.Pytester, runs: str) -> None:
    """Review round 2, L18: ``--sbc-runs 100000000`` was accepted (weeks of runs from a typo)."""
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest(f"--sbc-runs={runs}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-runs*'{runs}' is too many runs: at most 1000*"])


def test_runs_at_the_cap_are_accepted() -> None:
    assert positive_int("1000") == 1000 and positive_int("1") == 1


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e-9", "0", "-1", "3601", "soon"])
def test_sampler_interval_range(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="sampler interval"):
        interval_seconds(value)


def test_sampler_interval_bounds_are_inclusive_where_documented() -> None:
    assert [interval_seconds(v) for v in ("0.05", "1", "3600")] == [0.05, 1.0, 3600.0]


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-5", "1e9"])
def test_durations_are_finite(value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="give a number of seconds above 0"):
        duration_seconds(value)


@pytest.mark.parametrize(("value", "message"), [
    ("inf", "is not a valid sampler interval"), ("1e-9", "too short a sampler interval")])
def test_sbc_interval_is_a_usage_error(pytester: pytest.Pytester, value: str,
                                       message: str) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("--sbc-interval", value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-interval*{message}*"])


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--sbc-min-effect", "0", "*not a valid smallest effect*0.1 to 50*"),
    ("--sbc-min-effect", "nan", "*not a valid smallest effect*"),
    ("--sbc-max-runs", "0", "*not a positive whole number*"),
    ("--sbc-max-runs", "5000", "*too large a run budget*"),
])
def test_option_ranges_are_usage_errors(pytester: pytest.Pytester, option: str, value: str,
                                        message: str) -> None:
    result = pytester.runpytest(option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_budget_below_the_planned_runs_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--sbc-runs", "5", "--sbc-max-runs", "3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-max-runs 3 is below --sbc-runs 5*"])


@pytest.mark.parametrize("runs", ["0", "-1", "three", "1.5"])
def test_bad_runs_is_a_usage_error(pytester: pytest.Pytester, runs: str) -> None:
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest(f"--sbc-runs={runs}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-runs*not a positive whole number*"])


@pytest.mark.parametrize("wait", ["-1", "soon", "nan"])
def test_bad_idle_wait_is_a_usage_error(pytester: pytest.Pytester, wait: str) -> None:
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest(f"--sbc-idle-wait={wait}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-idle-wait*not a valid number of seconds*"])


def test_bad_interval_and_sysroot_are_usage_errors(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TRIVIAL)
    assert pytester.runpytest("--sbc-interval=0").ret == pytest.ExitCode.USAGE_ERROR
    result = pytester.runpytest("--sbc-sysroot", str(pytester.path / "missing"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-sysroot*not a directory*"])


def test_saving_a_run_replayed_on_a_captured_tree_is_refused(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23, item 13: an x86 host's AES-GCM was saved into star64.json, labelled riscv64:
    the tree's files are the board's, the numbers this machine's.  Refused at start-up,
    before anything is measured or written."""
    monkeypatch.delenv("SBCBENCH_SIMULATED_SAVE", raising=False)
    pytester.makepyfile(TRIVIAL)
    tree = star64_tree(pytester.path / "tree")
    bl = pytester.path / "bl"
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "star64",
                                "--sbc-baselines", str(bl), "--sbc-save-baseline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--sbc-sysroot*with --sbc-save-baseline: the benchmarks run "
                                 "on this machine, so their numbers are this machine's*"])
    assert not bl.exists()
    judged = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "star64",
                                "--sbc-baselines", str(bl), "--sbc-idle-wait", "0")
    assert judged.ret == pytest.ExitCode.OK  # replaying without saving stays allowed


def test_all_options_parse(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(TRIVIAL)
    result = pytester.runpytest(
        "--sbc-baselines", str(tmp_path), "--sbc-save-baseline", "--sbc-quick",
        "--sbc-runs", "2", "--sbc-interval", "0.5", "--sbc-strict", "--sbc-trace-dir",
        str(tmp_path / "t"), "--sbc-cache", str(tmp_path / "c"), "--sbc-drop-caches",
        "--sbc-allow-incomparable", "--sbc-report", str(tmp_path / "r"), "-s")
    result.assert_outcomes(passed=1)
