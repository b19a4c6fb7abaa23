"""The terminal summary (``report/terminal.py``) a new user reads: one clear line per finding,
improvement and trace directory, never a warning with an internal source line or a line for a
skipped test (issue 14, item 12, is the history)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import star64_tree

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
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SBCBENCH_SIMULATED_SAVE", "1")  # a baseline saved on a captured tree
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
                                 "baseline beyond noise: if it is meant to stay, record a new "
                                 "baseline on the new reference (never on a candidate)"])


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


def test_a_finding_repeated_over_tests_is_printed_once_with_the_tests() -> None:
    from pytest_sbcbench.model import Finding
    from pytest_sbcbench.report.terminal import finding_lines

    load = [(f"t.py::test_digest[{a}]", Finding("background-load", f"{a}: 1.2 busy CPUs"))
            for a in ("sha256", "sha512", "md5")]
    lines = finding_lines([*load, ("t.py::test_x", Finding("governor", "ondemand"))])
    assert lines == ["finding: background-load in 3 tests (test_digest[sha256], "
                     "test_digest[sha512], test_digest[md5]); test_digest[sha256]: sha256: 1.2 "
                     "busy CPUs", "finding: test_x: governor: ondemand"]
