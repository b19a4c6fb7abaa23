#!/usr/bin/env python3
"""Suite-level false alarms and detection through real pytest runs, beside the simulation.

    python3 scripts/suite_replay.py [--trials K] [--cv 0.5] [--drift 0.5] [--boots 3]
                                    [--shift -3] [--shift-alg aes-128-gcm] [--seed 13]

The shipped crypto suite (``benchmarks/ -m crypto``, the in-process test left out: it measures
this host, not the stand-in) runs under pytest with the stand-in ``scripts/fake-openssl/openssl``
(``SBCBENCH_OPENSSL``), whose throughput has within-boot noise ``--cv`` % and a per-boot,
per-algorithm offset of SD ``--drift`` % (``SBCBENCH_FAKE_*``).  A simulated boot is a name:
the stand-in draws its offsets from it and the plugin records it as the session's boot id
(``SBCBENCH_BOOT_ID``, for testing and simulation only).  Steps, in a temporary directory:

per trial (K trials, each with its own baseline, as the simulation draws one per suite):

1. ``--sbc-save-baseline`` in ``--boots`` new boots;
2. one unchanged run, a new boot: any ``regression`` is a suite false alarm;
3. one run, a new boot, with ``--shift`` % throughput on ``--shift-alg`` only: detection is
   that metric's ``regression``; a regression elsewhere is a false alarm.

Each boot has its own noise stream (seed and boot name) and its own offsets.

Every run is ``--sbc-quick --sbc-runs 3 --sbc-idle-wait 0`` (3 runs a boot, as the simulation).
The prediction is the shipped procedure simulated (benchmarks/gate_boots.py, as
gate_simulation.py runs it) with the same CV, drift, baseline boots and number of metrics, one
candidate boot (``--predict-trials`` suites).  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FAKE = REPO / "scripts" / "fake-openssl" / "openssl"
SELECT = ["benchmarks", "-m", "crypto", "-k", "not inprocess"]
OPTIONS = ["--sbc-quick", "--sbc-runs", "3", "--sbc-idle-wait", "0", "-p", "no:cacheprovider",
           "-q", "--board", "generic-x86_64"]


def run(work: Path, boot: str, env: dict[str, str], *args: str) -> dict[str, str]:
    """One pytest run in simulated boot ``boot``: {metric label: verdict status}."""
    out = work / f"{boot}.json"
    full = {**env, "SBCBENCH_BOOT_ID": boot, "SBCBENCH_FAKE_BOOT": boot,
            "SBCBENCH_FAKE_SEED": f"{env['SBCBENCH_FAKE_SEED']}-{boot}",
            "SBCBENCH_FAKE_STATE": str(work / f"{boot}.count")}
    baselines = work / f"bl-{boot.split('-')[0]}"
    done = subprocess.run([sys.executable, "-m", "pytest", *SELECT, *OPTIONS,
                           "--sbc-baselines", str(baselines), "--sbc-results", str(out),
                           *args], cwd=work, env=full, capture_output=True, text=True,
                          check=False, timeout=1800)
    if not out.exists():
        raise SystemExit(f"run {boot} wrote no results (exit {done.returncode}):\n"
                         f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    results = json.loads(out.read_text())["results"]
    return {r["label"] or r["metric"]: r["verdict"]["status"] for r in results}


def environment(args: argparse.Namespace) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("SBCBENCH_", "OPENSSL_", "PYTEST_"))}
    return {**clean, "SBCBENCH_OPENSSL": str(FAKE), "SBCBENCH_FAKE_CV": str(args.cv),
            "SBCBENCH_FAKE_DRIFT": str(args.drift), "SBCBENCH_FAKE_SEED": str(args.seed)}


def replay(args: argparse.Namespace, work: Path) -> dict[str, list[dict[str, str]]]:
    (work / "benchmarks").mkdir()
    shutil.copy(REPO / "benchmarks" / "test_crypto.py", work / "benchmarks")
    (work / "pytest.ini").write_text("[pytest]\n")
    env = environment(args)
    shifted = {**env, "SBCBENCH_FAKE_SHIFT": str(args.shift),
               "SBCBENCH_FAKE_SHIFT_ALGS": args.shift_alg}
    runs: dict[str, list[dict[str, str]]] = {"unchanged": [], "slower": []}
    for trial in range(args.trials):
        for i in range(args.boots):  # boot names "t<trial>-..." share the trial's baselines
            run(work, f"t{trial}-b{i + 1}", env, "--sbc-save-baseline")
        runs["unchanged"].append(run(work, f"t{trial}-unchanged", env))
        runs["slower"].append(run(work, f"t{trial}-slower", shifted))
        print(f"trial {trial + 1}/{args.trials} done", file=sys.stderr, flush=True)
    return runs


def measured(runs: dict[str, list[dict[str, str]]], alg: str) -> dict[str, float | int]:
    unchanged, slower = runs["unchanged"], runs["slower"]
    statuses = Counter(s for r in unchanged for s in r.values())
    metrics = sum(len(r) for r in unchanged)
    target = [r[alg] for r in slower if alg in r]
    return {
        "metrics": len(unchanged[0]) if unchanged else 0,
        "fa_metric": statuses["regression"] / max(1, metrics),
        "fa_suite": sum(any(s == "regression" for s in r.values()) for r in unchanged)
        / max(1, len(unchanged)),
        "inconclusive": statuses["inconclusive"] / max(1, metrics),
        "detected": sum(s == "regression" for s in target) / max(1, len(target)),
        "other_fa": sum(any(s == "regression" for k, s in r.items() if k != alg)
                        for r in slower) / max(1, len(slower)),
    }


def predicted(args: argparse.Namespace, metrics: int) -> dict[str, float]:
    """The shipped procedure simulated (benchmarks/gate_boots.py, gate_simulation.py's cells)
    for the same CV, drift, baseline boots and suite size, and one candidate boot: each pytest
    run here is judged alone.  Suites counted as failing are those with a metric regressed (the
    pytest runs are read by their verdicts; the suite-mean test has no verdict of its own)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import gate_boots as sim

    shift = -args.shift / 100.0  # the simulation's metrics are lower-is-better
    cell = sim.BootCell("suite replay", args.boots, 1, (args.cv / 100.0,),
                        (args.drift / 100.0,), drops=(("lone", shift),), targets=(0.0,),
                        metrics=metrics)
    t = sim.run_boot_cell(cell, args.predict_trials, args.seed)
    return {"fa_metric": t.null_regressions / t.metrics, "fa_suite": t.failed_metric / t.suites,
            "inconclusive": t.null_inconclusive / t.metrics,
            "detected": (t.detected or [0])[0] / t.suites}


def table(args: argparse.Namespace, got: dict[str, float | int],
          want: dict[str, float]) -> list[str]:
    def pct(x: float) -> str:
        return f"{100 * x:.1f}%"
    head = (f"CV {args.cv:g}%, drift {args.drift:g}%, {args.boots} boots, "
            f"{got['metrics']} metrics, {args.shift:g}% on {args.shift_alg}")
    return [f"| {head} | false alarms per metric / per suite | inconclusive (unchanged) | "
            f"detected {-args.shift:g}% |", "|---|---|---|---|",
            f"| pytest runs ({args.trials} unchanged + {args.trials} slower) | "
            f"{pct(got['fa_metric'])} / {pct(got['fa_suite'])} | {pct(got['inconclusive'])} | "
            f"{pct(got['detected'])} |",
            f"| gate_simulation.py ({args.predict_trials} suites) | {pct(want['fa_metric'])} / "
            f"{pct(want['fa_suite'])} | {pct(want['inconclusive'])} | "
            f"{pct(want['detected'])} |"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--predict-trials", type=int, default=400)
    parser.add_argument("--cv", type=float, default=0.5)
    parser.add_argument("--drift", type=float, default=0.5)
    parser.add_argument("--boots", type=int, default=3)
    parser.add_argument("--shift", type=float, default=-3.0)
    parser.add_argument("--shift-alg", default="aes-128-gcm")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="suite-replay-") as tmp:
        runs = replay(args, Path(tmp))
    got = measured(runs, args.shift_alg)
    want = predicted(args, int(got["metrics"]))
    print("\n".join(table(args, got, want)))
    if got["other_fa"]:
        print(f"slower runs with a regression on another metric: {100 * got['other_fa']:.1f}%")
    if args.json:
        print(json.dumps({"measured": got, "predicted": want}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
