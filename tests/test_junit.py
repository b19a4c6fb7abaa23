"""JUnit properties of a measured test: the pure function and pytest's --junitxml output."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import DATA, star64_tree
from pytest_sbcbench.model import Evidence, Status, Verdict
from pytest_sbcbench.report.compare import compare, load_reference
from pytest_sbcbench.report.junit import junit_properties
from pytest_sbcbench.report.results import load_results

RESULTS = DATA / "this_machine" / "results_crypto-quick_generic-x86_64.json"
QEMU_61 = DATA / "this_machine" / "results_qemu-a72_kernel-6.1.json"
QEMU_612 = DATA / "this_machine" / "results_qemu-a72_kernel-6.12.json"


def baseline_verdict(status: Status, change_pct: float, tolerance_pct: float | None) -> Verdict:
    """A baseline verdict: the change and the tolerance travel with it in its evidence."""
    return Verdict(status, "", Evidence(change_pct=change_pct, ci_pct=(None, None),
                                        confidence_pct=99.0, tolerance_pct=tolerance_pct,
                                        detectable_pct=None, min_effect_pct=3.0, samples=3,
                                        baseline_samples=9, baseline_boots=3))


def test_properties_of_a_real_result() -> None:
    results = load_results(RESULTS).results
    assert results[6].summary.median == pytest.approx(4069.5, abs=0.05)
    assert junit_properties(results[6]) == [  # rsa2048 sign, no baseline
        ("metric", "rsa2048 sign"), ("unit", "op/s"), ("median", "4069.5"), ("runs", "2"),
        ("verdict", "no-baseline")]
    # in the unit the terminal shows: 4,403.4 MB/s, not 4403397702.2 B/s
    assert dict(junit_properties(results[0]))["median"] == "4403.4"
    assert dict(junit_properties(results[0]))["unit"] == "MB/s"


def test_a_judged_result_carries_interval_runs_and_baseline() -> None:
    """The QEMU a72 board on kernel 6.12 judged by the project's gate against kernel 6.1:
    the interval, runs, baseline runs and boots and the detectable drop come from the
    verdict's evidence, in the terminal's unit and to two decimals in percent."""
    loaded = load_results(QEMU_612)
    done = compare(load_reference(QEMU_61), loaded.board, loaded.environment,
                   loaded.results, {})
    result, verdict = done.verdicts[0]
    e = verdict.evidence
    assert e is not None and e.ci_pct[0] is not None and e.ci_pct[1] is not None
    assert e.detectable_pct is not None
    props = dict(junit_properties(dataclasses.replace(result, verdict=verdict)))
    expected = {"metric": "aes-128-gcm", "unit": "MB/s", "median": "4.2789", "runs": "2",
                "change_pct": f"{e.change_pct:+.2f}", "ci_low_pct": f"{e.ci_pct[0]:+.2f}",
                "ci_high_pct": f"{e.ci_pct[1]:+.2f}",
                "confidence_pct": f"{e.confidence_pct:.2f}",
                "detectable_drop_pct": f"{e.detectable_pct:.2f}",
                "baseline_runs": "2", "baseline_boots": "1", "verdict": verdict.status,
                "baseline_median": "7.1045"}  # the gate's evidence carries it, in MB/s
    if e.tolerance_pct is not None:
        expected["tolerance_pct"] = f"{e.tolerance_pct:.2f}"
    assert props == expected


def test_the_baseline_median_when_the_evidence_has_it() -> None:
    """A verdict whose evidence records the baseline's median (7.10 MB/s, the a72 board's
    median on kernel 6.1: 7104455.3 B/s) gives it in MB/s."""
    result = load_results(QEMU_612).results[0]
    base = load_results(QEMU_61).results[0].summary.median
    verdict = Verdict("regression", "", Evidence(
        change_pct=-39.8, ci_pct=(-61.1, -6.7), confidence_pct=90.0, tolerance_pct=35.4,
        detectable_pct=78.1, min_effect_pct=3.0, samples=2, baseline_samples=2, baseline_boots=1,
        baseline_median=base))
    props = dict(junit_properties(dataclasses.replace(result, verdict=verdict)))
    assert props["baseline_median"] == "7.1045"


def test_change_and_tolerance_when_the_verdict_has_them() -> None:
    result = load_results(RESULTS).results[0]
    gated = dataclasses.replace(result, verdict=baseline_verdict("regression", -7.456, 3.0))
    props = dict(junit_properties(gated))
    assert props["change_pct"] == "-7.46" and props["tolerance_pct"] == "3.00"
    assert "ci_low_pct" not in props and "ci_high_pct" not in props  # unbounded
    assert props["verdict"] == "regression" and props["metric"] == "aes-128-gcm"
    nan = dataclasses.replace(result, verdict=baseline_verdict("pass", float("nan"), None))
    assert "change_pct" not in dict(junit_properties(nan))


def test_junitxml_carries_them(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(f"""
        from pytest_sbcbench.report.junit import junit_properties
        from pytest_sbcbench.report.results import load_results

        def test_measured(request):
            result = load_results({str(RESULTS)!r}).results[0]
            request.node.user_properties.extend(junit_properties(result))
    """)
    run = pytester.runpytest("--junitxml=out.xml", "-p", "no:sbcbench", "-p", "no:labgrid")
    run.assert_outcomes(passed=1)
    case = ET.parse(pytester.path / "out.xml").getroot().find(".//testcase")
    assert case is not None
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["metric"] == "aes-128-gcm" and props["unit"] == "MB/s"
    assert props["verdict"] == "no-baseline" and props["median"] == "4403.4"


def test_the_plugin_puts_them_into_junitxml(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """Issue 15: every measured test carries its measurement in ``--junitxml`` (Jenkins and
    GitLab show JUnit properties), written by the plugin itself, not by the test."""
    tree = star64_tree(tmp_path / "t")
    pytester.makepyfile("""
        from pytest_sbcbench.model import Identity, Measurement

        def test_records(sbcbench):
            ident = Identity.of(tool="sbcbench-storage", size_bytes=1)
            sbcbench.record(Measurement("storage-read", "B/s", "higher", ident, (20e6, 20.2e6)))
    """)
    run = pytester.runpytest("--junitxml=out.xml", "--sbc-sysroot", str(tree), "--board",
                             "star64", "--sbc-idle-wait", "0", "-p", "no:labgrid")
    run.assert_outcomes(passed=1)
    case = ET.parse(pytester.path / "out.xml").getroot().find(".//testcase")
    assert case is not None
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert props["metric"] == "storage-read" and props["unit"] == "MB/s"
    assert props["verdict"] == "no-baseline" and props["runs"] == "2"
    assert props["median"] == "20.100"
