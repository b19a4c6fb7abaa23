"""Fixtures shared by the plugin's own tests (helpers live in ``helpers.py``)."""

from __future__ import annotations

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
