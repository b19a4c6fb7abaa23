"""The openssl runner with the real openssl, and broken stand-in tools that must fail loudly."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_sbcbench.errors import ParseError, ToolError
from pytest_sbcbench.measure import openssl
from pytest_sbcbench.measure.openssl_parse import parse_speed
from pytest_sbcbench.measure.tools import run_tool

OPENSSL = shutil.which("openssl")
needs_openssl = pytest.mark.skipif(OPENSSL is None,
                                   reason="openssl not on PATH (apt-get install openssl)")


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


@pytest.mark.parametrize(("banner", "version"), [
    ("OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)", "3.0.19"),
    ("OpenSSL 1.1.1w  11 Sep 2023", "1.1.1w"),
    ("LibreSSL 3.8.2", "LibreSSL 3.8.2"),
])
def test_version_banner(banner: str, version: str) -> None:
    assert openssl.parse_version(banner) == version


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
