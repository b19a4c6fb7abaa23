"""``sbcbench`` command line: the plugin's functions outside pytest."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .errors import BoardError, ParseError, SbcBenchError, SchemaError, ToolError
from .judge import physics, signing
from .judge.baseline import load_baseline
from .judge.telemetry import summarize_trace
from .judge.validity import findings, throttling
from .judge.verdict import JudgeContext, judge_result
from .measure.openssl import env_problem, find_openssl
from .measure.openssl_parse import SpeedReport, detect_version, mr_rate_unit, parse_speed
from .measure.sampler import Sample, Sampler, Trace
from .measure.sanity import problem
from .measure.tools import run_tool
from .platform.board import known_profiles
from .platform.capture import capture_parser, run_capture
from .platform.facts import platform_facts
from .platform.sysroot import Sysroot
from .report import lava, text
from .report.charts import write_charts
from .report.compare import board_profile, compare, load_reference
from .report.fleet import load_fleet
from .report.markdown import as_json, render
from .report.results import INTERRUPTED_NOTE, load_results
from .settings import board_name, duration_seconds, interval_seconds


def _engines(args: argparse.Namespace, sysroot: Sysroot) -> tuple[str | None, str]:
    """``openssl engine -t -c`` and ``openssl list -providers``: from --engines FILE, or run
    here when probing this machine; unknown for a captured tree without --engines."""
    if args.engines is not None:
        return args.engines.read_text(errors="replace"), ""
    path = find_openssl()
    if not sysroot.is_host or path is None:
        return None, ""
    problem = env_problem(path)
    if problem is not None:  # the platform facts stand without it: say why engines are unknown
        print(f"note: openssl engines not probed: {problem}", file=sys.stderr)
        return None, ""
    engines = run_tool([path, "engine", "-t", "-c"], 60, "openssl engine", expect_output=False)
    try:
        providers = run_tool([path, "list", "-providers"], 60, "openssl list")
    except ToolError:
        providers = ""  # OpenSSL 1.x has no providers
    return engines, providers


def _probe(args: argparse.Namespace) -> int:
    sysroot = Sysroot(args.sysroot)
    engines, providers = _engines(args, sysroot)
    _emit(platform_facts(sysroot, engines, providers), args.json, 22)
    return 0


def _emit(data: dict[str, object], as_json: bool, width: int) -> None:
    if as_json:
        print(json.dumps(data, indent=2))
        return
    print("\n".join(text.lines(data, width)))


def _progress(sample: Sample) -> None:
    print(text.sample_line(sample), file=sys.stderr, flush=True)


def _monitor(args: argparse.Namespace) -> int:
    """Sample until ``--duration`` ends or Ctrl-C, a line per sample on stderr, then the
    summary on stdout (text, or ``--json``)."""
    sysroot = Sysroot(args.sysroot)
    sampler = Sampler(sysroot, args.interval, load_source="system",
                      on_sample=None if args.quiet else _progress)
    if not args.quiet:
        print(f"sampling every {args.interval:g} s for {args.duration:g} s (Ctrl-C ends early); "
              "summary at the end", file=sys.stderr, flush=True)
    trace = sample_for(sampler, args.duration)
    telemetry = summarize_trace(trace)
    found = findings(trace, telemetry)
    telemetry.update(throttling(found))
    telemetry["findings"] = [f.as_dict() for f in found]
    _emit(telemetry, args.json, 22)
    return 0


def sample_for(sampler: Sampler, duration: float,
               sleep: Callable[[float], None] = time.sleep) -> Trace:
    """Sample at the start, after every ``sampler.interval`` and at the end of ``duration``
    seconds (Ctrl-C ends early; what was sampled is kept).  ``sleep`` is the wait (a test
    passes one that advances a scripted clock): the samples a duration gives are fixed, not a
    race between a thread and the wall clock."""
    sampler.start(background=False)
    steps = max(1, math.ceil(duration / sampler.interval - 1e-9))
    try:
        for _ in range(steps - 1):
            sleep(sampler.interval)
            sampler.sample()
        sleep(duration - (steps - 1) * sampler.interval)
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the monitor early; the summary of what was sampled still prints
    return sampler.stop()


def _compare(args: argparse.Namespace) -> int:
    """The same judge as pytest (:func:`judge_result`: physics, the other-machine check, the
    baseline gate).  Exit 0 no regression, 1 a regression or an implausible number, 2 unusable
    input, 3 not judged (incomparable, or nothing had a baseline)."""
    reference = load_reference(args.baseline)
    loaded = load_results(args.results)
    for path, interrupted in ((args.baseline, _interrupted(args.baseline)),
                              (args.results, loaded.interrupted)):
        if interrupted:
            print(f"note: {path} {INTERRUPTED_NOTE}")
    if loaded.board != reference.board:
        print(f"note: results are for board {loaded.board}, the baseline for {reference.board}")
    profiles = known_profiles(args.baselines or args.baseline.parent)
    done = compare(reference, loaded.board, loaded.environment, loaded.results, profiles,
                   args.allow_incomparable)
    for result, verdict in done.verdicts:
        print(f"{verdict.status:12} {result.test}: {verdict.detail}")
    print(done.summary)
    return done.code


def _interrupted(path: Path) -> bool:
    """True for a results file of an interrupted run (a baseline file is never one)."""
    try:
        return load_results(path).interrupted
    except SbcBenchError:
        return False


def _keygen(args: argparse.Namespace) -> int:
    private, public = signing.keygen(args.prefix)
    print(f"private key: {private} (keep it off the board under test)\npublic key:  {public}")
    return 0


def _sign(args: argparse.Namespace) -> int:
    load_baseline(args.baseline)  # refuse to sign a broken file
    print(f"signature: {signing.sign(args.baseline, args.key)}")
    return 0


def _parse(args: argparse.Namespace) -> int:
    """Print the results of one ``openssl speed`` log (of a ``-multi`` log: the parent's
    totals); notes (damaged child echoes, records left out) go to stderr and into the JSON.

    Every figure passes the sanity check (:mod:`.measure.sanity`): NaN, a negative or an
    absurd number is unparseable input (exit 2, naming it), never a printed result.  A cell
    of exactly 0 is how ``openssl speed`` prints an algorithm it did not run (not built in):
    it is left out and said in a note."""
    try:
        text = args.file.read_text(errors="replace")
    except OSError as exc:
        raise SchemaError(args.file, None, f"unreadable: {exc.strerror}") from exc
    report = parse_speed(text, args.openssl_version)
    rows, not_run = _checked_rows(report, args.file)
    both_paths = report.both_paths()
    notes = [*report.notes]
    if not_run:
        notes.append(f"left out, printed as 0 (not run or not built into this openssl): "
                     f"{', '.join(not_run)}")
    for note in notes:
        print(f"sbcbench parse: note: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({"version": report.version, "results": rows, "notes": notes},
                         indent=2))
    else:
        print(f"version: {report.version or 'unknown'}")
        for row in rows:
            value = row.get("bytes_per_second", row.get("per_second"))
            where = row.get("block_bytes", row.get("op"))
            name = row["algorithm"]
            if name in both_paths:
                name = f"{name} ({row['api']})"
            print(f"{name!s:28} {where!s:>8} {value:>18.6g}")
    return 0


def _checked_rows(report: SpeedReport, path: Path) -> tuple[list[dict[str, object]], list[str]]:
    """The report's figures as rows, each sanity-checked; the names of those printed as 0."""
    rows: list[dict[str, object]] = []
    not_run: list[str] = []
    both_paths = report.both_paths()
    cells: list[tuple[str, object, float, str, dict[str, object]]] = [
        (f"{c.algorithm} ({c.api})" if c.algorithm in both_paths else c.algorithm,
         c.block_bytes, c.bytes_per_second, "B/s",
         {"algorithm": c.algorithm, "block_bytes": c.block_bytes,
          "bytes_per_second": c.bytes_per_second, **({"label": c.label} if c.label else {}),
          **({"api": c.api} if c.api else {})})
        for c in report.throughput]
    cells += [(r.algorithm, r.op, r.per_second, "op/s",
               {"algorithm": r.algorithm, "op": r.op, "per_second": r.per_second})
              for r in report.rates]
    for algorithm, where, value, unit, row in cells:
        if value == 0:
            if algorithm not in not_run:
                not_run.append(algorithm)
            continue
        reason = problem(value, unit)
        if reason is not None:
            raise ParseError(f"openssl speed output {path}",
                             f"{algorithm} {where}: {reason}: a broken tool or log, not a result")
        rows.append(row)
    return rows, not_run


def openssl_version(value: str) -> str:
    """``--openssl-version``: ``1.1.1w``, ``LibreSSL 2.8.3`` or the banner ``openssl version``
    prints (``OpenSSL 1.1.1w  11 Sep 2023``); anything naming no version is a usage error."""
    version = detect_version(value) or value.strip()
    if mr_rate_unit(version) is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} names no OpenSSL version: give e.g. 1.1.1w, 3.0.19, "
            "'OpenSSL 1.1.1w  11 Sep 2023' (what 'openssl version' prints) or 'LibreSSL 2.8.3'")
    return version


def _validate(args: argparse.Namespace) -> int:
    """The physics gate through the same judge as pytest (no baseline)."""
    profiles = known_profiles(args.baselines)
    loaded = load_results(args.results)
    board = board_profile(args.board, profiles, loaded.environment)
    if board is None:
        raise BoardError(f"unknown board {args.board!r}; known: generic-<arch> and "
                         f"{', '.join(sorted(profiles))}")
    context = JudgeContext(board.name, board)
    results = loaded.results
    bad = 0
    for result in results:
        verdict = judge_result(result, context)
        if verdict.status == "implausible":
            bad += 1
            print(f"implausible  {result.test}: {verdict.detail}")
        else:
            print(f"ok           {result.test}: {result.measurement.display_name}")
    limits = ", ".join(f"{lim.metric} <= {lim.value:.4g} {lim.unit}"
                       for lim in physics.limits(board))
    print(f"{len(results)} results, {bad} implausible on {board.name} ({limits or 'no limits'})")
    return 1 if bad else 0


def _list(args: argparse.Namespace) -> int:
    from .suite import list_registered

    return list_registered(args.json, args.sysroot)


def _report(args: argparse.Namespace) -> int:
    profiles = known_profiles(args.baselines)
    entries = load_fleet(args.results)
    for path in args.results:
        if load_results(path).interrupted:
            print(f"note: {path} {INTERRUPTED_NOTE}", file=sys.stderr)
    if args.format == "json":
        text = json.dumps(as_json(entries, profiles, args.vs, args.measured_clock), indent=2)
    else:
        text = render(entries, profiles, args.vs, args.measured_clock)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"report.{'json' if args.format == 'json' else 'md'}").write_text(text)
        charts = write_charts(entries, args.out, args.vs)
        note = f"{len(charts)} chart files" if charts else "no charts (pip install .[plot])"
        print(f"wrote {args.out}: report and {note}", file=sys.stderr)
    return 0


def package_version() -> str:
    """The installed distribution's version (package metadata, the one source of truth)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pytest-sbcbench")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        from . import __version__

        return f"{__version__} (not installed)"


class VersionAction(argparse.Action):
    """``--version``, read from package metadata only when asked for (not on every start)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def _capture(args: argparse.Namespace) -> int:
    done = run_capture(args.lg_env, args.out, args.role, args.root)
    print(f"wrote {done.path}: {done.files} files from {done.source} "
          f"(extract it and pass the directory to --sbc-sysroot)")
    return 0


def _export(args: argparse.Namespace) -> int:
    lines, recorded = lava.export(load_results(args.results).results)
    print("\n".join(lines) if not recorded else f"recorded {len(lines)} LAVA test cases")
    return 0


def sysroot_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--sysroot", type=Path, default=Path("/"), metavar="DIR",
                         help="read /proc and /sys from DIR (a captured board tree)")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="sbcbench", description=__doc__)
    top.add_argument("--version", action=VersionAction, nargs=0,
                     help="print the installed version (package metadata) and exit")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe", help="platform facts read from /proc and /sys (or --sysroot)")
    sysroot_option(p)
    p.add_argument("--engines", type=Path, default=None, metavar="FILE",
                   help="captured 'openssl engine -t -c' output of that machine")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_probe)
    m = sub.add_parser("monitor", help="sample clocks, temperature and memory outside pytest")
    sysroot_option(m)
    m.add_argument("--interval", type=interval_seconds, default=1.0, metavar="S",
                   help="seconds between samples, 0.05 to 3600 (default 1.0)")
    m.add_argument("--duration", type=duration_seconds, required=True, metavar="S",
                   help="seconds to sample (at most a week)")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.add_argument("--quiet", action="store_true",
                   help="no line per sample on stderr, only the summary")
    m.set_defaults(run=_monitor)
    o = sub.add_parser("parse", help="parse a tool's output")
    o.add_argument("tool", choices=["openssl"])
    o.add_argument("file", type=Path)
    o.add_argument("--openssl-version", type=openssl_version, default=None, metavar="VERSION",
                   help="the version that wrote FILE (e.g. 1.1.1w, or the banner 'openssl "
                        "version' prints), for logs without a banner: asymmetric -mr records "
                        "are op/s from 1.1.1 on, s/op before")
    o.add_argument("--json", action="store_true", help="print JSON")
    o.set_defaults(run=_parse)
    v = sub.add_parser("validate", help="the physics gate on a results file")
    v.add_argument("results", type=Path)
    v.add_argument("--board", required=True, type=board_name)
    v.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR",
                   help="extra board profiles in DIR/boards (default: ./baselines)")
    v.set_defaults(run=_validate)
    r = sub.add_parser("report", help="fleet comparison of results files")
    r.add_argument("results", type=Path, nargs="+")
    r.add_argument("--format", choices=["md", "json"], default="md")
    r.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="write report.md/json and PNG+SVG charts into DIR")
    r.add_argument("--vs", default=None, metavar="BOARD",
                   help="reference board for crypto ratios (default: fastest on sha512)")
    r.add_argument("--measured-clock", action="store_true",
                   help="per-GHz figures from the sampled under-load clock when available")
    r.add_argument("--baselines", type=Path, default=Path("baselines"), metavar="DIR")
    r.set_defaults(run=_report)
    c = sub.add_parser(
        "compare", help="gate a results file against a baseline (or an earlier results file)",
        description="Judge RESULTS against BASELINE exactly as pytest does. BASELINE is a "
                    "baseline file or a results file (its results become one baseline "
                    "session, with its environment).",
        epilog="exit codes: 0 no regression; 1 a regression or an implausible number; "
               "2 unusable input (unreadable or malformed file); 3 not judged: a result is "
               "incomparable with the baseline (another machine, tool version, block size...) "
               "or no result has a baseline",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("baseline", type=Path, help="baseline file or results file")
    c.add_argument("results", type=Path, help="results file to judge")
    c.add_argument("--allow-incomparable", action="store_true",
                   help="incomparable results do not make the exit code 3 (as "
                        "--sbc-allow-incomparable in pytest)")
    c.add_argument("--baselines", type=Path, default=None, metavar="DIR",
                   help="board profiles in DIR/boards (default: the baseline's folder)")
    c.set_defaults(run=_compare)
    ls = sub.add_parser("list", help="every workload: markers, availability here, expected time")
    sysroot_option(ls)
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(run=_list)
    sub.add_parser("run", help="run the shipped suite from any directory: sbcbench run "
                               "[pytest args], e.g. -m crypto --board star64")
    k = sub.add_parser("keygen", help="make an Ed25519 key pair for signing baselines")
    k.add_argument("prefix", type=Path, nargs="?", default=Path("sbcbench"),
                   help="writes PREFIX.key and PREFIX.pub (default: sbcbench)")
    k.set_defaults(run=_keygen)
    g = sub.add_parser("sign", help="sign a baseline file (writes BASELINE.sig)")
    g.add_argument("baseline", type=Path)
    g.add_argument("--key", type=Path, required=True, help="private key from 'sbcbench keygen'")
    g.set_defaults(run=_sign)
    capture_parser(sub.add_parser("capture", help="the files the platform layer reads, as a "
                                  "tarball for --sbc-sysroot")).set_defaults(run=_capture)
    e = sub.add_parser("export", help="results in another system's format")
    e.add_argument("format", choices=["lava"])
    e.add_argument("results", type=Path)
    e.set_defaults(run=_export)
    from .report.fleet_merge import add_parser as add_fleet

    add_fleet(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["run"]:  # everything after "run" is pytest's
        from .suite import run

        return run(given[1:])
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
