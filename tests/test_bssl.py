"""``bssl speed`` (BoringSSL, AWS-LC) read from real outputs: AWS-LC on a Graviton 2
(hanno-becker/aws-lc), FIPS BoringSSL (envoyproxy/envoy#19037), BoringSSL on the OQS profiling
platform (open-quantum-safe/profiling#28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import DATA
from pytest_sbcbench.errors import ParseError, ToolError
from pytest_sbcbench.measure.bssl import (
    bssl_tool,
    measure_aead_seal,
    parse_bssl_speed,
    parse_version_output,
)
from pytest_sbcbench.platform.executor import default_executor
from pytest_sbcbench.platform.host import LocalHost
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.workload import Context

BSSL = DATA / "bssl_speed"
AWSLC = "aws-lc-5ede432_graviton2_evp-aes-gcm-128-192-256.txt"
FIPS = "boringssl-fips_envoy-19037_ecdsa-ed25519-hrss.txt"
FIPS_AEAD = "boringssl-fips_envoy-19037_aead-seal-sizes.txt"
OQS = "boringssl_oqs-profiling-28_rsa-ed25519.txt"
# a line of the same AWS-LC file's SLOTHY block, which its author annotated by hand
ANNOTATED = ("Did 8048750 EVP-AES-128-GCM encrypt (16 bytes) operations in 1000013us "
             "(8048645.4 ops/sec):   128.8 MB/s    + 8.4%")


def read(name: str) -> str:
    return (BSSL / name).read_text()


# (file, name, chunk bytes, ops/sec, MB/s or None)
CELLS = [
    (AWSLC, "EVP-AES-128-GCM encrypt", 16384, 137162.3, 2247.3),
    (AWSLC, "EVP-AES-256-GCM encrypt", 1350, 1167498.0, 1576.1),
    (AWSLC, "EVP-AES-192-GCM encrypt init", None, 4637758.8, None),
    (FIPS_AEAD, "AES-128-GCM seal", 16384, 273588.8, 4482.5),  # 'AES-128-GCM (16384 bytes) seal'
    (FIPS_AEAD, "ChaCha20-Poly1305 seal", 16, 3760300.6, 60.2),
    (FIPS, "ECDSA P-256 signing", None, 38935.0, None),
    (FIPS, "scrypt (N = 16384, r = 8, p = 1)", None, 3.4, None),
    (OQS, "RSA 2048 verify (fresh key)", None, 29552.8, None),
]


@pytest.mark.parametrize(("name", "what", "block", "rate", "mbps"), CELLS)
def test_known_results(name: str, what: str, block: int | None, rate: float,
                       mbps: float | None) -> None:
    result = parse_bssl_speed(read(name)).find(what, block)
    assert result is not None and result.ops_per_second == pytest.approx(rate)
    if mbps is None:
        assert result.bytes_per_second is None
    else:
        assert result.bytes_per_second == pytest.approx(mbps * 1e6)  # 10^6 bytes, not MiB


def test_every_line_is_a_result_with_its_counts() -> None:
    report = parse_bssl_speed(read(AWSLC))
    assert len(report.results) == 18
    first = report.results[1]
    assert (first.calls, first.microseconds, first.block_bytes) == (7403000, 1000006, 16)
    assert {r.block_bytes for r in report.results} == {None, 16, 256, 1350, 8192, 16384}


def test_a_rate_its_counts_do_not_give_is_an_error() -> None:
    text = read(OQS).replace("(1406.7 ops/sec)", "(1506.7 ops/sec)")
    with pytest.raises(ParseError, match=r"1506\.7 ops/sec is not 1428 calls in 1015147 us"):
        parse_bssl_speed(text)


def test_a_throughput_its_counts_do_not_give_is_an_error() -> None:
    text = read(FIPS_AEAD).replace("4482.5 MB/s", "4428.5 MB/s")
    with pytest.raises(ParseError, match=r"4428\.5 MB/s is not 274000 calls of 16384 bytes"):
        parse_bssl_speed(text)


def test_a_did_line_of_another_shape_is_refused() -> None:
    with pytest.raises(ParseError, match="is not 'Did N <description> operations in Tus"):
        parse_bssl_speed(ANNOTATED + "\n")


def test_one_description_with_two_results_is_refused() -> None:
    other = ("Did 1400 RSA 2048 signing operations in 1015147us (1379.1 ops/sec)\n")
    with pytest.raises(ParseError, match="printed twice with different results"):
        parse_bssl_speed(read(OQS) + other)


def test_no_result_is_an_error() -> None:
    with pytest.raises(ParseError, match="no 'Did N"):
        parse_bssl_speed("Usage: bssl speed [speed test selector, i.e. 'RNG']\n")


def test_a_debug_build_is_said() -> None:
    report = parse_bssl_speed("Benchmarking in debug mode.\n" + read(OQS))
    assert report.notes and "debug build" in report.notes[0]


def test_the_library_and_its_version() -> None:
    """AWS-LC's ``bssl version`` prints its version number; BoringSSL's bssl has no version
    command: it prints its usage (``Usage: bssl COMMAND`` and the command list) and exits 1."""
    assert parse_version_output("1.49.0\n", 0) == ("AWS-LC", "1.49.0")
    usage = "Usage: bssl COMMAND\n\nAvailable commands:\n    ciphers\n    speed\n"
    assert parse_version_output(usage, 1) == ("BoringSSL",
                                             "unknown (bssl has no version command)")
    with pytest.raises(ParseError):
        parse_version_output("OpenSSL 3.0.22\n", 0)


AEAD_CAPTURE = BSSL / "aws-lc-652f7a9_ec2-c6a-zen3_aead-aes-128-gcm-seal-open.txt"


def stand_in(tmp_path: Path, version: str, capture: Path) -> Path:
    """A stand-in ``bssl`` (no BoringSSL or AWS-LC on this machine): ``version`` prints
    ``version``'s text, ``speed`` records its arguments and replays a real capture."""
    tool = tmp_path / "bssl"
    tool.write_text("#!/bin/sh\n"
                    f"if [ \"$1\" = version ]; then printf '%s' '{version}'; exit 0; fi\n"
                    f"echo \"$@\" > {tmp_path / 'argv'}\n"
                    f"cat {capture}\n")
    tool.chmod(0o755)
    return tool


def test_the_workload_reads_the_seal_row_of_its_chunk(tmp_path: Path) -> None:
    """``bssl speed -filter AES-128-GCM -timeout 1 -chunks 16384``: the AEAD seal row at
    16384 bytes of AWS-LC's output (4658.7 MB/s in aws/aws-lc#2283), in bytes per second,
    with the library and version ``bssl version`` gave."""
    path = stand_in(tmp_path, "1.49.0\n", AEAD_CAPTURE)
    tool = bssl_tool(str(path), executor=default_executor())
    assert (tool.library, tool.version) == ("AWS-LC", "1.49.0")
    reading = measure_aead_seal(tool, "aes-128-gcm", block_bytes=16384, seconds=1, runs=2)
    assert (tmp_path / "argv").read_text().split() == [
        "speed", "-filter", "AES-128-GCM", "-timeout", "1", "-chunks", "16384"]
    assert reading.samples == (4658.7e6, 4658.7e6) and reading.unit == "B/s"
    assert reading.identity.as_dict()["library"] == "AWS-LC"


def test_the_workload_refuses_an_output_without_its_row(tmp_path: Path) -> None:
    path = stand_in(tmp_path, "1.49.0\n", BSSL / OQS)
    tool = bssl_tool(str(path), executor=default_executor())
    with pytest.raises(ToolError, match="printed no AES-128-GCM seal at 16384 bytes"):
        measure_aead_seal(tool, "aes-128-gcm", block_bytes=16384, seconds=1, runs=1)


def test_the_suite_skips_without_bssl_saying_how_to_get_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from pytest_sbcbench.workloads.bssl import find_tool

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("SBCBENCH_BSSL", raising=False)
    settings = Settings(board=None, baselines=tmp_path / "baselines", save_baseline=False,
                        results=None, sysroot=Sysroot(Path("/")), sysroot_given=False,
                        quick=True, runs=None, interval=1.0, strict=False, performance=False,
                        trace_dir=None, cache=tmp_path / "cache", drop_caches=False,
                        allow_incomparable=False, verify_key=None, report_dir=None)
    ctx = Context(settings, default_executor(), LocalHost())
    assert find_tool(ctx) == ("bssl not found on PATH: build BoringSSL or AWS-LC (their "
                              "tool/bssl) or point SBCBENCH_BSSL at a bssl binary")


def test_cli_reads_a_bssl_log(capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_sbcbench.cli import main

    assert main(["parse", "bssl", str(BSSL / FIPS_AEAD), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    last = next(r for r in rows if r["name"] == "AES-128-GCM seal" and r["block_bytes"] == 16384)
    assert (last["calls"], last["microseconds"]) == (274000, 1001503)
    assert last["bytes_per_second"] == pytest.approx(4482.5e6)
    # an openssl log is no bssl log: exit 2, saying what is missing
    assert main(["parse", "bssl", str(DATA / "openssl_speed" / "openssl-3.5.9_qemu-rv64imafdc_"
                                      "debian13_sig-ml-dsa-44-65_stdout.txt")]) == 2
    assert "no 'Did N ... operations in Tus' line" in capsys.readouterr().err
