"""Review findings of round 2: each test failed before its fix (named in the test's docstring)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SbcBenchError, SchemaError
from pytest_sbcbench.judge import physics
from pytest_sbcbench.model import Identity, Measurement, Result, Summary, Verdict
from pytest_sbcbench.platform.board import builtin_profiles
from pytest_sbcbench.report.results import load_results

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


def storage_results(tmp_path: Path, where: str, value: Any) -> Path:
    """A results file of one storage-write result with ``value`` as its interface ceiling in
    ``where`` (``details`` or ``telemetry``)."""
    entry: dict[str, Any] = {
        "test": "benchmarks/test_storage.py::test_sequential", "metric": "storage-write",
        "unit": "B/s", "better": "higher",
        "identity": {"tool": "sbcbench-storage", "size_bytes": 268435456},
        "samples": [20e6, 21e6], "details": {}, "telemetry": {}}
    entry[where]["interface_limit_bytes_per_s"] = value
    doc = {"schema": "sbcbench-results/1", "board": "star64", "created": "x",
           "environment": {}, "results": [entry]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("where", ["details", "telemetry"])
@pytest.mark.parametrize("value", ["abc", [1], -5e6, 0, True, {"x": 1}])
def test_a_malformed_storage_ceiling_is_a_schema_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, value: Any) -> None:
    """M9: ``sbcbench validate`` crashed with a traceback on "abc" or [1] and printed
    "limit -0.00 MB/s" for a negative ceiling."""
    path = storage_results(tmp_path, where, value)
    with pytest.raises(SchemaError, match=f"{where} interface_limit_bytes_per_s must be a "
                                          "finite number above 0"):
        load_results(path)
    assert main(["validate", str(path), "--board", "star64"]) == 2
    err = capsys.readouterr().err
    assert "interface_limit_bytes_per_s" in err and "Traceback" not in err


def test_a_good_storage_ceiling_still_judges(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = storage_results(tmp_path, "telemetry", 10e6)  # below the 20 MB/s samples
    assert main(["validate", str(path), "--board", "star64"]) == 1
    assert "storage-write 21.00 MB/s beats physics" in capsys.readouterr().out


@pytest.mark.parametrize("clock", ["fast", {"max": "2000"}, {"max": -1}, [1500]])
def test_a_malformed_sampled_clock_is_a_schema_error(tmp_path: Path, clock: Any) -> None:
    path = storage_results(tmp_path, "telemetry", None)
    doc = json.loads(path.read_text())
    doc["results"][0]["telemetry"]["clock_mhz"] = clock
    path.write_text(json.dumps(doc))
    with pytest.raises(SchemaError, match="clock_mhz"):
        load_results(path)


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
