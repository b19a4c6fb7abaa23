"""The system checks (``measure/syschecks.py``): pyperf's documented ``python -m pyperf system
show`` report, parsed from a capture of this VM and from the installed pyperf, whose version a
failure names the day its format changes."""

from __future__ import annotations

import pytest

from helpers import DATA
from pytest_sbcbench.measure.syschecks import (
    PyperfFormatError,
    SystemChecks,
    checks_from_report,
    parse_system_show,
    pyperf_version,
    run_system_checks,
)

CAPTURE = DATA / "this_machine/pyperf-2.11.0_system-show.txt"


def test_report_of_this_vm() -> None:
    checks = checks_from_report(CAPTURE.read_text())
    assert checks.states == ("ASLR: Full randomization", "Linux scheduler: No CPU is isolated")
    assert checks.untuned == ("Linux scheduler",)
    assert checks.advices[0] == ("Linux scheduler: Use isolcpus=<cpu list> kernel parameter "
                                 "to isolate CPUs")
    sections = parse_system_show(CAPTURE.read_text())
    assert sections["Warnings"][0].startswith("Turbo Boost (MSR): Failed to read MSR 0x1a0")
    assert not checks.on_battery


def test_on_battery() -> None:
    unplugged = SystemChecks(("Power supply: the power cable is unplugged",), (), ())
    assert unplugged.on_battery and not SystemChecks((), (), ()).on_battery


def test_unknown_reports_are_refused() -> None:
    with pytest.raises(PyperfFormatError, match="System state"):
        parse_system_show("Show the system configuration\n\nAll fine\n")
    with pytest.raises(PyperfFormatError, match="operation name"):
        parse_system_show("System state\n============\n\nno name here\n")


def test_the_installed_pyperf_still_speaks_this_format() -> None:
    """Fails, naming the version, the day pyperf changes its report."""
    checks = run_system_checks()
    assert checks.error is None, f"pyperf {pyperf_version()}: {checks.error}"
    assert any(s.startswith("ASLR") for s in checks.states), \
        f"pyperf {pyperf_version()} 'system show' reports no ASLR state: {checks}"


def test_pyperf_system_checks() -> None:
    checks = run_system_checks()
    assert checks.error is None
    assert any(s.startswith("ASLR") for s in checks.states)
    unplugged = SystemChecks(("Power supply: the power cable is unplugged",), (), ())
    assert unplugged.on_battery and not SystemChecks((), (), ()).on_battery
