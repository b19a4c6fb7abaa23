"""Review findings of round 2: each test failed before its fix (named in the test's docstring)."""

from __future__ import annotations

import json
import mmap
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SbcBenchError, SchemaError, ToolError
from pytest_sbcbench.judge import physics
from pytest_sbcbench.measure import storage
from pytest_sbcbench.model import Identity, Measurement, Result, Summary, Verdict
from pytest_sbcbench.platform.board import builtin_profiles
from pytest_sbcbench.report.results import load_results
from pytest_sbcbench.values import positive_int

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


MR_SHA256 = "+H:16:64:256:1024:8192:16384\n+F:6:sha256:{}\n"
RSA_MR = "+DTP:2048:private:rsa:10\n+R1:9881:2048:10.00\n+F2:2:2048:{}:{}\n"


@pytest.mark.parametrize(("cells", "said"), [
    ("nan:1:2:3:4:5", "sha256 16: NaN B/s is not a number"),
    ("1e6:2e6:3e6:4e6:5e6:-5.00", "sha256 16384: -5 B/s is not positive"),
    ("1e6:2e6:3e6:4e6:5e6:1e300", "sha256 16384: 1e+300 B/s is outside the believable range"),
    ("1e6:2e6:3e6:4e6:5e6:inf", "sha256 16384: inf B/s is infinite"),
])
def test_parse_refuses_impossible_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          cells: str, said: str) -> None:
    """M10: nan, -5.00 and 1e300 B/s were printed as results with exit status 0."""
    log = tmp_path / "speed.txt"
    log.write_text(MR_SHA256.format(cells))
    assert main(["parse", "openssl", str(log)]) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == ""


def test_parse_leaves_out_what_openssl_printed_as_zero(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.00 is how ``openssl speed`` prints an algorithm it did not run: not a result (it was
    printed as one with exit 0), and not an error either (real full-speed logs have them)."""
    log = tmp_path / "speed.txt"
    log.write_text(MR_SHA256.format("0:0:0:0:0:0") + "+F:6:md5:1e6:2e6:3e6:4e6:5e6:6e6\n")
    assert main(["parse", "openssl", str(log), "--json"]) == 0
    captured = capsys.readouterr()
    parsed = json.loads(captured.out)
    assert {r["algorithm"] for r in parsed["results"]} == {"md5"}
    assert parsed["notes"] == ["left out, printed as 0 (not run or not built into this "
                               "openssl): sha256"]
    assert "note: left out, printed as 0" in captured.err


def test_parse_prints_small_rates_with_significant_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """M10: with 1.0.2k (seconds per operation) a slow rate printed as "0.00 op/s"."""
    log = tmp_path / "rsa.txt"
    log.write_text(RSA_MR.format("300.0", "0.5"))  # 300 s per sign, 0.5 s per verify
    assert main(["parse", "openssl", str(log), "--openssl-version", "1.0.2k"]) == 0
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
    """M10: the real banner failed with "names no OpenSSL version"."""
    log = tmp_path / "rsa.txt"
    log.write_text(RSA_MR.format("988.1", "32216.5") if unit == "op/s"
                   else RSA_MR.format("0.001", "0.0001"))
    assert main(["parse", "openssl", str(log), "--openssl-version", given, "--json"]) == 0
    rates = {r["op"]: r["per_second"] for r in json.loads(capsys.readouterr().out)["results"]}
    assert rates == ({"sign": 988.1, "verify": 32216.5} if unit == "op/s"
                     else {"sign": 1000.0, "verify": 10000.0})


def test_openssl_version_naming_no_version_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "rsa.txt"
    log.write_text(RSA_MR.format("988.1", "32216.5"))
    with pytest.raises(SystemExit) as exited:
        main(["parse", "openssl", str(log), "--openssl-version", "banana"])
    assert exited.value.code == 2
    assert "'banana' names no OpenSSL version" in capsys.readouterr().err


@pytest.mark.parametrize("runs", ["1001", "100000000"])
def test_runs_beyond_the_cap_are_a_usage_error(pytester: pytest.Pytester, runs: str) -> None:
    """L18: ``--sbc-runs 100000000`` was accepted (weeks of runs from a typo)."""
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest(f"--sbc-runs={runs}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-runs*'{runs}' is too many runs: at most 1000*"])


def test_runs_at_the_cap_are_accepted() -> None:
    assert positive_int("1000") == 1000 and positive_int("1") == 1


def block_of(data: bytes) -> mmap.mmap:
    buf = mmap.mmap(-1, len(data))
    buf.write(data)
    return buf


def test_a_short_write_is_continued_not_counted_as_done(tmp_path: Path) -> None:
    """L15: ``os.write``'s count was ignored, so a short write still counted a whole block."""
    data = os.urandom(storage.BLOCK)
    calls = []

    def at_most_100k(fd: int, view: memoryview) -> int:  # the real write, cut short
        calls.append(len(view))
        return os.write(fd, view[:100_000])

    path = tmp_path / "f"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    buf = block_of(data)
    try:
        storage.write_block(fd, buf, ("t",), write=at_most_100k)
    finally:
        os.close(fd)
        buf.close()
    assert path.read_bytes() == data
    assert len(calls) == 11 and calls[1] == storage.BLOCK - 100_000


def test_a_write_without_progress_is_a_tool_error(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "f", os.O_WRONLY | os.O_CREAT)
    buf = block_of(b"x" * 4096)
    try:
        with pytest.raises(ToolError, match="storage write stalled after 0 of 4096 bytes"):
            storage.write_block(fd, buf, ("t",), write=lambda fd, view: 0)
    finally:
        os.close(fd)
        buf.close()


def test_a_short_read_is_continued_and_a_short_file_is_a_tool_error(tmp_path: Path) -> None:
    """L15: ``os.preadv``'s count was ignored: a file that ended early read "faster"."""
    data = os.urandom(3 * 4096)
    path = tmp_path / "f"
    path.write_bytes(data)

    def one_page(fd: int, views: Sequence[memoryview], offset: int) -> int:
        return os.preadv(fd, [views[0][:4096]], offset)

    buf = block_of(bytes(2 * 4096))
    fd = os.open(path, os.O_RDONLY)
    try:
        storage.read_block(fd, buf, 4096, ("t",), read=one_page)
        assert buf[:] == data[4096:]
        with pytest.raises(ToolError, match="storage read ended at byte 12288"):
            storage.read_block(fd, buf, 8192, ("t",))  # one page left, two asked
    finally:
        os.close(fd)
        buf.close()


@pytest.fixture
def ram_dir() -> Iterator[Path]:
    """A fresh directory in ``/dev/shm`` (POSIX shared memory, tmpfs on Linux); skips where
    that is not a writable tmpfs."""
    shm = Path("/dev/shm")
    if not os.access(shm, os.W_OK) or storage.target(shm).fstype != "tmpfs":
        pytest.skip("/dev/shm is not a writable tmpfs here")
    with tempfile.TemporaryDirectory(dir=shm) as where:
        yield Path(where)


def test_a_given_storage_path_on_tmpfs_is_a_usage_error(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None], ram_dir: Path) -> None:
    """M13: ``--sbc-storage-path /dev/shm`` only skipped the storage test, so CI stayed green
    on a misconfiguration; now it stops the run at start-up (exit 4), whatever is selected."""
    copy_benchmarks("test_storage.py")
    result = pytester.runpytest("benchmarks", "--sbc-quick", "--sbc-storage-path", str(ram_dir))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--sbc-storage-path {ram_dir}: *is on tmpfs, which keeps "
                                 "files in RAM*"])
    missing = pytester.runpytest("benchmarks", "--sbc-storage-path", str(ram_dir / "no"))
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--sbc-storage-path */no: not an existing directory*"])


def test_the_default_storage_path_on_tmpfs_still_skips_with_the_reason(
        pytester: pytest.Pytester, copy_benchmarks: Callable[..., None], ram_dir: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    copy_benchmarks("test_storage.py")
    monkeypatch.chdir(ram_dir)  # the storage test's default: the current directory
    result = pytester.runpytest(str(pytester.path / "benchmarks"), "--sbc-quick",
                                "--sbc-idle-wait", "0", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*is on tmpfs, which keeps files in RAM*"])


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
    """L17: the results JSON of an interrupted run looked complete."""
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
    assert main(["compare", str(whole), str(cut)]) == 0
    assert f"note: {cut} is from an interrupted run" in capsys.readouterr().out
    assert main(["compare", str(cut), str(whole)]) == 0
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


def test_sbcbench_run_passes_under_warnings_as_errors(tmp_path: Path) -> None:
    """L16: an installed (non-editable) plugin's package is marked for assertion rewriting, but
    the console script has imported it already: ``sbcbench run -W error`` failed on
    PytestAssertRewriteWarning.  ``-p pytest_sbcbench`` marks the package the same way here,
    where the editable install would not."""
    script = ("import sys; from pytest_sbcbench.cli import main; "
              "sys.exit(main(['run', '-W', 'error', '-p', 'pytest_sbcbench', '--co', '-q']))")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert "PytestAssertRewriteWarning" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
    assert "benchmarks/test_crypto.py::test_digest[sha256]" in done.stdout
