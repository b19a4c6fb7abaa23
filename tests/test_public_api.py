"""Third-party APIs used only through their documented surface, each in one adapter with a
test that fails naming the library's version when it changes: pyperf's ``python -m pyperf
system show`` report, and cryptography's AEAD classes and ``openssl_version_text()``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import DATA
from pytest_sbcbench.measure import inprocess
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


def test_cryptography_is_imported_only_when_used() -> None:
    code = ("import sys, pytest_sbcbench.measure.inprocess; "
            "print(sorted(m for m in sys.modules if m.startswith('cryptography')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_cryptography_reports_its_openssl() -> None:
    version = inprocess.cryptography_version()
    text = inprocess.backend_version()
    assert re.match(r"^(OpenSSL|LibreSSL|BoringSSL) \d", text), \
        f"cryptography {version}: openssl_version_text() returned {text!r}"
    measured = inprocess.measure_aead("chacha20-poly1305", seconds=0.01, runs=1)
    assert measured.identity.as_dict()["library"] == text
    assert measured.identity.as_dict()["version"] == version
