"""The results file (``--sbc-results``, ``report/results.py``): every field of a result round
trips, what its loader refuses, what it says of an interrupted run, and ``sbcbench validate``
over it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.report.results import RESULTS_SCHEMA, load_results, write_json_atomic


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
    """Review round 2, M9: ``sbcbench validate`` crashed with a traceback on "abc" or [1] and
    printed "limit -0.00 MB/s" for a negative ceiling."""
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


WIDGET_THEN_CTRL_C = """
from pytest_sbcbench.model import Identity, Measurement

def test_widget(sbcbench):
    identity = Identity.of(tool="widget", version="1")
    sbcbench.record(Measurement("widget", "op/s", "higher", identity, (100.0, 101.0)))

def test_zz_ctrl_c():
    raise KeyboardInterrupt
"""


def test_an_interrupted_run_says_so_in_its_results(
        pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]) -> None:
    """Review round 2, L17: the results JSON of an interrupted run looked complete."""
    pytester.makepyfile(test_widget=WIDGET_THEN_CTRL_C)
    cut, whole = pytester.path / "cut.json", pytester.path / "whole.json"
    args = ("--sbc-idle-wait", "0", "--sbc-baselines", str(pytester.path / "bl"))
    result = pytester.runpytest_subprocess(*args, "--sbc-results", str(cut))
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert json.loads(cut.read_text())["interrupted"] is True
    assert load_results(cut).interrupted
    pytester.runpytest_subprocess(*args, "--sbc-results", str(whole), "test_widget.py::test_widget"
                                  ).assert_outcomes(passed=1)
    assert json.loads(whole.read_text())["interrupted"] is False
    assert not load_results(whole).interrupted
    capsys.readouterr()
    assert main(["compare", str(whole), str(cut)]) == 6  # one boot a side: undecided
    assert f"note: {cut} is from an interrupted run" in capsys.readouterr().out
    assert main(["compare", str(cut), str(whole)]) == 6
    out = capsys.readouterr().out  # the earlier run as the baseline: said too
    assert f"note: {cut} is from an interrupted run" in out and str(whole) not in out
    assert main(["report", str(whole), str(cut), "--baselines", str(pytester.path / "bl")]) == 0
    err = capsys.readouterr().err
    assert f"note: {cut} is from an interrupted run" in err and str(whole) not in err


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_interrupted_must_be_a_boolean(tmp_path: Path, value: Any) -> None:
    path = storage_results(tmp_path, "details", None)
    doc = json.loads(path.read_text())
    doc["interrupted"] = value
    path.write_text(json.dumps(doc))
    with pytest.raises(SchemaError, match="interrupted must be true or false"):
        load_results(path)


def test_validate_accepts_the_generic_board_the_run_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run on an unrecognised machine is judged as ``generic-<arch>``: validate accepts
    that name, rebuilding the profile from the results file's environment."""
    doc = {"schema": "sbcbench-results/1", "board": "generic-x86_64", "created": "x",
           "environment": {"arch": "x86_64", "cpu_model": "AMD EPYC", "cpus": 2},
           "results": [{"test": "t::test_digest[sha512]", "metric": "sha512", "unit": "B/s",
                        "better": "higher",
                        "identity": {"tool": "openssl", "algorithm": "sha512",
                                     "block_bytes": 16384, "threads": 1},
                        "samples": [1.37e9], "telemetry": {}}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    assert main(["validate", str(path), "--board", "generic-x86_64"]) == 0
    assert "1 result, 0 implausible on generic-x86_64" in capsys.readouterr().out
    assert main(["validate", str(path), "--board", "no-such-board"]) == 2
    assert "unknown board 'no-such-board'" in capsys.readouterr().err


def written_and_read(tmp_path: Path, *results: dict[str, Any]) -> list[Result]:
    path = tmp_path / "r.json"
    write_json_atomic(path, {"schema": RESULTS_SCHEMA, "board": "star64",
                             "created": "2026-11-30T10:00:00+00:00", "environment": {},
                             "results": list(results)})
    return load_results(path).results


def assert_not_default(obj: object) -> None:
    """Every field with a default holds something else: a field the round trip forgets
    cannot pass unnoticed because the test left it at its default."""
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING \
            else f.default
        if default is not dataclasses.MISSING:
            assert getattr(obj, f.name) != default, f"{f.name} left at its default"


def test_results_file_round_trips_every_field_of_a_result(tmp_path: Path) -> None:
    """Label and workload details are written and read back, not rebuilt (before, labels were
    rebuilt for ``op`` identities only and details were lost)."""
    m = Measurement("memory-read", "B/s", "higher",
                    Identity.of(tool="sbcbench-stream", kernel="read", threads=1,
                                compiler="cc", compiler_version="cc (Debian 12.2.0-14) 12.2.0",
                                flags="-O3", buffer_bytes=2**26, llc_bytes=2**24, quick=False),
                    (9639644705.0, 9512345678.5), label="memory-read (64 MiB)",
                    details={"llc_source": "sysfs cache topology", "buffer_llc_multiple": 4.0,
                             "runs": [{"wall_s": 1.5}], "interface_limit_bytes_per_s": None})
    original = Result("benchmarks/test_memory.py::test_stream", m, summarize(m.samples),
                      Verdict("implausible", "memory-read beats physics"),
                      {"clock_mhz": {"max": 1500.0}, "findings": []})
    assert_not_default(m)
    assert_not_default(original)
    (loaded,) = written_and_read(tmp_path, original.as_dict())
    assert loaded == original
    for f in dataclasses.fields(Measurement):
        assert getattr(loaded.measurement, f.name) == getattr(m, f.name), f.name


def test_results_without_labels_keep_the_old_rule(tmp_path: Path) -> None:
    """Files written before labels were stored: ``metric op`` for rates, else the metric."""
    rate = Measurement("rsa2048", "op/s", "higher", Identity.of(tool="openssl", op="sign"),
                       (988.1,), label="rsa2048 sign")
    plain = Measurement("sha256", "B/s", "higher", Identity.of(tool="openssl"), (1e9,))
    old = []
    for m in (rate, plain):
        record = Result("t", m, summarize(m.samples), Verdict("pass", "")).as_dict()
        del record["label"], record["details"]
        old.append(record)
    loaded = written_and_read(tmp_path, *old)
    assert [r.measurement.label for r in loaded] == ["rsa2048 sign", "sha256"]
    assert [dict(r.measurement.details) for r in loaded] == [{}, {}]
