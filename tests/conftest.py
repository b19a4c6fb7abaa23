"""Fixtures shared by the plugin's own tests (helpers live in ``helpers.py``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from widget import WIDGET

from helpers import (  # re-exported for test modules that still import them from conftest
    CPUINFO,
    DATA,
    REPO,
    RK3588_CPUINFO,
    RPI5_CPUINFO,
    STAR64_CPUINFO,
    build_tree,
    burn,
    star64_tree,
    write_files,
)

# Under pytest-xdist (the README's test command runs ``-n auto``) every worker has these in its
# environment, and the suite's inner pytest runs (pytester, subprocesses) would inherit them:
# pytest-benchmark then disables itself in every inner run, as on a real xdist worker.  The
# workers themselves keep what they need in their config (``workerinput``), not here.
for _name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
    os.environ.pop(_name, None)

# Imported once here, before any in-process pytester run: pytester puts sys.modules back as it
# was after each inner run, so a C extension first imported inside one (numpy, under
# matplotlib's charts or Otava's change points) would be initialised a second time by the next
# import, which numpy refuses (a RecursionError while importing otava, seen when the history
# tests followed an inner run).  matplotlib's figure machinery too: an inner run that drew a
# chart (``--sbc-report``) left pyplot's copy of it behind while the next import made new
# gridspec and axes classes, and the history's chart then failed "Single argument to subplot
# must be a three-digit integer" (test_options before test_history_changes).
for _module in ("numpy", "otava", "matplotlib", "matplotlib.figure", "matplotlib.pyplot",
                "matplotlib.ticker"):
    try:
        __import__(_module)
    except ImportError:  # an optional extra not installed: its tests skip
        pass

__all__ = ["CPUINFO", "DATA", "REPO", "RK3588_CPUINFO", "RPI5_CPUINFO", "STAR64_CPUINFO",
           "build_tree", "burn", "star64_tree", "write_files"]


@pytest.fixture
def star64(tmp_path: Path) -> Path:
    return star64_tree(tmp_path / "star64")


@pytest.fixture
def copy_benchmarks(pytester: pytest.Pytester) -> Callable[..., None]:
    """Put the repository's benchmarks/ modules (thin imports of the shipped suite) into the
    pytester directory: test_crypto.py by default."""
    def copy(*names: str) -> None:
        pytester.makeini("[pytest]\n")  # anchors the rootdir: test ids start at benchmarks/
        target = pytester.path / "benchmarks"
        target.mkdir(exist_ok=True)
        for name in names or ("test_crypto.py",):
            (target / name).write_text((REPO / "benchmarks" / name).read_text())
    return copy


@pytest.fixture
def widget(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
           ) -> Callable[..., pytest.RunResult]:
    """Write the widget test (``widget.py``) and return ``run(samples, *args, version="1")``:
    one in-process pytest run with baselines under ``bl/`` and no idle wait."""
    pytester.makepyfile(test_widget=WIDGET)

    def run(samples: str, *args: str, version: str = "1") -> pytest.RunResult:
        monkeypatch.setenv("WIDGET_SAMPLES", samples)
        monkeypatch.setenv("WIDGET_VERSION", version)
        return pytester.runpytest("--sbc-baselines", str(pytester.path / "bl"),
                                  "--sbc-idle-wait", "0", *args)
    return run


E2E_FILES = ("test_hostile_replay.py", "test_labgrid_compile.py", "test_gate_boots.py",
             "test_bisect.py", "test_loaded_host.py", "test_baseline_clean.py",
             "test_fleet_run.py", "test_history_standin.py",
             "test_labgrid.py", "test_labgrid_workloads.py", "test_labgrid_shell.py")
"""The long end-to-end files (a lab over sshd or a serial console, the offline crate built on a
board, the hostile replay, the hand-recorded gate): the ``e2e`` stage, run with ``--e2e``."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--e2e", action="store_true",
                     help="run only the long end-to-end tests (marked e2e; .ci/run's second "
                          "stage); without it they are deselected")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the end-to-end files and keep one stage a run: without ``--e2e`` those tests are
    deselected (said in the header), with it only they run."""
    for item in items:
        if item.path.name in E2E_FILES:
            item.add_marker(pytest.mark.e2e)
    want = bool(config.getoption("--e2e"))
    keep = [item for item in items if bool(item.get_closest_marker("e2e")) == want]
    gone = [item for item in items if bool(item.get_closest_marker("e2e")) != want]
    if gone:
        config.hook.pytest_deselected(items=gone)
        items[:] = keep


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--e2e"):
        return "stage: end-to-end tests only (--e2e)"
    return "stage: unit and integration tests; the end-to-end tests run with --e2e (.ci/run does)"
