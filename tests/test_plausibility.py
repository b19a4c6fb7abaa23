"""Figures a tool prints are checked before they are believed (``measure/sanity.py``).

Stand-in tools replay real captures with the figure replaced by NaN, infinity, zero, a negative
number or an absurd magnitude: each is a ToolError showing the command and the figure, never a
sample.  In-process workloads (storage, the ``cryptography`` AEAD, build wall time) are driven
through an injected clock instead.  Issue 11, class 6, is the history of these checks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import DATA, replaying_openssl
from pytest_sbcbench.errors import ToolError
from pytest_sbcbench.measure import inprocess, openssl, sanity, scaling, storage, stream
from pytest_sbcbench.measure import timed_build as build
from pytest_sbcbench.measure.c_helpers import Compiled

BAD = ["nan", "inf", "0", "-1", "1e300"]
BAD_RATES = [*BAD, "1e-300"]
THIS = DATA / "this_machine"


def stand_in(folder: Path, name: str, output: str, version: str | None = None) -> str:
    """An executable ``name`` that prints ``output`` (and ``version`` for ``--version``)."""
    replay = folder / f"{name}.out"
    replay.write_text(output)
    lines = ["#!/bin/sh"]
    if version is not None:
        lines.append(f"if [ \"$1\" = --version ]; then printf '%s\\n' '{version}'; exit 0; fi")
    lines.append(f"cat '{replay}'")
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o755)
    return str(path)


def replaced(capture: Path, figure: str, bad: str) -> str:
    text = capture.read_text()
    assert figure in text, f"{figure} not in {capture.name}"
    return text.replace(figure, bad)


def shows(err: pytest.ExceptionInfo[ToolError], command: str, bad: str) -> None:
    """The error names the command and the figure as printed."""
    text = str(err.value)
    assert f"command: {command}" in text
    assert repr(float(bad)) in text and "not believable" in text


@pytest.mark.parametrize(("value", "unit", "reason"), [
    (float("nan"), "B/s", "NaN B/s is not a number"),
    (float("inf"), "B/s", "inf B/s is infinite"),
    (0.0, "op/s", "0 op/s is not positive"),
    (-1.0, "s", "-1 s is not positive"),
    (1e300, "B/s", "1e+300 B/s is outside the believable range 1 to 1e+13 B/s"),
    (1e-300, "op/s", "1e-300 op/s is outside the believable range 0.001 to 1e+10 op/s"),
])
def test_unbelievable_figures_and_why(value: float, unit: str, reason: str) -> None:
    assert sanity.problem(value, unit) == reason
    with pytest.raises(ToolError, match="command: tool --flag") as err:
        sanity.checked(value, unit, ["tool", "--flag"], "tool rate", output="tail of output")
    assert err.value.returncode == 0 and "tail of output" in str(err.value)


@pytest.mark.parametrize(("value", "unit"), [
    (4490920597.98, "B/s"),  # this machine's aes-128-gcm
    (199.26e3, "B/s"),  # AES-128-ECB on an FPGA-emulated RISC-V core
    (0.3, "op/s"),  # rsa4096 sign on a slow ARMv6 core
    (23.12, "op/s"),  # sysbench cpu at max prime 200000
    (0.02, "s"),
])
def test_real_figures_pass(value: float, unit: str) -> None:
    assert sanity.checked(value, unit, ["tool"], "rate") == value


def test_a_clock_that_did_not_advance_is_not_a_division_by_zero() -> None:
    with pytest.raises(ToolError, match=r"clock measured 0.0 s for 4096 units") as err:
        sanity.per_second(4096, 0.0, "B/s", ["in-process"], "rate")
    assert err.value.returncode is None
    with pytest.raises(ToolError, match=r"clock measured nan s"):
        sanity.per_second(4096, float("nan"), "B/s", ["in-process"], "rate")
    assert sanity.per_second(4096, 2.0, "B/s", ["in-process"], "rate") == 2048.0


@pytest.mark.parametrize("bad", BAD)
def test_openssl_throughput(tmp_path: Path, bad: str) -> None:
    output = replaced(THIS / "openssl-3.0.19_mr_evp-aes-128-gcm_bytes16384.txt",
                      "4490920597.98", bad)
    tool = openssl.OpensslTool(stand_in(tmp_path, "openssl", output), "3.0.19", "stand-in")
    with pytest.raises(ToolError) as err:
        openssl.measure_throughput(tool, "aes-128-gcm", seconds=1, runs=1)
    shows(err, f"{tool.path} speed -mr -seconds 1 -evp aes-128-gcm -bytes 16384", bad)
    assert "openssl speed aes-128-gcm at 16384 bytes" in str(err.value)


@pytest.mark.parametrize("bad", BAD_RATES)
@pytest.mark.parametrize(("capture", "figure", "algorithm", "op", "name"), [
    ("openssl-3.0.19_mr_rsa2048.txt", "4154.545455", "rsa2048", "sign", "rsa2048"),
    ("openssl-3.0.19_mr_ecdsap256.txt", "16832.000000", "ecdsa-p256", "verify", "ecdsap256"),
])
def test_openssl_rates(tmp_path: Path, bad: str, capture: str, figure: str, algorithm: str,
                       op: str, name: str) -> None:
    tool = openssl.OpensslTool(stand_in(tmp_path, "openssl", replaced(THIS / capture, figure,
                                                                      bad)),
                               "3.0.19", "stand-in")
    with pytest.raises(ToolError) as err:
        openssl.measure_rates(tool, algorithm, seconds=1, runs=1)
    shows(err, f"{tool.path} speed -mr -seconds 1 {name}", bad)
    assert f"{algorithm} {op} rate" in str(err.value)


def multi_sha256_section() -> str:
    """The ``-evp sha256`` part of a real ``-multi 2 -mr`` log (children and parent total)."""
    text = (DATA / "openssl_speed/openssl-3.3.0_mr-multi2_hetzner-cpx11-amd-epyc-x86-64.txt"
            ).read_text()
    start = text.index("ALGO: -evp sha256")
    return text[start:text.index("ALGO: -evp sha512")]


@pytest.mark.parametrize("bad", BAD)
def test_openssl_multi_total(tmp_path: Path, bad: str) -> None:
    section = multi_sha256_section()
    assert section.count(":3061596160.00\n") == 1  # the parent's 16384-byte total
    tool = openssl.OpensslTool(stand_in(tmp_path, "openssl",
                                        section.replace(":3061596160.00\n", f":{bad}\n")),
                               "3.3.0", "stand-in")
    (tmp_path / "ok").mkdir()
    good = openssl.OpensslTool(stand_in(tmp_path / "ok", "openssl", section), "3.3.0",
                               "stand-in")
    assert scaling.openssl_multi(good, 2, 1, 1).samples == (3061596160.0,)
    with pytest.raises(ToolError) as err:
        scaling.openssl_multi(tool, 2, 1, 1)
    shows(err, f"{tool.path} speed -multi 2 -mr -seconds 1 -evp sha256 -bytes 16384", bad)


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    yield tmp_path


@pytest.mark.parametrize("bad", BAD_RATES)
def test_sysbench_cpu(on_path: Path, bad: str) -> None:
    output = replaced(DATA / "sysbench/sysbench-1.0.20_cpu_rpi4-cortex-a72_1thread.txt",
                      "events per second:  1488.30", f"events per second:  {bad}")
    path = stand_in(on_path, "sysbench", output, version="sysbench 1.0.20")
    with pytest.raises(ToolError) as err:
        scaling.sysbench_cpu(1, 1, 1)
    shows(err, f"{path} cpu --threads=1 --cpu-max-prime=20000 --time=1 run", bad)


def stress_ng(folder: Path, metrics: str) -> str:
    path = stand_in(folder, "stress-ng", metrics,
                    version=(THIS / "stress-ng-0.15.06_version.txt").read_text().strip())
    return path


@pytest.mark.parametrize("bad", BAD_RATES)
def test_stress_ng(on_path: Path, bad: str) -> None:
    capture = THIS / "stress-ng-0.15.06_cpu2_matrixprod_metrics-brief.txt"
    path = stress_ng(on_path, replaced(capture, "1675.66", bad))
    with pytest.raises(ToolError) as err:
        scaling.stress_ng_matrixprod(2, 2, 1)
    shows(err, f"{path} --cpu 2 --cpu-method matrixprod --metrics-brief --timeout 2s", bad)


def test_stress_ng_version_is_in_the_identity(on_path: Path) -> None:
    stress_ng(on_path, (THIS / "stress-ng-0.15.06_cpu2_matrixprod_metrics-brief.txt")
              .read_text())
    m = scaling.stress_ng_matrixprod(2, 2, 1)
    assert m.samples == (1675.66,)
    assert m.identity.as_dict()["version"] == "0.15.06"
    with pytest.raises(ToolError, match=r"no 'stress-ng, version X\.Y\.Z' banner"):
        scaling.parse_stress_ng_version("stress-ng: unknown option\n", ["stress-ng"])


def kernel_stand_in(folder: Path, output: str) -> Compiled:
    return Compiled(Path(stand_in(folder, "stream-kernel", output)), "cc",
                    "cc (Debian 12.2.0-14+deb12u1) 12.2.0", ("-O3",))


@pytest.mark.parametrize("bad", BAD)
def test_stream_kernel(tmp_path: Path, bad: str) -> None:
    output = replaced(THIS / "sbcbench-stream_64MiB-arrays_3passes.txt", "read 9639644705",
                      f"read {bad}")
    kernel = kernel_stand_in(tmp_path, output)
    with pytest.raises(ToolError) as err:
        stream.measure(kernel, stream.plan(2**20), passes=3, runs=1)
    shows(err, f"{kernel.path} {4 * 2**20 // 8} 3", bad)
    assert "memory kernel read rate" in str(err.value)


def test_stream_kernel_identity_names_its_compiler(tmp_path: Path) -> None:
    kernel = kernel_stand_in(tmp_path, (THIS / "sbcbench-stream_64MiB-arrays_3passes.txt")
                             .read_text())
    read = stream.measure(kernel, stream.plan(2**20), passes=3, runs=1)[0]
    assert read.samples == (9639644705.0,)
    ident = read.identity.as_dict()
    assert (ident["compiler"], ident["compiler_version"], ident["flags"]) == \
        ("cc", "cc (Debian 12.2.0-14+deb12u1) 12.2.0", "-O3")
    with pytest.raises(ToolError, match="printed no triad rate"):
        stream.parse_output("read 1\nwrite 1\ncopy 1\n", ["kernel"])
    with pytest.raises(ToolError, match="printed 'read fast': not a number"):
        stream.parse_output("read fast\n", ["kernel"])


def clock_of(*readings: float) -> Callable[[], float]:
    """A clock that returns ``readings`` in turn (then the last one forever)."""
    values = list(readings)

    def clock() -> float:
        return values.pop(0) if len(values) > 1 else values[0]
    return clock


@pytest.mark.parametrize(("readings", "why"), [
    ((5.0, 5.0), "clock measured 0.0 s"),  # the clock did not advance
    ((5.0, 4.0), "clock measured -1.0 s"),  # it went back
    ((5.0, float("nan")), "clock measured nan s"),
    ((0.0, 1e-300), "not believable"),  # 4 MiB in 1e-300 s
])
def test_storage_rates(tmp_path: Path, readings: tuple[float, ...], why: str) -> None:
    where = storage.target(tmp_path)
    with pytest.raises(ToolError, match=why) as err:
        storage.write_then_read(where, 4 * storage.BLOCK, clock=clock_of(*readings))
    assert "command: sbcbench-storage write" in str(err.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("seconds", "readings", "why"), [
    (0.0, (7.0,), "clock measured 0.0 s"),  # no time at all: no work done
    (1.0, (7.0, float("inf")), "clock measured inf s"),
    (1e-301, (0.0, 1e-300), "not believable"),  # 16 x 16 KiB in 1e-300 s
])
def test_inprocess_aead(seconds: float, readings: tuple[float, ...], why: str) -> None:
    with pytest.raises(ToolError, match=why) as err:
        inprocess.aead_rate("aes-128-gcm", seconds, 16384, clock=clock_of(*readings))
    assert "command: cryptography aes-128-gcm.encrypt --block-bytes=16384" in str(err.value)


@pytest.mark.parametrize(("readings", "bad"), [
    ((3.0, 3.0), "0"), ((3.0, 2.0), "-1"), ((3.0, float("nan")), "nan"),
    ((0.0, 1e300), "1e300"),
])
def test_build_wall_time(tmp_path: Path, readings: tuple[float, ...], bad: str) -> None:
    with pytest.raises(ToolError) as err:
        build.run_logged(["true"], tmp_path, tmp_path / "b.log", None, "build",
                         clock=clock_of(*readings))
    shows(err, "true", bad)
    assert "build wall time" in str(err.value)


@pytest.mark.parametrize("bad", ["nan", "1e300"])
def test_an_unbelievable_figure_fails_the_test_and_never_reaches_the_baseline(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
        copy_benchmarks: Callable[[], None], bad: str) -> None:
    """Through pytest: the stand-in openssl prints NaN (or 1e300) for sha256; the test fails
    showing the command, and --sbc-save-baseline stores nothing for it."""
    copy_benchmarks()
    fake = replaying_openssl(pytester.path / "tools", f"+H:16384\n+F:25:sha256:{bad}\n",
                             "OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)")
    monkeypatch.setenv(openssl.OPENSSL_ENV, fake)
    baselines = pytester.path / "bl"
    out = pytester.path / "r.json"
    result = pytester.runpytest("benchmarks", "-k", "test_digest and sha256", "--sbc-quick",
                                "--sbc-baselines", str(baselines), "--sbc-save-baseline",
                                "--sbc-results", str(out))
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*openssl speed sha256 at 16384 bytes: the figure "
                                 f"{float(bad)!r} is not believable*",
                                 f"*command: {fake} speed -mr*sha256*"])
    saved = [entry for path in baselines.glob("*.json")
             for entry in json.loads(path.read_text()).get("entries", [])]
    assert saved == []
    assert json.loads(out.read_text())["results"] == []
