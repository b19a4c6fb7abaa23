"""Print how the plugin's aes-128-gcm median compares with a direct ``openssl speed`` run.

    python3 scripts/openssl_agreement.py [RESULTS_JSON]

Without an argument it runs ``pytest benchmarks/ -m crypto -k aes-128-gcm --sbc-quick`` first.
A figure, not a test: wall-clock numbers on a shared machine are noisy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pytest_sbcbench.measure.openssl_parse import parse_speed


def plugin_median(results: Path) -> float:
    doc = json.loads(results.read_text())
    for r in doc["results"]:
        if r["metric"] == "aes-128-gcm" and r["identity"]["tool"] == "openssl":
            return float(r["summary"]["median"])
    raise SystemExit(f"{results}: no openssl aes-128-gcm result")


def direct() -> float:
    openssl = shutil.which("openssl") or "openssl"
    out = subprocess.run([openssl, "speed", "-evp", "aes-128-gcm", "-bytes", "16384"],
                         capture_output=True, text=True, check=True).stdout
    value = parse_speed(out).bytes_per_second("aes-128-gcm", 16384)
    if value is None:
        raise SystemExit("direct openssl speed printed no aes-128-gcm figure")
    return value


def main() -> None:
    if len(sys.argv) > 1:
        results = Path(sys.argv[1])
    else:
        results = Path(tempfile.mkdtemp()) / "r.json"
        subprocess.run([sys.executable, "-m", "pytest", "benchmarks/", "-m", "crypto", "-k",
                        "test_cipher and aes-128-gcm", "--sbc-quick", "-q",
                        "--sbc-results", str(results)], check=True)
    mine, theirs = plugin_median(results), direct()
    print(f"plugin median   {mine / 1e6:10.1f} MB/s")
    print(f"direct openssl  {theirs / 1e6:10.1f} MB/s")
    print(f"ratio           {max(mine, theirs) / min(mine, theirs):10.3f}  (target <= 1.4)")


if __name__ == "__main__":
    main()
