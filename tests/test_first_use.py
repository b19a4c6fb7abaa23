"""First use (issue 14, item 12): what a new user sees is one clear line per thing, never a
traceback, a Python list or a silent wait."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import star64_tree
from pytest_sbcbench.cli import main

RECORD_AND_SKIP = """
    import pytest
    from pytest_sbcbench.model import Identity, Measurement

    def test_records(sbcbench):
        ident = Identity.of(tool="sbcbench-storage", size_bytes=1)
        sbcbench.record(Measurement("storage-read", "B/s", "higher", ident, (20e6, 20.1e6)))

    def test_skips(sbcbench):
        pytest.skip("nothing to measure here")
"""


def test_findings_print_once_and_never_for_skipped_tests(pytester: pytest.Pytester,
                                                         tmp_path: Path) -> None:
    """An ``ondemand`` governor is a finding of every sampled test: it prints as one summary
    line for the test that measured, not as a warning with an internal source line, and not
    at all for the test that skipped."""
    tree = star64_tree(tmp_path / "t", governor="ondemand")
    pytester.makepyfile(RECORD_AND_SKIP)
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "star64",
                                "--sbc-interval", "0.05", "--sbc-idle-wait", "0")
    result.assert_outcomes(passed=1, skipped=1)
    out = result.stdout.str()
    assert out.count("finding: test_records: governor: cpufreq governor ondemand") == 1
    assert "finding: test_skips" not in out
    assert "SbcBenchWarning" not in out and "session.py" not in out


def test_improvement_hint_is_in_the_terminal_summary(pytester: pytest.Pytester,
                                                     tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t")
    pytester.makepyfile("""
        from pytest_sbcbench.model import Identity, Measurement

        def test_records(sbcbench):
            ident = Identity.of(tool="sbcbench-storage", size_bytes=1)
            sbcbench.record(Measurement("storage-read", "B/s", "higher", ident,
                                        (20e6, 20.1e6, 19.9e6)))
    """)
    args = ("--sbc-sysroot", str(tree), "--board", "star64", "--sbc-idle-wait", "0",
            "--sbc-baselines", str(tmp_path / "b"))
    pytester.runpytest(*args, "--sbc-save-baseline").assert_outcomes(passed=1)
    pytester.makepyfile("""
        from pytest_sbcbench.model import Identity, Measurement

        def test_records(sbcbench):
            ident = Identity.of(tool="sbcbench-storage", size_bytes=1)
            sbcbench.record(Measurement("storage-read", "B/s", "higher", ident,
                                        (24e6, 24.1e6, 23.9e6)))
    """)
    result = pytester.runpytest(*args)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["improvement: test_records: storage-read: baseline median "
                                 "20.00 MB/s, this run 24.00 MB/s*faster than the "
                                 "baseline beyond noise: re-baseline with --sbc-save-baseline"])


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


def test_version_comes_from_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"sbcbench {version('pytest-sbcbench')}"


def test_schema_none_is_said_in_words(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A file with no schema field says so, not ``(schema None)``."""
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"board": "star64"}))
    assert main(["validate", str(odd), "--board", "star64"]) == 2
    err = capsys.readouterr().err
    assert "no schema field" in err and "None" not in err


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
    assert "1 results, 0 implausible on generic-x86_64" in capsys.readouterr().out
    assert main(["validate", str(path), "--board", "no-such-board"]) == 2
    assert "unknown board 'no-such-board'" in capsys.readouterr().err


RAW = ("[", "]", "{", "}", "None", "True", "False")


def test_probe_prints_text_not_python(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64)]) == 0
    out = capsys.readouterr().out
    assert not any(raw in out for raw in RAW), out
    assert "max mhz                1500, 1500, 1500, 1500" in out
    assert "  policy0  0,1,2,3  1500     performance" in out
    assert main(["probe", "--sysroot", str(star64), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["max_mhz"] == [1500.0] * 4  # JSON unchanged


def test_monitor_prints_a_line_per_sample_and_text(star64: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A line per sample on stderr while it runs (first and last sample at least), then the
    summary as text on stdout."""
    assert main(["monitor", "--sysroot", str(star64), "--interval", "0.1",
                 "--duration", "0.1"]) == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.endswith("MiB used")]
    assert len(progress) >= 2
    assert all("1500 MHz  56.9 C" in line for line in progress)
    assert "temperature c          idle 56.9, peak 56.9" in captured.out
    assert not any(raw in captured.out for raw in RAW), captured.out


def test_trace_png_labels_panels_without_data(tmp_path: Path) -> None:
    """No cpufreq, no thermal zone (this VM): both panels say "not available", with the
    sampler's reason.  A child process: matplotlib loads once per process."""
    script = """
import json
from pytest_sbcbench.model import Reading, Trace
from pytest_sbcbench.report import trace
readings = tuple(Reading(t, (None, None), (), 1 << 30, 0, t, 1.0, ()) for t in (0.0, 1.0))
tr = Trace(1.0, (0, 1), (None, None), (None, None), (), readings,
           {"cpufreq": "no cpufreq here", "thermal": "no thermal zone here"})
plt = trace.pyplot()
fig = trace.figure(plt, tr, "t")
print(json.dumps([[x.get_text() for x in ax.texts] for ax in fig.axes]))
"""
    if importlib.util.find_spec("matplotlib") is None:  # not imported here: see above
        pytest.skip("the PNG needs the 'plot' extra")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=tmp_path)
    assert json.loads(done.stdout) == [["clock not available (no cpufreq here)"],
                                       ["temperature not available (no thermal zone here)"]]


def test_one_line_says_where_traces_went(pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = star64_tree(tmp_path / "t")
    pytester.makepyfile(RECORD_AND_SKIP)
    traces = tmp_path / "traces"
    result = pytester.runpytest_subprocess("--sbc-sysroot", str(tree), "--board", "star64",
                                           "--sbc-idle-wait", "0", "--sbc-trace-dir",
                                           str(traces))
    result.assert_outcomes(passed=1, skipped=1)
    csvs = sorted(traces.glob("*.csv"))
    assert len(csvs) == 2  # the skipped test was sampled too
    pngs = len(list(traces.glob("*.png")))
    result.stdout.fnmatch_lines([f"traces: {traces} (2 CSV, {pngs} PNG charts)"
                                 if pngs else f"traces: {traces} (2 CSV, no PNG charts*"])


def test_probe_with_a_missing_sbcbench_openssl_still_probes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SBCBENCH_OPENSSL", str(tmp_path / "nope"))
    assert main(["probe", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cpus"] >= 1
    assert main(["probe"]) == 0
    err = capsys.readouterr().err
    assert err.strip() == (f"note: openssl engines not probed: SBCBENCH_OPENSSL={tmp_path}/nope: "
                           "no such file; point SBCBENCH_OPENSSL at an openssl binary, or unset "
                           "it to use openssl on PATH")
