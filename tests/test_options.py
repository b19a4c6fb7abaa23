"""The plugin's options (``settings.py``): values out of range are usage errors."""

from __future__ import annotations

import pytest

from pytest_sbcbench.settings import positive_int


@pytest.mark.parametrize("runs", ["1001", "100000000"])
def test_runs_beyond_the_cap_are_a_usage_error(pytester: pytest.Pytester, runs: str) -> None:
    """Review round 2, L18: ``--sbc-runs 100000000`` was accepted (weeks of runs from a typo)."""
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest(f"--sbc-runs={runs}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-runs*'{runs}' is too many runs: at most 1000*"])


def test_runs_at_the_cap_are_accepted() -> None:
    assert positive_int("1000") == 1000 and positive_int("1") == 1
