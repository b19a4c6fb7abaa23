"""Statistics, the summary table and atomic results writing."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict, display
from pytest_sbcbench.report.results import RESULTS_SCHEMA, load_results, write_json_atomic
from pytest_sbcbench.report.terminal import table


def test_summary_of_the_seeds_pinned_runs() -> None:
    """Star64 pinned tier: 458.17, 463.08, 462.59 s -> mean 461.28, median 462.59, 0.59% CV.

    The seed's sigma 2.71 came from unrounded times; the rounded runs give 2.70."""
    s = summarize([458.17, 463.08, 462.59])
    assert round(s.mean, 2) == 461.28 and s.median == 462.59
    assert s.stdev == pytest.approx(2.71, abs=0.011) and round(100 * s.cv, 2) == 0.59


def test_single_sample_has_zero_spread() -> None:
    s = summarize([5.0])
    assert (s.n, s.stdev, s.cv) == (1, 0.0, 0.0)
    with pytest.raises(ValueError):
        summarize([])


def test_display_units() -> None:
    assert display(21.7e6, "B/s") == ("21.70", "MB/s")
    assert display(2185.7e6, "B/s") == ("2,185.7", "MB/s")
    assert display(16917.2, "op/s") == ("16,917.2", "op/s")


def test_table_rows() -> None:
    m = Measurement("aes-128-gcm", "B/s", "higher", Identity.of(tool="openssl"), (21.7e6, 21.8e6))
    r = Result("benchmarks/test_crypto.py::test_cipher[aes-128-gcm]", m, summarize(m.samples),
               Verdict("no-baseline", "x"))
    lines = table([r])
    assert lines[0].split() == ["test", "metric", "tool", "median", "unit", "CV", "%", "n",
                                "at", "max", "verdict"]
    assert lines[2].split() == ["test_cipher[aes-128-gcm]", "aes-128-gcm", "openssl", "21.75",
                                "MB/s", "0.33", "2", "-", "no-baseline"]


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out" / "r.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"b": 2})
    assert json.loads(target.read_text()) == {"b": 2}
    assert os.listdir(target.parent) == ["r.json"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text('{"old": true}\n')
    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": object()})
    assert target.read_text() == '{"old": true}\n'
    assert os.listdir(tmp_path) == ["r.json"]


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
