"""JUnit properties of a measured test: the pure function and pytest's --junitxml output."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import DATA, star64_tree
from pytest_sbcbench.model import Evidence, Status, Verdict
from pytest_sbcbench.report.junit import junit_properties
from pytest_sbcbench.report.results import load_results

RESULTS = DATA / "this_machine" / "results_crypto-quick_generic-x86_64.json"


def baseline_verdict(status: Status, change_pct: float, tolerance_pct: float | None) -> Verdict:
    """A baseline verdict: the change and the tolerance travel with it in its evidence."""
    return Verdict(status, "", Evidence(change_pct, (None, None), 99.0, tolerance_pct, None,
                                        3.0, 3, 9, 3))


def test_properties_of_a_real_result() -> None:
    result = load_results(RESULTS).results[6]  # rsa2048 sign, no baseline
    assert junit_properties(result) == [
        ("metric", "rsa2048 sign"), ("unit", "op/s"),
        ("median", repr(result.summary.median)), ("verdict", "no-baseline")]


def test_change_and_tolerance_when_the_verdict_has_them() -> None:
    result = load_results(RESULTS).results[0]
    gated = dataclasses.replace(result, verdict=baseline_verdict("regression", -7.456, 3.0))
    props = dict(junit_properties(gated))
    assert props["change_pct"] == "-7.46" and props["tolerance_pct"] == "3.00"
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
    assert props["metric"] == "aes-128-gcm" and props["unit"] == "B/s"
    assert props["verdict"] == "no-baseline" and float(props["median"] or 0) > 0


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
    assert props["metric"] == "storage-read" and props["unit"] == "B/s"
    assert props["verdict"] == "no-baseline"
    assert float(props["median"] or 0) == pytest.approx(20.1e6)
