"""The pytest plugin (entry point ``sbcbench``): options, hooks, fixtures.  Thin glue only."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

import pytest

from . import baselines, hookspecs, runflow
from .errors import SbcBenchError, SysrootError
from .fixtures import sbc_board, sbc_openssl, sbc_platform, sbcbench
from .fixtures_compile import compile_bench, pinned_checkout
from .measure.governor import GovernorGuard
from .platform import board as boards
from .report import fleet_report, terminal
from .report import results as results_io
from .settings import MARKERS, add_options, from_config
from .state import STATE_KEY, RunState

__all__ = ["compile_bench", "pinned_checkout", "sbc_board", "sbc_openssl", "sbc_platform",
           "sbcbench"]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def _hook_profiles(config: pytest.Config) -> list[boards.BoardProfile]:
    out: list[boards.BoardProfile] = []
    for contributed in config.hook.pytest_sbcbench_boards(config=config):
        for item in contributed or ():
            if isinstance(item, boards.BoardProfile):
                out.append(item)
            elif isinstance(item, Mapping):
                out.append(boards.profile_from_dict(item, "pytest_sbcbench_boards hook"))
            else:
                raise pytest.UsageError(
                    f"pytest_sbcbench_boards returned {type(item).__name__}; "
                    "expected BoardProfile or a board JSON mapping")
    return out


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    try:
        settings = from_config(config)
        state = RunState(settings, _hook_profiles(config))
        _resolve_board(state)
        state.baseline = baselines.load_for_run(state)
    except SbcBenchError as exc:
        raise pytest.UsageError(str(exc)) from exc
    state.governor = GovernorGuard(settings.sysroot)
    if settings.performance:
        _set_performance(state)
    config.stash[STATE_KEY] = state


def _resolve_board(state: RunState) -> None:
    """A mismatch or an unreadable tree stops the run now; a host without /proc only defers
    (the plugin may be installed where no benchmark will run)."""
    try:
        _ = state.board
    except SysrootError:
        if state.settings.board is not None or state.settings.sysroot_given:
            raise


def _set_performance(state: RunState) -> None:
    guard = state.governor
    assert guard is not None
    if not guard.recorded:
        state.notes.append("--sbc-performance: no cpufreq or devfreq governor to set here")
        return
    guard.set_performance()
    if guard.errors and not guard.changed:
        raise pytest.UsageError("--sbc-performance could not set any governor (run as root?): "
                                + "; ".join(guard.errors))
    state.notes += [f"--sbc-performance: {e}" for e in guard.errors]


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE_KEY, None)
    if state is not None and state.governor is not None:
        state.governor.restore()
    if state is not None and state.terminal is not None:
        state.terminal.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    state = item.config.stash.get(STATE_KEY, None)
    if state is None:
        return (yield)
    run = None
    if runflow.is_workload(item):
        reporter = item.config.pluginmanager.get_plugin("terminalreporter")
        run = runflow.begin(item, state, reporter)
    try:
        outcome = yield
    except BaseException:
        runflow.end(item, state, run, failed=True)
        raise
    runflow.end(item, state, run, failed=False)
    return outcome


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    """Results recorded outside a sampled call phase are published without telemetry."""
    try:
        return (yield)
    finally:
        state = item.config.stash.get(STATE_KEY, None)
        if state is not None and state.pending.get(item.nodeid):
            runflow.finalize(item, state, None, [])


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(STATE_KEY, None)
    if state is None or (state.settings.board is None and not state.settings.sysroot_given):
        return None
    board = state.board
    return f"sbcbench: board {board.name} ({board.title}), sysroot {state.settings.sysroot.root}"


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(STATE_KEY, None)
    if state is None or not state.results:
        return
    terminal.write_summary(terminalreporter, state)


def pytest_sessionfinish(session: pytest.Session) -> None:
    state = session.config.stash.get(STATE_KEY, None)
    if state is None:
        return
    if state.started and state.settings.sysroot.is_host:
        runflow.check_real_clock(state, "after")
    doc = results_io.document(state) if state.results or session.testscollected else None
    if state.settings.results is not None and doc is not None:
        results_io.write_json_atomic(state.settings.results, doc)
    if state.settings.report_dir is not None and doc is not None:
        fleet_report.write(state, doc)
    if state.settings.save_baseline and doc is not None:
        baselines.save(state, doc["environment"],
                       interrupted=session.exitstatus == pytest.ExitCode.INTERRUPTED)

