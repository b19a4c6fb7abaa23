"""Names that become paths: board names, hook profiles, chart and trace file names."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pytest_sbcbench.errors import BoardError
from pytest_sbcbench.judge.baseline import baseline_path
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.platform.board import (
    BoardProfile,
    Cluster,
    check_board_name,
    known_profiles,
    merge,
)
from pytest_sbcbench.report import fleet
from pytest_sbcbench.report.charts import chart_stem, write_charts
from pytest_sbcbench.report.trace import safe_name


@pytest.mark.parametrize("name", [
    "star64\n", "../../escaped-board", "a/b", "", "Star64", "x" * 65, ".", "..", "star64 ",
])
def test_invalid_board_names_are_refused(name: str) -> None:
    with pytest.raises(BoardError, match="invalid board name"):
        check_board_name(name)


def test_valid_board_names_pass() -> None:
    assert [check_board_name(n) for n in ("star64", "generic-x86_64", "rk3588-a76")] == \
        ["star64", "generic-x86_64", "rk3588-a76"]


def test_a_hook_profile_cannot_escape_the_baselines_directory(tmp_path: Path) -> None:
    """The reported escape: a hook's ``../../escaped-board`` profile saved its baseline
    outside --sbc-baselines.  A profile with such a name cannot even be built."""
    with pytest.raises(BoardError, match=r"invalid board name '\.\./\.\./escaped-board'"):
        BoardProfile(name="../../escaped-board", title="t", soc="s", arch="aarch64",
                     clusters=(Cluster(4, "A55", 1800.0),))
    good = BoardProfile(name="hooked", title="t", soc="s", arch="aarch64",
                        clusters=(Cluster(4, "A55", 1800.0),))
    profiles = known_profiles(tmp_path, [good])
    assert profiles["hooked"] is good
    assert baseline_path(tmp_path, "hooked").parent == tmp_path
    with pytest.raises(BoardError, match="not a BoardProfile"):
        merge([{"name": "../../x"}])  # type: ignore[list-item]


def test_trace_names_are_unique_and_contained() -> None:
    ids = ["tests/a/b.py::test", "tests/a_b.py::test", "tests_a/b.py::test",
           "t.py::test[" + "x" * 300 + "1]", "t.py::test[" + "x" * 300 + "2]",
           "../../etc/passwd", "..", "/abs::t"]
    names = [safe_name(i) for i in ids]
    assert len(set(names)) == len(ids)
    for name in names:
        assert "/" not in name and not name.startswith(".") and len(name) <= 131
    # a readable stem and the first 10 hex digits of the id's SHA-256: a/b and a_b share
    # their stem, never their name
    assert names[:2] == ["tests_a_b.py_test-1be96a720b", "tests_a_b.py_test-f0e1cb9a7e"]
    assert safe_name("benchmarks/test_crypto.py::test_digest[sha512]").startswith(
        "benchmarks_test_crypto.py_test_digest_sha512-")


@pytest.mark.parametrize(("name", "stem"), [
    ("gap-0-/../../x", "gap-0-_.._.._x"), ("gap-1-star64", "gap-1-star64"), ("../", "chart"),
])
def test_chart_stems_are_contained(name: str, stem: str) -> None:
    assert chart_stem(name) == stem


def entry(board: str, metric: str, value: float) -> fleet.FleetEntry:
    identity = Identity.of(tool="openssl", version="3.0.19", algorithm=metric,
                           block_bytes=16384, threads=1, seconds=3)
    samples = (value, value)
    m = Measurement(metric, "B/s", "higher", identity, samples)
    result = Result(f"t::{metric}", m, summarize(samples), Verdict("pass", ""))
    return fleet.FleetEntry(board, result)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="charts need the 'plot' extra (pip install pytest-sbcbench[plot])")
def test_charts_stay_in_the_output_directory(tmp_path: Path) -> None:
    """The reported escape: a board named ``/../../x`` in a results file put a gap chart
    outside --out.  (Loaders refuse such names now; the chart names are contained anyway.)"""
    out = tmp_path / "deep" / "out"
    entries = [entry(b, m, v) for b, scale in (("ref", 2.0), ("/../../x", 1.0))
               for m, v in (("sha512", 300e6 * scale), ("aes-128-gcm", 900e6 * scale))]
    written = write_charts(entries, out, "ref")
    assert written and all(p.parent == out for p in written)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == \
        sorted(p.name for p in written)


ESCAPING_HOOK = """
from pytest_sbcbench.platform.board import BoardProfile, Cluster

def pytest_sbcbench_boards(config):
    return [BoardProfile(name="../../escaped-board", title="t", soc="s", arch="x86_64",
                         clusters=(Cluster(2, "c", None),))]
"""
ESCAPING_MAPPING = """
def pytest_sbcbench_boards(config):
    return [{"schema": "sbcbench-board/1", "name": "../../escaped-board", "title": "t",
             "soc": "s", "arch": "x86_64", "clusters": [{"cores": 2, "core": "c"}]}]
"""


@pytest.mark.parametrize("conftest", [ESCAPING_HOOK, ESCAPING_MAPPING], ids=["profile", "mapping"])
def test_an_escaping_hook_profile_stops_the_run(pytester: pytest.Pytester, conftest: str) -> None:
    """The reported run: ``--board ../../escaped-board`` from a hook wrote its baseline two
    levels above --sbc-baselines.  Now the run stops before any test, and nothing is written."""
    pytester.makeconftest(conftest)
    pytester.makepyfile("def test_x():\n    pass\n")
    baselines = pytester.path / "a" / "b" / "bl"
    baselines.mkdir(parents=True)
    result = pytester.runpytest("--sbc-baselines", str(baselines), "--sbc-save-baseline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid board name '../../escaped-board'*"])
    assert [p for p in (pytester.path / "a").rglob("*") if p.is_file()] == []
