"""``sbcbench parse bssl LOG [--json]``: a ``bssl speed`` log, read by
:mod:`pytest_sbcbench.measure.bssl`."""

from __future__ import annotations

import argparse
import json
import sys

from ..jsonload import read_bytes
from ..measure.bssl import parse_bssl_speed


def parse_bssl(args: argparse.Namespace) -> int:
    """Every result line of a ``bssl speed`` log (each checked against its own counts): op/s
    and, with a chunk size, bytes/s."""
    text = read_bytes(args.file, "bssl speed log").decode(errors="replace")
    report = parse_bssl_speed(text)
    for note in report.notes:
        print(f"sbcbench parse: note: {note}", file=sys.stderr)
    rows = [{"name": r.name, "block_bytes": r.block_bytes, "calls": r.calls,
             "microseconds": r.microseconds, "ops_per_second": r.ops_per_second,
             "bytes_per_second": r.bytes_per_second} for r in report.results]
    if args.json:
        print(json.dumps({"tool": "bssl speed", "results": rows, "notes": list(report.notes)},
                         indent=2))
        return 0
    for r in report.results:
        size = f"{r.block_bytes} B" if r.block_bytes is not None else "-"
        rate = f"{r.bytes_per_second:>14.6g} B/s" if r.bytes_per_second is not None else ""
        print(f"{r.name!s:44} {size:>8} {r.ops_per_second:>14.6g} op/s {rate}")
    return 0
