"""The in-process AEAD workload's adapter over cryptography (``measure/inprocess.py``): imported
only when used, and its identity names the library and the OpenSSL it reports (a failure names
cryptography's version)."""

from __future__ import annotations

import re
import subprocess
import sys

from pytest_sbcbench.measure import inprocess


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
