"""``sbcbench export lava``: one LAVA test case per metric of a real results file."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest

from helpers import DATA
from pytest_sbcbench.cli import main
from pytest_sbcbench.cli.commands import export_lava
from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.model import Verdict, display
from pytest_sbcbench.report.compare import compare, load_reference
from pytest_sbcbench.report.lava import lava_cases, sanitise
from pytest_sbcbench.report.results import load_results

RESULTS = DATA / "this_machine" / "results_crypto-quick_generic-x86_64.json"
QEMU_61 = DATA / "this_machine" / "results_qemu-a72_kernel-6.1.json"
QEMU_612 = DATA / "this_machine" / "results_qemu-a72_kernel-6.12.json"
# the mapping docs/reports.md states: nothing decided is LAVA's unknown, never a pass
LAVA_RESULT = {"pass": "pass", "improvement": "pass", "regression": "fail",
               "implausible": "fail", "invalid": "fail", "inconclusive": "unknown",
               "no-baseline": "unknown", "incomparable": "unknown"}
# A stand-in for LAVA's lava-test-case shell helper: it checks the same arguments and logs them.
STAND_IN = """#!/bin/sh
name=$1; shift
[ -n "$name" ] || exit 1
while [ $# -gt 0 ]; do
  case $1 in --result|--measurement|--units) shift 2 ;; *) echo "bad $1" >&2; exit 1 ;; esac
done
echo "$name" >> {log}
"""


def stand_in(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(exist_ok=True)
    log = folder / "calls.log"
    tool = folder / "lava-test-case"
    tool.write_text(STAND_IN.format(log=log))
    tool.chmod(0o755)
    return tool, log


def test_one_case_per_metric_of_a_real_results_file() -> None:
    results = load_results(RESULTS).results
    cases = lava_cases(results)
    assert len(cases) == len(results) == 12
    assert len({c.name for c in cases}) == 12
    for case, result in zip(cases, results, strict=True):
        assert re.fullmatch(r"[A-Za-z0-9._-]{1,100}", case.name)
        assert case.result == "unknown"  # every verdict in the file is no-baseline
        shown, unit = display(result.summary.median, result.measurement.unit)
        assert case.units == unit  # MB/s or op/s, as the terminal says
        # five significant digits of the number the terminal prints
        assert float(case.measurement) == pytest.approx(float(shown.replace(",", "")),
                                                        rel=1e-3)
        assert len(case.measurement.replace(".", "").lstrip("0")) <= 5
    names = [c.name for c in cases]
    assert "test_cipher_aes-128-gcm" in names and "test_asymmetric_rsa2048-sign" in names
    assert cases[0].line() == ("lava-test-case test_cipher_aes-128-gcm --result unknown "
                               "--measurement 4403.4 --units MB/s")


def test_failing_verdicts_fail_and_unknown_ones_are_errors() -> None:
    result = load_results(RESULTS).results[0]
    for status, expected in (("regression", "fail"), ("implausible", "fail"),
                             ("invalid", "fail"), ("incomparable", "unknown"),
                             ("inconclusive", "unknown"), ("no-baseline", "unknown"),
                             ("improvement", "pass"), ("pass", "pass")):
        judged = dataclasses.replace(result, verdict=Verdict(status, "x"))  # type: ignore[arg-type]
        assert lava_cases([judged])[0].result == expected
    odd = dataclasses.replace(result, verdict=Verdict("maybe", "x"))  # type: ignore[arg-type]
    with pytest.raises(SchemaError, match="unknown verdict"):
        lava_cases([odd])
    nan = dataclasses.replace(result, summary=dataclasses.replace(result.summary,
                                                                  median=math.nan))
    with pytest.raises(SchemaError, match="not a number"):
        lava_cases([nan])


def test_duplicate_names_get_a_suffix() -> None:
    result = load_results(RESULTS).results[0]
    assert [c.name for c in lava_cases([result, result, result])] == [
        "test_cipher_aes-128-gcm", "test_cipher_aes-128-gcm-2", "test_cipher_aes-128-gcm-3"]


def test_sanitise() -> None:
    assert sanitise("test_x[a b=c>d/e]") == "test_x_a_b_c_d_e"
    assert sanitise("///") == "unnamed"
    assert len(sanitise("x" * 300)) == 100


def test_calls_lava_test_case_when_found(tmp_path: Path) -> None:
    tool, log = stand_in(tmp_path / "bin")
    lines, recorded = export_lava(load_results(RESULTS).results, tool=str(tool))
    assert recorded and len(lines) == 12
    assert log.read_text().splitlines() == [line.split()[1] for line in lines]


def test_command_prints_without_lava(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no lava-test-case here
    assert main(["export", "lava", str(RESULTS)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 12 and all(line.startswith("lava-test-case ") for line in out)


def test_command_records_with_lava(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tool, log = stand_in(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tool.parent}:/usr/bin:/bin")
    assert main(["export", "lava", str(RESULTS)]) == 0
    assert capsys.readouterr().out.strip() == "recorded 12 LAVA test cases"
    assert len(log.read_text().splitlines()) == 12


def test_a_judged_result_carries_its_uncertainty() -> None:
    """The QEMU a72 board on kernel 6.12 judged against itself on kernel 6.1 by the project's
    gate (``sbcbench compare``): each metric's case, then its change, interval bounds and
    detectable drop as cases of their own with the same result."""
    reference = load_reference(QEMU_61)
    loaded = load_results(QEMU_612)
    done = compare(reference, loaded.board, loaded.environment, loaded.results, {})
    judged = [dataclasses.replace(r, verdict=v) for r, v in done.verdicts]
    cases = lava_cases(judged)
    by_name = {c.name: c for c in cases}
    gcm = by_name["test_cipher_aes-128-gcm"]
    verdict = done.verdicts[0][1]
    evidence = verdict.evidence
    assert evidence is not None
    expected = LAVA_RESULT[verdict.status]
    # median of 3660255.32 and 4897582.8 B/s: 4278919.06 B/s, 4.2789 MB/s to five digits
    assert (gcm.result, gcm.measurement, gcm.units) == (expected, "4.2789", "MB/s")
    extra = 0
    for suffix, value in (("change", evidence.change_pct), ("ci_low", evidence.ci_pct[0]),
                          ("ci_high", evidence.ci_pct[1]),
                          ("detectable_drop", evidence.detectable_pct)):
        name = f"test_cipher_aes-128-gcm.{suffix}"
        if value is None or not math.isfinite(value):
            assert name not in by_name  # unbounded or unknown: left out, never invented
            continue
        extra += 1
        case = by_name[name]
        assert (case.result, case.units, case.measurement) == (expected, "%", f"{value:.2f}")
    assert extra >= 1  # the change at least
    assert len({c.name for c in cases}) == len(cases)
