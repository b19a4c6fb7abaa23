"""The openssl runner with the real openssl, and broken stand-in tools that must fail loudly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, needs_openssl
from pytest_sbcbench.errors import ParseError, ToolError
from pytest_sbcbench.measure import openssl
from pytest_sbcbench.measure.openssl_parse import mr_rate_unit, parse_speed
from pytest_sbcbench.measure.tools import run_tool

OPENSSL = shutil.which("openssl")


def script(tmp_path: Path, body: str) -> str:
    """A stand-in executable that behaves like a broken openssl build."""
    path = tmp_path / "openssl"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


@needs_openssl
def test_real_throughput_two_runs() -> None:
    assert OPENSSL is not None
    tool = openssl.openssl_tool(OPENSSL)
    banner = subprocess.run([OPENSSL, "version"], capture_output=True, text=True).stdout
    assert tool.version in banner
    m = openssl.measure_throughput(tool, "aes-128-gcm", seconds=1, runs=2)
    assert len(m.samples) == 2 and all(s > 0 for s in m.samples)
    assert m.identity.as_dict()["version"] == tool.version
    assert m.unit == "B/s" and m.better == "higher"


@needs_openssl
def test_real_rates_sign_and_verify() -> None:
    assert OPENSSL is not None
    tool = openssl.openssl_tool(OPENSSL)
    rates = openssl.measure_rates(tool, "ecdsa-p256", seconds=1, runs=1)
    assert set(rates) == {"sign", "verify"}
    assert all(m.unit == "op/s" and m.samples[0] > 1 for m in rates.values())
    assert rates["sign"].identity != rates["verify"].identity


@needs_openssl
def test_real_mr_and_human_outputs_agree() -> None:
    """The -mr number and the human table's number come from the same parser paths."""
    assert OPENSSL is not None
    mr = subprocess.run([OPENSSL, "speed", "-mr", "-seconds", "1", "-evp", "sha256", "-bytes",
                         "16384"], capture_output=True, text=True, check=True).stdout
    human = subprocess.run([OPENSSL, "speed", "-seconds", "1", "-evp", "sha256", "-bytes",
                            "16384"], capture_output=True, text=True, check=True).stdout
    assert parse_speed(mr).bytes_per_second("sha256", 16384) is not None
    assert parse_speed(human).bytes_per_second("sha256", 16384) is not None


def test_argv_shapes() -> None:
    tool = openssl.OpensslTool("openssl", "3.0.19", "OpenSSL 3.0.19")
    assert openssl.speed_argv(tool, "aes-128-gcm", 3) == [
        "openssl", "speed", "-mr", "-seconds", "3", "-evp", "aes-128-gcm", "-bytes", "16384"]
    assert openssl.speed_argv(tool, "ecdsa-p256", 1)[-1] == "ecdsap256"
    assert openssl.speed_argv(tool, "rsa2048", 1)[-1] == "rsa2048"


@pytest.mark.parametrize(("banner", "version", "unit"), [
    ("OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)", "3.0.19", "op/s"),
    ("OpenSSL 1.1.1w  11 Sep 2023", "1.1.1w", "op/s"),
    ("OpenSSL 1.1.0l  10 Sep 2019", "1.1.0l", "s/op"),
    ("OpenSSL 1.0.2k-fips  26 Jan 2017", "1.0.2k", "s/op"),
    ("LibreSSL 3.8.2", "LibreSSL 3.8.2", "s/op"),
])
def test_version_banner(banner: str, version: str, unit: str) -> None:
    """Every banner the runner accepts names a version whose -mr rate unit is known."""
    assert openssl.parse_version(banner) == version
    assert mr_rate_unit(version) == unit


def test_unknown_banner_is_an_error() -> None:
    with pytest.raises(ParseError, match="unrecognised banner"):
        openssl.parse_version("BoringSSL")


def test_nonzero_exit_shows_command_and_stderr(tmp_path: Path) -> None:
    path = script(tmp_path, 'echo "speed: Unknown algorithm aes-128-gcm" >&2\nexit 1\n')
    tool = openssl.OpensslTool(path, "3.0.19", "stand-in")
    with pytest.raises(ToolError) as err:
        openssl.measure_throughput(tool, "aes-128-gcm", seconds=1, runs=1)
    text = str(err.value)
    assert "exited 1" in text and "Unknown algorithm" in text
    assert f"{path} speed -mr -seconds 1 -evp aes-128-gcm -bytes 16384" in text


def test_empty_output_is_an_error(tmp_path: Path) -> None:
    tool = openssl.OpensslTool(script(tmp_path, "exit 0\n"), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match="printed nothing"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)


def test_output_without_numbers_is_an_error(tmp_path: Path) -> None:
    tool = openssl.OpensslTool(script(tmp_path, "echo 'Usage: speed [options]'\n"), "3.0.19",
                               "stand-in")
    with pytest.raises(ToolError, match="output unusable: no result lines"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)


def test_output_for_another_algorithm_is_an_error(tmp_path: Path) -> None:
    body = "echo '+H:16384'\necho '+F:1:md5:1000.00'\n"
    tool = openssl.OpensslTool(script(tmp_path, body), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match=r"no sha256 at 16384 bytes; found: \['md5'\]"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)


def test_zero_throughput_is_an_error(tmp_path: Path) -> None:
    body = "echo '+H:16384'\necho '+F:1:sha256:0.00'\n"
    tool = openssl.OpensslTool(script(tmp_path, body), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match=r"sha256 at 16384 bytes: the figure 0\.0 is not believ"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)


def test_a_record_cut_short_is_an_error(tmp_path: Path) -> None:
    """Issue 23, item 6: an output cut off mid-record (``+F:25:sha256:17``, no newline, exit
    0) was read as 17 B/s and saved; later a run 50% slower passed as +5e9%."""
    body = "echo '+H:16384'\nprintf '+F:25:sha256:17'\n"
    tool = openssl.OpensslTool(script(tmp_path, body), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match=r"output unusable: the output ends inside a record "
                                        r"\('\+F:25:sha256:17' has no newline\)"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)


def test_two_figures_for_one_metric_are_an_error(tmp_path: Path) -> None:
    """The first of two conflicting records was taken silently."""
    body = "echo '+H:16384'\necho '+F:25:sha256:1700000000.00'\necho '+F:25:sha256:900.00'\n"
    tool = openssl.OpensslTool(script(tmp_path, body), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match=r"sha256 at 16384 bytes is printed 2 times with "
                                        r"different figures \(1\.7e\+09, 900\)"):
        openssl.measure_throughput(tool, "sha256", seconds=1, runs=1)
    rates = "echo '+F2:2:2048:988.1:32216.5'\necho '+F2:2:2048:1988.1:32216.5'\n"
    tool = openssl.OpensslTool(script(tmp_path, rates), "3.0.19", "stand-in")
    with pytest.raises(ToolError, match="rsa2048 sign is printed 2 times"):
        openssl.measure_rates(tool, "rsa2048", seconds=1, runs=1)


def test_a_record_repeated_with_the_same_figure_is_one_figure() -> None:
    report = parse_speed("+H:16384\n+F:25:sha256:1700.00\n+F:25:sha256:1700.00\n", "3.0.19")
    assert report.bytes_per_second("sha256", 16384) == 1700.0


@pytest.mark.parametrize("text", ["+H:16384\n+F:25:sha256:1700000000.00\n+F:25:sha",
                                  "type 16 bytes\nsha256  1234.56k"])
def test_output_ending_inside_a_result_line_is_refused(text: str) -> None:
    with pytest.raises(ParseError, match="ends inside a record"):
        parse_speed(text, "3.0.19")


def test_missing_executable_is_a_tool_error(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="executable not found"):
        openssl.openssl_tool(str(tmp_path / "nope"))


def test_environment_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(openssl.OPENSSL_ENV, str(tmp_path / "custom-openssl"))
    assert openssl.find_openssl() == str(tmp_path / "custom-openssl")
    monkeypatch.delenv(openssl.OPENSSL_ENV)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert openssl.find_openssl() is None
    assert os.environ["PATH"] == str(tmp_path)


def test_timeout_is_a_tool_error() -> None:
    with pytest.raises(ToolError, match=r"timed out after 0 s[\s\S]*command: sleep 5"):
        run_tool(["sleep", "5"], 0.3, "sleeper")


@needs_openssl
def test_real_mr_ecdh_and_eddsa_records_are_rates() -> None:
    """This machine's OpenSSL 3 prints +F5 (ECDH) and +F6 (EdDSA) in op/s: read with its own
    version they are thousands per second, never the reciprocal."""
    assert OPENSSL is not None
    tool = openssl.openssl_tool(OPENSSL)
    out = subprocess.run([OPENSSL, "speed", "-mr", "-seconds", "1", "ecdhp256", "ed25519"],
                         capture_output=True, text=True, check=True).stdout
    report = parse_speed(out, tool.version)
    assert (report.per_second("ecdh-p256", "derive") or 0.0) > 10.0
    assert (report.per_second("ed25519", "sign") or 0.0) > 10.0


ISSUE_11_RECORD = "+F2:2:2048:988.1:32216.5"  # the 1.1.1 record quoted in issue 11


def test_111_rsa_rates_through_the_crypto_benchmarks(tmp_path: Path) -> None:
    """Issue 11: a stand-in that says OpenSSL 1.1.1w and prints a 1.1.1 +F2 record (op/s, as
    1.1.1's apps/speed.c computes count / d) yields 988.1 sign/s and 32216.5 verify/s through
    the repository's real benchmarks/ (selected by marker and keyword, not by file name)."""
    stand_in = script(tmp_path, (
        'if [ "$1" = version ]; then echo "OpenSSL 1.1.1w  11 Sep 2023"; exit 0; fi\n'
        'echo "+DTP:2048:private:rsa:1" >&2\n'
        f'echo "{ISSUE_11_RECORD}"\n'))
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(REPO / "benchmarks"), "-m", "crypto", "-k",
         "rsa2048", "--sbc-quick", "--sbc-results", str(out), "-p", "no:cacheprovider"],
        cwd=tmp_path, env={**os.environ, openssl.OPENSSL_ENV: stand_in},
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    results = json.loads(out.read_text())["results"]
    rates = {r["identity"]["op"]: r for r in results if r["identity"].get("algorithm") == "rsa2048"}
    assert set(rates) == {"sign", "verify"}
    assert all(s == pytest.approx(988.1) for s in rates["sign"]["samples"])
    assert all(s == pytest.approx(32216.5) for s in rates["verify"]["samples"])
    assert {r["unit"] for r in rates.values()} == {"op/s"}
    assert {r["identity"]["version"] for r in rates.values()} == {"1.1.1w"}


def test_a_missing_sbcbench_openssl_is_one_skip_line_per_test(tmp_path: Path) -> None:
    """``SBCBENCH_OPENSSL`` naming no file: each openssl test skips with one line naming the
    path and the fix; no traceback."""
    missing = tmp_path / "no" / "openssl"
    done = subprocess.run([sys.executable, "-m", "pytest_sbcbench.cli", "run", "-m", "crypto",
                           "-k", "sha256 or sha512", "--sbc-quick", "--sbc-idle-wait", "0",
                           "-rs", "-p", "no:cacheprovider"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "SBCBENCH_OPENSSL": str(missing)})
    assert done.returncode == 0, done.stdout[-2000:]
    skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 1 and skips[0].startswith("SKIPPED [2] ")  # pytest folds equal reasons
    for line in skips:
        assert line.endswith(f"SBCBENCH_OPENSSL={missing}: no such file; point "
                             "SBCBENCH_OPENSSL at an openssl binary, or unset it to use "
                             "openssl on PATH")
    assert "Traceback" not in done.stdout + done.stderr
    assert len(done.stdout.splitlines()) < 40
