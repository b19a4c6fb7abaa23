"""``sbcbench parse openssl``: a captured ``openssl speed`` log printed as results, and figures
no tool can have printed refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_sbcbench.cli import main

MR_SHA256 = "+H:16:64:256:1024:8192:16384\n+F:6:sha256:{}\n"
RSA_MR = "+DTP:2048:private:rsa:10\n+R1:9881:2048:10.00\n+F2:2:2048:{}:{}\n"


def parse(tmp_path: Path, log: str, *args: str) -> int:
    """``sbcbench parse openssl`` over ``log``, written to a file first."""
    path = tmp_path / "speed.log"
    path.write_text(log)
    return main(["parse", "openssl", str(path), *args])


@pytest.mark.parametrize(("cells", "said"), [
    ("nan:1:2:3:4:5", "sha256 16: NaN B/s is not a number"),
    ("1e6:2e6:3e6:4e6:5e6:-5.00", "sha256 16384: -5 B/s is not positive"),
    ("1e6:2e6:3e6:4e6:5e6:1e300", "sha256 16384: 1e+300 B/s is outside the believable range"),
    ("1e6:2e6:3e6:4e6:5e6:inf", "sha256 16384: inf B/s is infinite"),
])
def test_parse_refuses_impossible_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          cells: str, said: str) -> None:
    """Review round 2, M10: nan, -5.00 and 1e300 B/s were printed as results with exit status 0."""
    assert parse(tmp_path, MR_SHA256.format(cells)) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == ""


def test_parse_leaves_out_what_openssl_printed_as_zero(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.00 is how ``openssl speed`` prints an algorithm it did not run: not a result (it was
    printed as one with exit 0), and not an error either (real full-speed logs have them)."""
    log = MR_SHA256.format("0:0:0:0:0:0") + "+F:6:md5:1e6:2e6:3e6:4e6:5e6:6e6\n"
    assert parse(tmp_path, log, "--json") == 0
    captured = capsys.readouterr()
    parsed = json.loads(captured.out)
    assert {r["algorithm"] for r in parsed["results"]} == {"md5"}
    assert parsed["notes"] == ["left out, printed as 0 (not run or not built into this "
                               "openssl): sha256"]
    assert "note: left out, printed as 0" in captured.err


def test_parse_prints_small_rates_with_significant_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review round 2, M10: with 1.0.2k (seconds per operation) a slow rate printed as "0.00
    op/s"."""
    log = RSA_MR.format("300.0", "0.5")  # 300 s per sign, 0.5 s per verify
    assert parse(tmp_path, log, "--openssl-version", "1.0.2k") == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["rsa2048", "sign", "0.00333333"] in rows and ["rsa2048", "verify", "2"] in rows


@pytest.mark.parametrize(("given", "unit"), [
    ("OpenSSL 1.1.1w  11 Sep 2023", "op/s"),  # what 'openssl version' prints
    ("OpenSSL 3.0.2 15 Mar 2022 (Library: OpenSSL 3.0.2 15 Mar 2022)", "op/s"),
    ("1.1.1w", "op/s"),
    ("OpenSSL 1.0.2k-fips  26 Jan 2017", "s/op"),
    ("LibreSSL 2.8.3", "s/op"),
])
def test_openssl_version_accepts_the_banner(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            given: str, unit: str) -> None:
    """Review round 2, M10: the real banner failed with "names no OpenSSL version"."""
    log = (RSA_MR.format("988.1", "32216.5") if unit == "op/s"
           else RSA_MR.format("0.001", "0.0001"))
    assert parse(tmp_path, log, "--openssl-version", given, "--json") == 0
    rates = {r["op"]: r["per_second"] for r in json.loads(capsys.readouterr().out)["results"]}
    assert rates == ({"sign": 988.1, "verify": 32216.5} if unit == "op/s"
                     else {"sign": 1000.0, "verify": 10000.0})


def test_openssl_version_naming_no_version_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse(tmp_path, RSA_MR.format("988.1", "32216.5"), "--openssl-version", "banana")
    assert exited.value.code == 2
    assert "'banana' names no OpenSSL version" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_parse_refuses_a_log_that_is_no_regular_file(tmp_path: Path, kind: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23, item 9: a FIFO given as the log hung ``sbcbench parse``, ``/dev/zero`` was read
    until memory ran out; both are refused before a byte is read (exit 2, naming the file)."""
    log = tmp_path / "speed.log"
    if kind == "fifo":
        os.mkfifo(log)
    else:
        log.symlink_to(kind)
    assert main(["parse", "openssl", str(log)]) == 2
    assert f"{log}: unreadable openssl speed log: is a" in capsys.readouterr().err
