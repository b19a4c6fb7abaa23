"""``sbcbench baseline list|drop|restore`` (:mod:`.` parses them): a baseline's sessions with
their findings and status, and reviewable drops (:mod:`..judge.baseline_review`).

Exit codes as the other commands: 0 done, 2 unusable input (no such file or session, nothing
to change: raised as :class:`~pytest_sbcbench.errors.SbcBenchError`)."""

from __future__ import annotations

import argparse
import json

from ..errors import SbcBenchError
from ..judge.baseline_noise import metric_noise, noise_lines
from ..judge.baseline_review import apply, list_lines, sessions, split
from ..judge.baseline_store import load_any


def cmd_baseline_list(args: argparse.Namespace) -> int:
    """``sbcbench baseline list FILE [--json]``: every session with its status, then each
    metric's measured run CV and boot drift (:mod:`..judge.baseline_noise`)."""
    baseline = load_any(args.file)
    if baseline is None:
        raise SbcBenchError(f"{args.file}: no such baseline")
    noise = metric_noise(baseline)
    if args.json:
        print(json.dumps({"baseline": str(args.file), "board": baseline.board,
                          "sessions": [r.as_dict() for r in sessions(baseline)],
                          "metrics": [n.as_dict() for n in noise]}, indent=2))
    else:
        print("\n".join([*list_lines(baseline, args.file), *noise_lines(noise)]))
    return 0


def cmd_baseline_change(args: argparse.Namespace) -> int:
    """``sbcbench baseline drop|restore FILE SESSION [--dry-run]``: what changed, written
    under the baseline's lock."""
    print("\n".join(apply(args.file, args.session, args.action, args.dry_run)))
    return 0


def cmd_baseline_split(args: argparse.Namespace) -> int:
    """``sbcbench baseline split FILE``: the file becomes a directory's first save."""
    print("\n".join(split(args.file)))
    return 0
