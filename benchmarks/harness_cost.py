"""Harness time per test: what a ``--sbc-quick`` test costs beyond its tool's own run time
(issue 31 item 13).

    python3 benchmarks/harness_cost.py [-k EXPRESSION] [--idle-wait SECONDS]

Runs the shipped crypto suite's selected tests (default: the digests) with the real openssl
in a pytest subprocess, ``--sbc-quick``, then prints for each test its wall time (the JUnit
``time``: set-up, call and teardown), the tool's own time (``seconds`` x samples: openssl
speed runs for exactly its ``-seconds``) and the rest: the harness (idle wait, sampler,
judging, the run's first-test checks).  The goal is a harness under 10% of a quick test's
wall time on an idle host; on a busy host the first test also waits ``--sbc-idle-wait`` (2 s
quick) once, and the run then says the host never went idle and later tests do not wait.
A figure, not a test: the numbers depend on the machine and on what else runs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
GOAL_PCT = 10.0


def run(expression: str, idle_wait: str | None, folder: Path
        ) -> tuple[dict[str, float], list[dict[str, Any]], str]:
    junit, results = folder / "j.xml", folder / "r.json"
    argv = [sys.executable, "-m", "pytest", str(REPO / "benchmarks" / "test_crypto.py"),
            "-k", expression, "--sbc-quick", "--sbc-baselines", str(folder / "bl"),
            "--sbc-results", str(results), "--junitxml", str(junit), "-p", "no:cacheprovider",
            "-q"]
    if idle_wait is not None:
        argv += ["--sbc-idle-wait", idle_wait]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=folder, check=False)
    times = {f"{case.get('classname', '')}::{case.get('name', '')}": float(case.get("time", 0))
             for case in ET.parse(junit).getroot().iter("testcase")}
    return times, json.loads(results.read_text())["results"], done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="test_digest", dest="expression")
    parser.add_argument("--idle-wait", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        times, results, out = run(args.expression, args.idle_wait, Path(tmp))
    walls = list(times.values())
    print(f"{'test':<32} {'wall s':>7} {'tool s':>7} {'harness s':>9} {'harness %':>9}")
    shares = []
    for result, wall in zip(results, walls, strict=False):
        tool = float(result["identity"].get("seconds", 0)) * len(result["samples"])
        harness = wall - tool
        shares.append(100 * harness / wall if wall else 0.0)
        name = str(result["test"]).rpartition("::")[2]
        print(f"{name:<32} {wall:7.2f} {tool:7.2f} {harness:9.2f} {shares[-1]:9.1f}")
    if shares:
        later = shares[1:] or shares
        print(f"harness share: first test {shares[0]:.1f}% (the run's one-time checks), later "
              f"tests median {sorted(later)[len(later) // 2]:.1f}% (goal under {GOAL_PCT:g}% "
              "on an idle host)")
    for line in out.splitlines():
        if "never went idle" in line:
            print(line.strip())


if __name__ == "__main__":
    main()
