"""The plugin's pytest hooks: thin glue between pytest and the run (:mod:`..run.session`).

Inert until used: in a project without benchmarks they register the options and markers and
do nothing else (no idle wait, no sampler, no subprocess, no cache writes).  A test is a
benchmark because it uses the plugin's fixtures (or is the shipped suite, which does), never
because of a marker name."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import TYPE_CHECKING, Any, TextIO

import pytest

from ..errors import SbcBenchError
from .hookspecs import register as register_hookspecs
from .items import is_benchmark, is_sampled, workload_of
from .options import add_options, check, explicit, settings_from
from .state import BUILD_KEY, existing, session_of, trial_of
from .xdist_guard import refuse_distributed, skip_distributed

if TYPE_CHECKING:
    from ..model import Result
    from ..platform.board import BoardProfile
    from ..platform.interrupts import Interrupts
    from ..run.lab import LabRun
    from ..run.session import Session
    from ..run.trial import Trial
    from ..settings import Settings
    from ..workload import Workload
    from ..workloads import Registry

def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    register_hookspecs(pluginmanager)


def _hook_profiles(config: pytest.Config) -> list[BoardProfile]:
    from ..platform import board as boards

    out: list[BoardProfile] = []
    try:  # an invalid profile built inside the hook (a BoardProfile validates its name)
        answers = config.hook.pytest_sbcbench_boards(config=config)
    except SbcBenchError as exc:
        raise pytest.UsageError(f"pytest_sbcbench_boards: {exc}") from exc
    for contributed in answers:
        for item in contributed or ():
            if isinstance(item, boards.BoardProfile):
                out.append(item)
            elif isinstance(item, Mapping):
                try:
                    out.append(boards.profile_from_dict(item, "pytest_sbcbench_boards hook"))
                except SbcBenchError as exc:
                    raise pytest.UsageError(str(exc)) from exc
            else:
                raise pytest.UsageError(
                    f"pytest_sbcbench_boards returned {type(item).__name__}; "
                    "expected BoardProfile or a board JSON mapping")
    return out


def _hook_workloads(config: pytest.Config) -> list[Workload]:
    out: list[Workload] = []
    answers = config.hook.pytest_sbcbench_workloads(config=config)
    if not any(answers):
        return out
    from ..workload import check_workloads

    for contributed in answers:
        try:
            out += check_workloads(list(contributed or ()), "pytest_sbcbench_workloads")
        except TypeError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return out


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Markers (declared data: no workload module is imported) and the options checked now;
    the run itself is built when something needs it (:mod:`.state`)."""
    from .. import workloads

    extra = _hook_workloads(config)
    for name, text in workloads.markers(extra).items():
        config.addinivalue_line("markers", f"{name}: {text}")
    values = check(config)
    lab = _lab(config)
    from .boots import check as check_boots

    check_boots(values["boots"], lab is not None, bool(values["save_baseline"]))
    profiles: list[BoardProfile] | None = None
    if config.hook.pytest_sbcbench_boards.get_hookimpls():
        profiles = _hook_profiles(config)  # a project implementing the hook uses the plugin
    config.stash[BUILD_KEY] = lambda: _build(config, settings_from(config, values), extra,
                                             profiles, lab)
    if extra:
        _ = session_of(config).registry  # contributed workloads: a clash is a usage error now
    if explicit(values):
        _activate(session_of(config), config)


def _lab(config: pytest.Config) -> LabRun | None:
    """labgrid's --lg-env: the run goes to that board (nothing imported without labgrid, or
    with labgrid's plugin loaded but no environment named: --lg-env, else LG_ENV)."""
    if config.getoption("sbc_lab_kernel") is None:
        if config.pluginmanager.get_plugin("labgrid") is None:
            return None  # first: without labgrid's plugin nothing of the lab is imported
        from ..platform.labgrid_env import named_env_file

        if not named_env_file(config.option):
            return None
    from ..run import lab

    return lab.from_config(config)


def _build(config: pytest.Config, settings: Settings, extra: list[Workload],
           profiles: list[BoardProfile] | None, lab: LabRun | None) -> Session:
    from .. import workloads
    from ..run.session import Session

    def registry() -> Registry:
        try:
            return workloads.build([extra])
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from exc

    def hook_profiles() -> list[BoardProfile]:
        return profiles if profiles is not None else _hook_profiles(config)
    return Session(settings, hook_profiles, registry, lab)


INTERRUPTS_KEY: pytest.StashKey[Interrupts] = pytest.StashKey()


def _activate(session: Session, config: pytest.Config) -> None:
    """Activate the run (output locations checked, board, baseline, governors); from now on
    SIGTERM, SIGHUP and SIGQUIT take pytest's Ctrl-C path (see :mod:`..platform.interrupts`)."""
    if session.active:
        return
    from ..platform.interrupts import Interrupts

    refuse_distributed(config)  # before anything is measured, on the controller or a worker

    interrupts = config.stash.setdefault(INTERRUPTS_KEY, Interrupts())
    interrupts.install()
    try:
        session.activate()
    except SbcBenchError as exc:
        raise pytest.UsageError(str(exc)) from exc


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A suite test asking for ``sbc_workload`` runs every workload registered for it."""
    if "sbc_workload" not in metafunc.fixturenames:
        return
    session = session_of(metafunc.config)
    found = session.registry.for_test(metafunc.function.__name__)
    if len(found) == 1 and not found[0].param:
        return  # one unparametrized workload: the fixture finds it by the function's name
    params = [pytest.param(w, id=w.param, marks=[getattr(pytest.mark, m) for m in w.markers])
              for w in found]
    if not params:
        reason = (f"no workload registered for {metafunc.function.__name__}: add one through "
                  "the pytest_sbcbench_workloads hook")
        params = [pytest.param(None, id="none", marks=pytest.mark.skip(reason=reason))]
    metafunc.parametrize("sbc_workload", params, indirect=True)


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> bool | None:
    """``--sbc-list``: print every registered workload (built-in, plugins', this project's)
    instead of collecting tests."""
    fmt = session.config.getoption("--sbc-list")
    if fmt is None:
        return None
    run = session_of(session.config)
    from ..run import suite

    table = suite.rows(run.registry, run.settings, run.target.executor, run.target.host)
    print(suite.render(table, fmt == "json"), flush=True)
    return True


@pytest.hookimpl(trylast=True)  # after -k and -m deselected: only selected tests count
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    benchmarks = [item for item in items if is_benchmark(item)]
    if benchmarks and not skip_distributed(config, benchmarks):
        session = session_of(config)
        _activate(session, config)
        from ..run.boot_cycle import plan_suite
        from ..run.queries import identity_preflight

        session.install(plan_suite(session, [item.nodeid for item in benchmarks]))
        selected = [(i.nodeid, workload_of(i)) for i in benchmarks]
        try:
            _warn(config, identity_preflight(session, selected))
        except SbcBenchError as exc:
            raise pytest.UsageError(str(exc)) from exc


def _warn(config: pytest.Config, lines: list[str]) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    for line in lines:
        reporter.write_line(f"sbcbench: {line}", yellow=True)


TERMINAL_KEY: pytest.StashKey[TextIO] = pytest.StashKey()


def _terminal(config: pytest.Config) -> TextIO | None:
    """The terminal the tests' status lines write to (opened once; closed at unconfigure),
    when pytest's reporter writes to a terminal."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or reporter.verbosity < 0 or not reporter.isatty:
        return None
    terminal = config.stash.get(TERMINAL_KEY, None)
    if terminal is None:
        from ..report.progress import open_terminal

        terminal = open_terminal()
        if terminal is not None:
            config.stash[TERMINAL_KEY] = terminal
    return terminal


def _publish(item: pytest.Item) -> Any:
    """Each judged result goes to the ``pytest_sbcbench_result`` hook and, as JUnit properties
    (metric, unit, median, change %, tolerance %, verdict), into ``--junitxml``."""
    def publish(result: Result) -> None:
        from ..report.junit import junit_properties

        item.user_properties.extend(junit_properties(result))
        item.config.hook.pytest_sbcbench_result(config=item.config, result=result)
    return publish


def _end_watch(item: pytest.Item, trial: Trial, failed: bool) -> None:
    """The trial ends (sampler stopped, verdicts given); a failing verdict fails the test
    unless it already failed on its own."""
    from ..report.progress import line_end_column

    message = trial.end(line_end_column(item.config), _publish(item))
    if message and not failed:
        pytest.fail(message, pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    session, trial = existing(item.config), trial_of(item)
    if session is None or not session.active or trial is None or not is_sampled(item):
        return (yield)
    trial.start(item.name, _terminal(item.config))
    try:
        outcome = yield
    except BaseException:
        _end_watch(item, trial, failed=True)
        raise
    _end_watch(item, trial, failed=False)
    return outcome


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, object, object]:
    """Results recorded outside a sampled call phase (a fixture's teardown, an unsampled test)
    are published without telemetry, and a failing verdict fails the test here, in teardown:
    an implausible number recorded after ``yield`` is never a green test."""
    try:
        outcome = yield
    except BaseException:
        _finalize_unsampled(item)  # published; the teardown's own error is what is reported
        raise
    message = _finalize_unsampled(item)
    if message:
        pytest.fail(message, pytrace=False)
    return outcome


def _finalize_unsampled(item: pytest.Item) -> str | None:
    trial = trial_of(item)
    if trial is None or not trial.recorder.pending.get(item.nodeid):
        return None
    return trial.verdicts(None, [], _publish(item))


def pytest_report_header(config: pytest.Config) -> str | None:
    session = existing(config)
    if session is None or not session.active or not session.lookup.resolved:
        return None
    if session.settings.board is None and not session.settings.sysroot_given:
        return None
    board = session.board
    return (f"sbcbench: board {board.name} ({board.title}), sysroot "
            f"{session.settings.sysroot.root}")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session = existing(config)
    if session is None or not session.recorder.results:
        return
    from ..report import terminal
    from ..run.queries import summary

    s = summary(session)
    terminal.write_summary(terminalreporter, s.board, s.title, s.results, s.extra,
                           s.results_path, s.saved, s.suite, s.saving, s.results_unwritten)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = existing(config)
    try:
        failures = session.close() if session is not None else []
        if failures:
            import sys

            print("\n".join(f"sbcbench: {f}" for f in failures), file=sys.stderr)
        terminal = config.stash.get(TERMINAL_KEY, None)
        if terminal is not None:
            terminal.close()
    finally:
        interrupts = config.stash.get(INTERRUPTS_KEY, None)
        if interrupts is not None:
            interrupts.uninstall()
