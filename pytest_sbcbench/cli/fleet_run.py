"""``sbcbench fleet run --places TAGS... [options] -- PYTEST_ARGS``: the options, and the
command (the work is :mod:`..run.fleet`'s)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from ..run.fleet_exit import CANNOT_GATE

TAG = re.compile(r"[a-z][a-z0-9_-]*=[A-Za-z0-9_.-]+")  # labgrid's TAG_KEY and TAG_VAL
DEFAULT_COORDINATOR = "127.0.0.1:20408"  # labgrid-client's own default
DEFAULT_RESERVE_TIMEOUT_S = 600.0


def place_tags(value: str) -> str:
    """``--places`` item: ``KEY=VALUE[,KEY=VALUE...]``, the tags one place must carry."""
    if not value or not all(TAG.fullmatch(pair) for pair in value.split(",")):
        raise argparse.ArgumentTypeError(
            f"{value!r}: give the tags one place must have, KEY=VALUE[,KEY=VALUE...] "
            "(e.g. board=rpi5 or board=star64,soc=jh7110)")
    return value


def seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 < number <= 7 * 86400:
        raise argparse.ArgumentTypeError(f"{value!r}: seconds, above 0 and at most a week")
    return number


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = actions.add_parser(
        "run", help="reserve labgrid places by tags and run the suite on each in parallel",
        description="Reserve one labgrid place per --places item through the coordinator "
                    "(labgrid's own reservations), run 'python -m pytest -p labgrid --lg-env "
                    "ENV PYTEST_ARGS' on each in parallel (LG_PLACE=+TOKEN), release every "
                    "place on every exit, and print one line per place and a fleet line. "
                    "Exit: the worst place's code, 2 > 1 > 4 > 6 > 0 (interrupted or "
                    "unusable, regression, cannot gate, undecided, no regression).")
    run.add_argument("--places", type=place_tags, nargs="+", required=True, metavar="TAGS",
                     help="one place per item, by the tags it must carry: "
                          "KEY=VALUE[,KEY=VALUE...]; an item given twice reserves two places")
    run.add_argument("--lg-env", type=Path, default=None, metavar="ENV",
                     help="labgrid environment file naming its place as "
                          "!template '$LG_PLACE' (default: $LG_ENV)")
    run.add_argument("--coordinator", default=None, metavar="HOST:PORT",
                     help=f"labgrid coordinator (default: $LG_COORDINATOR, else "
                          f"{DEFAULT_COORDINATOR})")
    run.add_argument("--reserve-timeout", type=seconds, default=DEFAULT_RESERVE_TIMEOUT_S,
                     metavar="S", help="seconds to wait for each place to come free; a place "
                                       "not reserved by then exits 4 (default 600)")
    run.add_argument("--logs", type=Path, default=Path("fleet-logs"), metavar="DIR",
                     help="each place's pytest output in DIR/<place>.log (default: fleet-logs)")
    run.add_argument("--sbc-history", default=None, metavar="URL",
                     help="the history every place's pytest writes its sessions to: "
                          "sqlite:///PATH or postgresql://... (set as SBCBENCH_HISTORY for each; "
                          "checked before anything is reserved; default: SBCBENCH_HISTORY as "
                          "set, else each run's <baselines>/history.sqlite)")
    run.add_argument("pytest_args", nargs="*", metavar="-- PYTEST_ARGS",
                     help="passed to every place's pytest untouched (e.g. the suite, "
                          "--sbc-baselines DIR, --sbc-gate)")
    run.set_defaults(run=cmd_fleet_run)


def cmd_fleet_run(args: argparse.Namespace) -> int:
    """``sbcbench fleet run``: progress on stderr, the tally on stdout, the fleet's code."""
    from ..run.fleet import FleetPlan, run_fleet, tally

    lg_env = args.lg_env or (Path(os.environ["LG_ENV"]) if os.environ.get("LG_ENV") else None)
    if lg_env is None:
        print("sbcbench fleet run: no environment file: give --lg-env ENV or set LG_ENV",
              file=sys.stderr)
        return CANNOT_GATE
    if not lg_env.is_file():
        print(f"sbcbench fleet run: environment file {lg_env} not found: nothing was reserved",
              file=sys.stderr)
        return CANNOT_GATE
    history, shown = args.sbc_history, ""
    if history is not None:
        from ..judge.history_url import HistoryError, parse

        try:
            shown = str(parse(history))
        except HistoryError as exc:
            print(f"sbcbench fleet run: --sbc-history: {exc}: nothing was reserved",
                  file=sys.stderr)
            return CANNOT_GATE
    plan = FleetPlan(places=list(args.places), lg_env=lg_env.resolve(),
                     coordinator=args.coordinator or os.environ.get("LG_COORDINATOR")
                     or DEFAULT_COORDINATOR, pytest_args=list(args.pytest_args),
                     logs=args.logs, reserve_timeout=args.reserve_timeout, history=history)

    def say(line: str) -> None:
        print(f"fleet: {line}", file=sys.stderr, flush=True)

    if history is not None:
        say(f"every place's sessions go to the history {shown}")
    runs, interrupted = run_fleet(plan, say)
    shown, code = tally(runs, interrupted)
    print(shown, end="", flush=True)
    return code
