"""``sbcbench bisect --repo DIR --good REF --bad REF --build CMD [--boots-budget N] [--resume]
[--json] -- PYTEST_ARGS...``: its options (declared here, called from :func:`.parser`) and what
it does (:mod:`pytest_sbcbench.run.bisect.command`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import SbcBenchError

EPILOG = """exit codes: 0 first bad commit named (confirmed against its parent); 1 no culprit
(the ends do not differ, skipped commits leave several, or the confirmation failed; the reason
is named); 2 interrupted (Ctrl-C: --resume continues) or unusable arguments; 3 stopped at a
commit that could not be built or measured (named; --resume retries it). The build command
runs in DIR (exit 0 built and installed, 125 skip this commit, anything else stops). See
docs/bisect.md."""


def budget(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if not 3 <= n <= 100:
        raise argparse.ArgumentTypeError(f"{value!r}: give a whole number of boots, 3 to 100")
    return n


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("bisect", help="which commit made the board slower: git bisect with "
                                      "boots, noise-aware steps and the whole bisect's error "
                                      "bounded (5%)",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("--repo", type=Path, default=None, metavar="DIR",
                   help="the git repository to bisect (kernel, BSP, ...)")
    b.add_argument("--good", default=None, metavar="REF", help="a commit without the drop")
    b.add_argument("--bad", default=None, metavar="REF", help="a commit with the drop")
    b.add_argument("--build", default=None, metavar="CMD",
                   help="shell command run in DIR at each commit: build and install it so the "
                        "board boots it (exit 125: skip this commit)")
    b.add_argument("--boots-budget", type=budget, default=12, metavar="N",
                   help="most boots of one commit in one test (each end, a step, each side "
                        "of the confirmation); default 12")
    b.add_argument("--metric", default=None, metavar="TEXT",
                   help="bisect the metric whose key contains TEXT (default: the one whose "
                        "drop between the ends is clearest)")
    b.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                   help="where the state lives (default: <repo>/.git/sbcbench-bisect)")
    b.add_argument("--resume", action="store_true",
                   help="continue the bisect of the state directory (after Ctrl-C, a stop "
                        "or a lost board)")
    b.add_argument("--json", action="store_true", help="print the result as JSON")
    b.add_argument("pytest_args", nargs="*", metavar="PYTEST_ARGS",
                   help="after --: the suite, e.g. -p labgrid --lg-env ENV -k sha512")
    b.set_defaults(run=cmd_bisect)


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_bisect(args: argparse.Namespace) -> int:
    from ..run.bisect import command

    try:
        if args.resume:
            state = command.resume_state(args.repo, args.state_dir)
        else:
            missing = [o for o, v in (("--repo", args.repo), ("--good", args.good),
                                      ("--bad", args.bad), ("--build", args.build)) if v is None]
            if missing or not args.pytest_args:
                what = ", ".join(missing + ([] if args.pytest_args else ["-- PYTEST_ARGS"]))
                print(f"sbcbench bisect: missing {what} (or --resume)", file=sys.stderr)
                return 2
            state = command.new_state(args.repo, args.good, args.bad, args.build,
                                      args.pytest_args, args.boots_budget, args.metric,
                                      args.state_dir)
    except SbcBenchError as exc:
        print(f"sbcbench bisect: {exc}", file=sys.stderr)
        return 2
    code, doc = command.execute(state, say)
    print(json.dumps(doc, indent=2, sort_keys=True) if args.json else command.render(doc))
    return code
