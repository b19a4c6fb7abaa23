"""``sbcbench`` command line: the plugin's functions outside pytest."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import SbcBenchError
from .platform.probe import probe
from .platform.sysroot import Sysroot


def _probe(args: argparse.Namespace) -> int:
    facts = probe(Sysroot(args.sysroot)).as_dict()
    if args.json:
        print(json.dumps(facts, indent=2))
    else:
        for key, value in facts.items():
            print(f"{key:12} {value}")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sbcbench", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe", help="platform facts read from /proc and /sys (or --sysroot)")
    p.add_argument("--sysroot", type=Path, default=Path("/"), metavar="DIR",
                   help="read /proc and /sys from DIR (a captured board tree)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_probe)
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
