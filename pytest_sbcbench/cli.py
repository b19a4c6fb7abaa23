"""``sbcbench`` command line: the plugin's functions outside pytest."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .errors import SbcBenchError, SchemaError
from .judge import signing
from .judge.baseline import load_baseline
from .judge.telemetry import summarize_trace
from .judge.validity import findings, throttling
from .judge.verdict import judge
from .measure.sampler import Sampler
from .platform.probe import probe
from .platform.sysroot import Sysroot
from .report.results import load_results
from .settings import positive_float


def _probe(args: argparse.Namespace) -> int:
    facts = probe(Sysroot(args.sysroot)).as_dict()
    if args.json:
        print(json.dumps(facts, indent=2))
    else:
        for key, value in facts.items():
            print(f"{key:12} {value}")
    return 0


def _monitor(args: argparse.Namespace) -> int:
    sysroot = Sysroot(args.sysroot)
    sampler = Sampler(sysroot, args.interval, load_source="system")
    sampler.start()
    try:
        time.sleep(args.duration)
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the monitor early; the summary of what was sampled still prints
    trace = sampler.stop()
    telemetry = summarize_trace(trace)
    found = findings(trace, telemetry)
    telemetry.update(throttling(found))
    telemetry["findings"] = [f.as_dict() for f in found]
    if args.json:
        print(json.dumps(telemetry, indent=2))
    else:
        for key, value in telemetry.items():
            print(f"{key:22} {value}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    baseline = load_baseline(args.baseline)
    if baseline is None:
        raise SchemaError(args.baseline, None, "no such baseline file")
    board, results = load_results(args.results)
    if board != baseline.board:
        print(f"note: results are for board {board}, the baseline for {baseline.board}")
    regressions = 0
    for result in results:
        verdict = judge(result, baseline, baseline.board)
        regressions += verdict.status == "regression"
        print(f"{verdict.status:12} {result.test}: {verdict.detail}")
    print(f"{len(results)} results, {regressions} regression(s)")
    return 1 if regressions else 0


def _keygen(args: argparse.Namespace) -> int:
    private, public = signing.keygen(args.prefix)
    print(f"private key: {private} (keep it off the board under test)\npublic key:  {public}")
    return 0


def _sign(args: argparse.Namespace) -> int:
    load_baseline(args.baseline)  # refuse to sign a broken file
    print(f"signature: {signing.sign(args.baseline, args.key)}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sbcbench", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe", help="platform facts read from /proc and /sys (or --sysroot)")
    p.add_argument("--sysroot", type=Path, default=Path("/"), metavar="DIR",
                   help="read /proc and /sys from DIR (a captured board tree)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_probe)
    m = sub.add_parser("monitor", help="sample clocks, temperature and memory outside pytest")
    m.add_argument("--sysroot", type=Path, default=Path("/"), metavar="DIR",
                   help="read /proc and /sys from DIR (a captured board tree)")
    m.add_argument("--interval", type=positive_float, default=1.0, metavar="S",
                   help="seconds between samples (default 1.0)")
    m.add_argument("--duration", type=positive_float, required=True, metavar="S",
                   help="seconds to sample")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(run=_monitor)
    c = sub.add_parser("compare", help="gate a results file against a baseline file")
    c.add_argument("baseline", type=Path)
    c.add_argument("results", type=Path)
    c.set_defaults(run=_compare)
    k = sub.add_parser("keygen", help="make an Ed25519 key pair for signing baselines")
    k.add_argument("prefix", type=Path, nargs="?", default=Path("sbcbench"),
                   help="writes PREFIX.key and PREFIX.pub (default: sbcbench)")
    k.set_defaults(run=_keygen)
    g = sub.add_parser("sign", help="sign a baseline file (writes BASELINE.sig)")
    g.add_argument("baseline", type=Path)
    g.add_argument("--key", type=Path, required=True, help="private key from 'sbcbench keygen'")
    g.set_defaults(run=_sign)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except SbcBenchError as exc:
        print(f"sbcbench {args.command}: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
