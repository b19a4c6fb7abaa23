"""Review findings of round 2: each test failed before its fix (named in the test's docstring)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

LATE_RECORD = """
import pytest
from pytest_sbcbench.model import Identity, Measurement

@pytest.fixture
def late(sbcbench):
    yield
    identity = Identity.of(tool="openssl", version="3.0.19", algorithm="sha256",
                           block_bytes=16384, threads=1)
    sbcbench.record(Measurement("sha256", "B/s", "higher", identity, (5e12, 5e12)))

def test_late(late):
    pass
"""


def test_an_implausible_result_recorded_in_teardown_fails_the_test(
        pytester: pytest.Pytester) -> None:
    """H1: a result recorded after the call phase was judged implausible in the summary while
    the test stayed green (the teardown wrapper dropped the failure message)."""
    pytester.makepyfile(test_late=LATE_RECORD)
    out = pytester.path / "r.json"
    result = pytester.runpytest("--sbc-idle-wait", "0", "--sbc-results", str(out))
    result.assert_outcomes(passed=1, errors=1)  # the call passed; its teardown failed
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_late*",
                                 "*implausible: sha256 5,000,000.0 MB/s beats physics*"])
    (entry,) = json.loads(out.read_text())["results"]
    assert entry["verdict"]["status"] == "implausible"
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_plausible_result_recorded_in_teardown_passes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_late=LATE_RECORD.replace("5e12, 5e12", "1e9, 1.01e9"))
    result = pytester.runpytest("--sbc-idle-wait", "0")
    result.assert_outcomes(passed=1)
