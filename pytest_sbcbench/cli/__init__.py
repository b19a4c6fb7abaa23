"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

``sbcbench`` command line: the plugin's functions outside pytest.

This package is the one place that parses arguments: :func:`parser` declares every subcommand
and its options, :mod:`.commands` does what each one says."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import SbcBenchError
from ..measure.openssl_parse import detect_version, mr_rate_unit
from ..values import board_name, duration_seconds, interval_seconds, min_effect_pct
from . import baseline_commands, bisect_cmd, commands, fleet_run, history_cli

DESCRIPTION = "``sbcbench`` command line: the plugin's functions outside pytest."


def openssl_version(value: str) -> str:
    """``--openssl-version``: ``1.1.1w``, ``LibreSSL 2.8.3`` or the banner ``openssl version``
    prints (``OpenSSL 1.1.1w  11 Sep 2023``); anything naming no version is a usage error."""
    version = detect_version(value) or value.strip()
    if mr_rate_unit(version) is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} names no OpenSSL version: give e.g. 1.1.1w, 3.0.19, "
            "'OpenSSL 1.1.1w  11 Sep 2023' (what 'openssl version' prints) or 'LibreSSL 2.8.3'")
    return version


def package_version() -> str:
    """The installed distribution's version (package metadata, the one source of truth)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pytest-sbcbench")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        from ..version import __version__

        return f"{__version__} (not installed)"


class VersionAction(argparse.Action):
    """``--version``, read from package metadata only when asked for (not on every start)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def sysroot_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--sysroot", type=Path, default=Path("/"), metavar="DIR",
                         help="read /proc and /sys from DIR (a captured board tree)")


def capture_options(command: argparse.ArgumentParser) -> None:
    """``sbcbench capture [local | --lg-env ENV [--role ROLE]] [--out FILE] [--root DIR]``."""
    command.add_argument("where", nargs="?", choices=["local"], default=None,
                         help="this machine (the default without --lg-env)")
    command.add_argument("--lg-env", type=Path, default=None, metavar="ENV",
                         help="labgrid environment file: capture its target over labgrid")
    command.add_argument("--role", default="main", help="target in ENV (default: main)")
    command.add_argument("--out", type=Path, default=None, metavar="FILE",
                         help="tarball to write (default: sbcbench-capture-<target>.tar.gz)")
    command.add_argument("--root", default="/", metavar="DIR",
                         help="root directory on the target (default: /)")
    command.set_defaults(run=commands.cmd_capture)


def fleet_options(fleet: argparse.ArgumentParser) -> None:
    """``sbcbench fleet merge RESULTS... [--out DIR] [--baselines DIR]`` and ``sbcbench fleet
    run --places TAGS... -- PYTEST_ARGS`` (:mod:`.fleet_run`)."""
    actions = fleet.add_subparsers(dest="fleet_command", required=True)
    merge = actions.add_parser("merge", help="one fleet report from per-place results "
                                             "files (one pytest per labgrid place)")
    merge.add_argument("results", type=Path, nargs="+")
    merge.add_argument("--out", type=Path, default=None, metavar="DIR",
                       help="write report.md and PNG+SVG charts into DIR")
    merge.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                       help="extra board profiles in DIR/boards (default: ./baselines)")
    merge.set_defaults(run=commands.cmd_fleet_merge)
    fleet_run.add_parser(actions)


def baseline_options(command: argparse.ArgumentParser) -> None:
    """``sbcbench baseline list FILE [--json]``, ``drop FILE SESSION [--dry-run]``,
    ``restore FILE SESSION [--dry-run]``, ``split FILE``."""
    actions = command.add_subparsers(dest="baseline_command", required=True)
    ls = actions.add_parser("list", help="every session (one save) with its date, boot, "
                                         "label or kernel, findings and status")
    ls.add_argument("file", type=Path, help="baseline file (baselines/<board>.json) or "
                                            "directory of saves (baselines/<board>/)")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(run=baseline_commands.cmd_baseline_list)
    for name, what in (("drop", "mark a session dropped: kept in the file, never judged "
                                "against (restore undoes it)"),
                       ("restore", "undo a drop, or accept a quarantined session (use it)")):
        act = actions.add_parser(name, help=what)
        act.add_argument("file", type=Path, help="baseline file (baselines/<board>.json) or "
                                                 "directory of saves (baselines/<board>/)")
        act.add_argument("session", help="session number from 'sbcbench baseline list', its "
                                         "created time or its boot id (a unique prefix)")
        act.add_argument("--dry-run", action="store_true",
                         help="print what would change, write nothing")
        act.set_defaults(run=baseline_commands.cmd_baseline_change, action=name)
    sp = actions.add_parser("split", help="turn baselines/<board>.json into the directory "
                                          "baselines/<board>/ (the file its first save): each "
                                          "later save is a file of its own, for many boots")
    sp.add_argument("file", type=Path, help="baseline file (baselines/<board>.json)")
    sp.set_defaults(run=baseline_commands.cmd_baseline_split)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sbcbench", description=DESCRIPTION)
    top.add_argument("--version", action=VersionAction, nargs=0,
                     help="print the installed version (package metadata) and exit")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe", help="platform facts read from /proc and /sys (or --sysroot)")
    sysroot_option(p)
    p.add_argument("--engines", type=Path, default=None, metavar="FILE",
                   help="captured 'openssl engine -t -c' output of that machine")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=commands.cmd_probe)
    m = sub.add_parser("monitor", help="sample clocks, temperature and memory outside pytest")
    sysroot_option(m)
    m.add_argument("--interval", type=interval_seconds, default=1.0, metavar="S",
                   help="seconds between samples, 0.05 to 3600 (default 1.0)")
    m.add_argument("--duration", type=duration_seconds, required=True, metavar="S",
                   help="seconds to sample (at most a week)")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--quiet", action="store_true",
                   help="no line per sample on stderr, only the summary")
    m.set_defaults(run=commands.cmd_monitor)
    o = sub.add_parser("parse", help="parse a tool's output")
    o.add_argument("tool", choices=["openssl", "bssl"],
                   help="openssl: an 'openssl speed' log; bssl: a 'bssl speed' log "
                        "(BoringSSL, AWS-LC)")
    o.add_argument("file", type=Path)
    o.add_argument("--openssl-version", type=openssl_version, default=None, metavar="VERSION",
                   help="the version that wrote FILE (e.g. 1.1.1w, or the banner 'openssl "
                        "version' prints), for logs without a banner: asymmetric -mr records "
                        "are op/s from 1.1.1 on, s/op before")
    o.add_argument("--json", action="store_true", help="print JSON")
    o.set_defaults(run=commands.cmd_parse)
    v = sub.add_parser("validate", help="the physics gate on a results file")
    v.add_argument("results", type=Path)
    v.add_argument("--board", default=None, type=board_name,
                   help="board profile to check against (default: the board the results "
                        "file names)")
    v.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                   help="extra board profiles in DIR/boards (default: ./baselines)")
    v.set_defaults(run=commands.cmd_validate)
    r = sub.add_parser("report", help="before/after of one board's results files (e.g. two "
                                      "kernels), or a fleet comparison of several boards")
    r.add_argument("results", type=Path, nargs="+")
    r.add_argument("--view", choices=["auto", "before-after", "fleet"], default="auto",
                   help="auto (default): before/after when every file is of one board, "
                        "else fleet; before/after columns are named by --sbc-candidate "
                        "label, else kernel release, else file name")
    r.add_argument("--format", choices=["md", "json"], default="md")
    r.add_argument("--log", action=argparse.BooleanOptionalAction, default=None,
                   help="fleet charts on a log axis (default: automatic when the values "
                        "span 100x or more)")
    r.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="write report.md/json and PNG+SVG charts into DIR")
    r.add_argument("--vs", default=None, metavar="BOARD",
                   help="reference board for crypto ratios (default: fastest on sha512)")
    r.add_argument("--measured-clock", action="store_true",
                   help="per-GHz figures from the sampled under-load clock when available")
    r.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR")
    r.set_defaults(run=commands.cmd_report)
    c = sub.add_parser(
        "compare", help="gate a candidate's results files against a baseline (or an earlier "
                        "results file)",
        description="Judge the candidate's RESULTS files (one per boot, the last judged with "
                    "the others as its earlier boots) against BASELINE exactly as pytest does, "
                    "Holm's later steps and the suite-mean test included. BASELINE is a "
                    "baseline file or a results file (its results become one baseline "
                    "session, with its environment). A candidate session the baseline already "
                    "holds is refused.",
        epilog="exit codes, those of pytest --sbc-gate on the same files: 0 every metric "
               "decided, no regression; 1 a regression or an implausible number; 2 unusable "
               "input (unreadable or malformed file, named); 4 cannot gate: a result is "
               "incomparable with the baseline (another machine, tool version, block size...) "
               "or has no baseline; 6 undecided: a metric neither passed nor regressed",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("baseline", type=Path, help="baseline file or results file")
    c.add_argument("results", type=Path, nargs="+",
                   help="results files of the candidate's boots (the last is judged)")
    c.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    c.add_argument("--min-effect", type=min_effect_pct, default=None, metavar="PCT",
                   help="delta, the smallest change that matters (default 3, as pytest "
                        "without --sbc-min-effect); never read from the file judged")
    c.add_argument("--allow-incomparable", action="store_true",
                   help="incomparable results do not make the exit code 4 (they count as "
                        "undecided, 6, as under --sbc-allow-incomparable in pytest)")
    c.add_argument("--baselines", type=Path, default=None, metavar="DIR",
                   help="board profiles in DIR/boards (default: the baseline's folder)")
    c.set_defaults(run=commands.cmd_compare)
    ls = sub.add_parser("list", help="every workload: markers, availability here, expected time")
    sysroot_option(ls)
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(run=commands.cmd_list)
    sub.add_parser("run", help="run the shipped suite from any directory: sbcbench run "
                               "[pytest args], e.g. -m crypto --board star64 (sbcbench run "
                               "--help: its options)")
    k = sub.add_parser("keygen", help="make an Ed25519 key pair for signing baselines")
    k.add_argument("prefix", type=Path, nargs="?", default=Path("sbcbench"),
                   help="writes PREFIX.key and PREFIX.pub (default: sbcbench)")
    k.set_defaults(run=commands.cmd_keygen)
    g = sub.add_parser("sign", help="sign a baseline file (writes BASELINE.sig)")
    g.add_argument("baseline", type=Path)
    g.add_argument("--key", type=Path, required=True, help="private key from 'sbcbench keygen'")
    g.set_defaults(run=commands.cmd_sign)
    capture_options(sub.add_parser("capture", help="the files the platform layer reads, as a "
                                   "tarball for --sbc-sysroot"))
    e = sub.add_parser("export", help="results in another system's format")
    e.add_argument("format", choices=["lava", "kcidb"],
                   help="lava: a results file as LAVA test cases; kcidb: the history as "
                        "KCIDB JSON (checkouts, builds, tests) for KernelCI")
    e.add_argument("results", type=Path, nargs="?", default=None,
                   help="the results file (lava)")
    history_cli.history_option(e, suppress=False)
    e.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                   help="kcidb: the baselines directory holding history.sqlite")
    e.add_argument("-o", dest="output", type=Path, default=None, metavar="FILE",
                   help="kcidb: write the JSON to FILE (default: standard output)")
    e.set_defaults(run=history_cli.cmd_export)
    fleet_options(sub.add_parser("fleet", help="a lab's fleet: run the suite on "
                                               "reserved places, merge per-place results"))
    baseline_options(sub.add_parser(
        "baseline", help="a baseline's sessions: list them with their findings, drop one "
                         "reviewably, restore it (a signed baseline must be signed again)"))
    h = sub.add_parser("history", help="boards, labels and boots recorded in the history store "
                                       "(--history URL, else <baselines>/history.sqlite)")
    h.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                   help="the baselines directory holding history.sqlite (default: baselines)")
    history_cli.history_option(h, suppress=False)
    h.add_argument("--order", choices=["first", "version"], default="first",
                   help="labels of a board by their first session (default) or by the kernel "
                        "version they booted")
    h.set_defaults(run=history_cli.cmd_history)
    history_cli.history_commands(h)
    history_cli.publish_command(sub)
    bisect_cmd.add(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["run"]:  # everything after "run" is pytest's
        from ..plugin.skip_notice import SkipNotice
        from ..run.suite import run
        from .run_help import PYTEST_HELP, run_help, wants_help

        asked = wants_help(given[1:])
        if asked == "ours":
            print(run_help(), end="")
            return 0
        if asked == "pytest":
            return run([a if a != PYTEST_HELP else "--help" for a in given[1:]])
        return run(given[1:], [SkipNotice()])
    args = parser().parse_args(given)
    try:
        code: int = args.run(args)
    except SbcBenchError as exc:
        print(f"sbcbench {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file the command had to read or write: unusable input, not 1
        print(f"sbcbench {args.command}: {exc}", file=sys.stderr)
        return 2
    return code
