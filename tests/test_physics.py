"""The physics gate (``judge/physics.py``): a figure no board can reach is implausible, in a
pytest run and offline alike."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.judge import physics
from pytest_sbcbench.model import Identity, Measurement, Result, Summary, Verdict
from pytest_sbcbench.platform.board import builtin_profiles

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
    """Review round 2, H1: a result recorded after the call phase was judged implausible in the
    summary while the test stayed green (the teardown wrapper dropped the failure message)."""
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


@pytest.mark.parametrize("value", ["abc", [1], -1.0, float("nan")])
def test_physics_refuses_a_ceiling_that_is_not_a_number(value: Any) -> None:
    """Defensive: a result built in process (not through the loader) never reaches
    ``float()`` or a comparison with a ceiling that is not a positive number."""
    m = Measurement("storage-read", "B/s", "higher", Identity.of(tool="sbcbench-storage"),
                    (20e6,))
    result = Result("t", m, Summary(1, 20e6, 20e6, 0.0, 0.0), Verdict("no-baseline", ""),
                    {"interface_limit_bytes_per_s": value})
    with pytest.raises(SbcBenchError, match="not a finite number above 0"):
        physics.check(result, {p.name: p for p in builtin_profiles()}["star64"])
