"""``sbcbench history show|changes|triage|merge`` and ``sbcbench publish``: the history for
people.

:func:`history_commands` adds the actions under ``sbcbench history`` (which alone still prints
the summary), :func:`publish_command` adds ``publish``.  Each takes ``--history URL``
(``sqlite:///PATH`` or ``postgresql://...``; default: ``SBCBENCH_HISTORY``, else
``<baselines>/history.sqlite``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SbcBenchError
from ..values import board_name

if TYPE_CHECKING:
    from ..judge.history_url import Location


HISTORY_HELP = ("the history: sqlite:///PATH or postgresql://... (default: SBCBENCH_HISTORY, "
                "else history.sqlite in --baselines)")


def history_option(command: argparse.ArgumentParser, suppress: bool = True) -> None:
    """``--history URL``; SUPPRESS: a value given before the action (sbcbench history
    --history X show) stays."""
    command.add_argument("--history", default=argparse.SUPPRESS if suppress else None,
                         metavar="URL", help=HISTORY_HELP)


def out_folder(value: str) -> Path:
    """A folder to write into, as given: an empty name is refused (it would be the current
    directory, which nobody asked for; ``.`` says so)."""
    if not value.strip():
        raise argparse.ArgumentTypeError(f"{value!r}: an empty folder name; name the folder "
                                         "to write into ('.' for the current one)")
    return Path(value)


def _baselines(command: argparse.ArgumentParser, order: bool = True) -> None:
    # SUPPRESS: a value given before the action (sbcbench history --baselines X show) stays
    command.add_argument("--baselines", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                         help="the baselines directory holding history.sqlite "
                              "(default: baselines)")
    history_option(command)
    if order:
        command.add_argument("--order", choices=["first", "version"], default=argparse.SUPPRESS,
                             help="labels of a board by their first session (default) or by "
                                  "the kernel version they booted")


def history_commands(history: argparse.ArgumentParser) -> None:
    actions = history.add_subparsers(dest="history_command", metavar="ACTION")
    show = actions.add_parser("show", help="one metric across labels: boot means, each "
                                           "label's interval and verdicts; a chart with --out")
    show.add_argument("board", nargs="?", type=board_name, default=None,
                      help="the board (default: the only board the history holds)")
    show.add_argument("-k", dest="metric", default=None, metavar="METRIC",
                      help="the metric (e.g. sha512; default: every metric of the board)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.add_argument("--out", type=out_folder, default=None, metavar="DIR",
                      help="also write a PNG and an SVG chart per metric into DIR")
    _baselines(show)
    show.set_defaults(run=cmd_show)
    changes = actions.add_parser("changes", help="change points across labels, boot-aware, "
                                                 "grouped into incidents")
    changes.add_argument("--json", action="store_true", help="print JSON")
    _baselines(changes)
    changes.set_defaults(run=cmd_changes)
    triage = actions.add_parser("triage", help="record an incident's triage state "
                                               "(append-only: the latest one counts)")
    triage.add_argument("incident", metavar="ID", help="the incident (BOARD@LABEL, as "
                                                       "'sbcbench history changes' names it)")
    triage.add_argument("--state", required=True, choices=["acknowledged", "invalid", "fixed"])
    triage.add_argument("--note", default="", help="why (kept with the state)")
    _baselines(triage, order=False)
    triage.set_defaults(run=cmd_triage)
    merge = actions.add_parser("merge", help="histories of several controllers into one "
                                             "(idempotent: merging twice adds nothing)")
    merge.add_argument("sources", nargs="+", metavar="SOURCE",
                       help="a history to merge from (a .sqlite file or a URL)")
    merge.add_argument("--into", default=None, metavar="URL",
                       help="the history merged into (default: --history, else "
                            "SBCBENCH_HISTORY, else history.sqlite in --baselines)")
    _baselines(merge, order=False)
    merge.set_defaults(run=cmd_merge)


def publish_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    publish = sub.add_parser("publish", help="a static site from the history: boards, "
                                             "incidents, a chart per metric, an Atom feed")
    publish.add_argument("out", type=out_folder, metavar="OUT",
                         help="folder to write the site into")
    publish.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                         help="the baselines directory holding history.sqlite "
                              "(default: baselines)")
    history_option(publish, suppress=False)
    publish.add_argument("--order", choices=["first", "version"], default="first",
                         help="labels of a board by their first session (default) or by the "
                              "kernel version they booted")
    publish.add_argument("--jobs", type=int, default=None, metavar="N",
                         help="processes judging and writing the boards (default: one per "
                              "CPU from 8 boards on)")
    publish.set_defaults(run=cmd_publish)


def _order(args: argparse.Namespace) -> str:
    return str(getattr(args, "order", "first"))


def location_of(args: argparse.Namespace) -> Location:
    """The history a command reads: ``--history``, else ``SBCBENCH_HISTORY``, else
    ``<--baselines>/history.sqlite``."""
    from ..judge import history

    return history.location(getattr(args, "history", None),
                            getattr(args, "baselines", Path("baselines")))


_path = location_of


def say_left_out(path: Location) -> None:
    """On stderr: the names the history holds sessions under that are no board names, which
    every reader leaves out (:mod:`..judge.stored_names`)."""
    from ..judge import history_read
    from ..judge.stored_names import refusal

    line = refusal(path, history_read.left_out(path))
    if line is not None:
        print(f"warning: {line}", file=sys.stderr)


def _board(path: Location, asked: str | None) -> str:
    from ..judge import history_read

    boards = history_read.boards(path)
    if asked is not None:
        if asked not in boards:
            raise SbcBenchError(f"board {asked!r} is not in {path} (it holds: "
                                f"{', '.join(boards) or 'no board'})")
        return asked
    if len(boards) != 1:
        raise SbcBenchError(f"{path} holds {len(boards)} boards ({', '.join(boards)}): "
                            "name one")
    return boards[0]


def cmd_show(args: argparse.Namespace) -> int:
    from ..judge import changes, history_read, label_levels
    from ..judge.stored_names import shown
    from ..report import history_view

    path = _path(args)
    say_left_out(path)
    board = history_read.board_history(path, _board(path, args.board), _order(args))
    chosen = [s for s in board.series if args.metric in (None, s.metric, s.name)]
    if not chosen:
        raise SbcBenchError(f"no metric {shown(repr(args.metric))} on {board.board} (it has: "
                            f"{', '.join(shown(s.name) for s in board.series)})")
    found = changes.board_incidents(board, history_read.read_triage(path))
    docs, texts, written = [], [], []
    for series in chosen:
        levels = label_levels.levels(series)
        docs.append(history_view.show_json(series, levels, found))
        texts.append(history_view.show_text(series, levels, found))
        if args.out is not None:
            from ..report import history_chart

            written += history_chart.write(series, levels, found, args.out)
    if args.json:
        print(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2))
    else:
        print("\n\n".join(texts))
    if written:
        print(f"charts: {', '.join(str(p) for p in written)}", file=sys.stderr)
    return 0


def cmd_changes(args: argparse.Namespace) -> int:
    from ..judge import changes, history_read
    from ..report import history_view

    path = _path(args)
    say_left_out(path)
    triage = history_read.read_triage(path)
    boards = history_read.all_boards(path, _order(args))
    found = [i for b in boards for i in changes.board_incidents(b, triage)]
    names = [b.board for b in boards]
    if args.json:
        print(json.dumps(history_view.changes_json(found, names), indent=2))
    else:
        print(history_view.changes_text(found, len(names)))
    return 0


def cmd_triage(args: argparse.Namespace) -> int:
    from ..judge import changes, history_read
    from ..judge.stored_names import shown

    path = _path(args)
    known = {i.id for b in history_read.all_boards(path) for i in changes.board_incidents(b)}
    if args.incident not in known:
        raise SbcBenchError(f"no incident {shown(repr(args.incident))} in {path} (its "
                            f"incidents now: {', '.join(map(shown, sorted(known))) or 'none'})")
    when = history_read.append_triage(path, args.incident, args.state, args.note)
    print(f"{shown(args.incident)}: {args.state} ({shown(when)})")
    return 0


def cmd_publish(args: argparse.Namespace) -> int:
    from ..report import website

    if args.jobs is not None and args.jobs < 1:
        raise SbcBenchError(f"--jobs {args.jobs}: expected 1 or more")
    path = _path(args)
    say_left_out(path)
    pages = website.publish(path, args.out, _order(args), args.jobs)
    print(f"published {len(pages)} pages into {args.out} (open {args.out / 'index.html'})")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from ..judge import history_merge
    from ..judge.history_url import parse
    from ..judge.stored_names import refusal

    into = parse(args.into) if args.into else location_of(args)
    sources = [parse(s) for s in args.sources]
    done = history_merge.merge(sources, into)
    print(f"merged into {into}: {done.added} sessions added, {done.held} already held, "
          f"{done.triage_added} triage entries added")
    line = refusal(", ".join(map(str, sources)), done.refused, "not merged")
    if line is not None:
        print(f"warning: {line}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``sbcbench export kcidb`` here; ``export lava RESULTS`` in :mod:`.commands`."""
    if args.format != "kcidb":
        from .commands import cmd_export as export_results

        return export_results(args)
    return cmd_export_kcidb(args)


def cmd_export_kcidb(args: argparse.Namespace) -> int:
    """``sbcbench export kcidb [--history URL] [-o FILE]``: checked with kcidb-io first."""
    from ..fileio import write_atomic
    from ..report import kcidb

    where = location_of(args)
    say_left_out(where)
    doc = kcidb.document(where)
    kcidb.validate(doc)
    text = json.dumps(doc, indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomic(args.output, text.encode())
        print(f"kcidb: {len(doc['checkouts'])} checkouts, {len(doc['builds'])} builds, "
              f"{len(doc['tests'])} tests written to {args.output}", file=sys.stderr)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """``sbcbench history``: boards, labels and boots, labels in ``--order``."""
    from ..judge import history

    path = history.location(args.history, args.baselines)
    print(history.render(history.summary(path, getattr(args, "order", "first"))))
    return 0
