"""``sbcbench validate`` (and the physics gate under it) does not take a results file's
``threads`` beyond the board's cores (issue 23 item 20): 5 TB/s of sha256 on a 4-core Star64
stays implausible when the file claims 1000 threads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict

TEST = "benchmarks/test_crypto.py::test_digest[sha256]"


def results_file(tmp_path: Path, threads: int, rate: float) -> Path:
    identity = Identity.of(tool="openssl", version="3.0.19", algorithm="sha256",
                           block_bytes=16384, threads=threads, seconds=1)
    m = Measurement("sha256", "B/s", "higher", identity, (rate, rate))
    row = Result(TEST, m, summarize((rate, rate)), Verdict("no-baseline", "")).as_dict()
    path = tmp_path / f"run-{threads}.json"
    path.write_text(json.dumps({"schema": "sbcbench-results/1", "board": "star64",
                                "created": "x", "environment": {}, "results": [row]}))
    return path


@pytest.mark.parametrize("threads", [4, 5, 1000])
def test_threads_beyond_the_cores_buy_no_ceiling(tmp_path: Path, threads: int,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(results_file(tmp_path, threads, 5e12)),
                 "--board", "star64"]) == 1
    out = capsys.readouterr().out
    assert "implausible  " + TEST in out
    assert "per thread x 4 threads" in out  # the Star64's 4 cores, whatever the file says
    if threads > 4:
        assert f"the 4 cores of star64; the result claims {threads} threads" in out


def test_a_real_four_thread_figure_still_passes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """4 x 1.3 GB/s (a fast SHA-256 core) is well inside 4 cores' ceiling."""
    assert main(["validate", str(results_file(tmp_path, 1000, 5.2e9)),
                 "--board", "star64"]) == 0
    assert "ok           " + TEST in capsys.readouterr().out
