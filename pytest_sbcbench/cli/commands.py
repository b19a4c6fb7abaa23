"""What each ``sbcbench`` subcommand does, given its parsed arguments (:mod:`.` parses them).

Each returns the exit code: 0 done, 1 a regression or an implausible number, 2 unusable input
(raised as :class:`~pytest_sbcbench.errors.SbcBenchError` or :class:`OSError`, which
:func:`pytest_sbcbench.cli.main` turns into 2); ``compare`` also 4 cannot gate and 6 undecided,
the pytest gate's codes."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import BoardError, ParseError, SbcBenchError, ToolError
from ..fileio import write_atomic
from ..jsonload import read_bytes
from ..judge import physics, signing
from ..judge.baseline_store import sign_any
from ..judge.looks import DEFAULT_MIN_EFFECT_PCT
from ..judge.telemetry import summarize_trace
from ..judge.validity import findings, throttling
from ..judge.verdict import JudgeContext, judge_result
from ..measure.openssl import env_problem, find_openssl
from ..measure.openssl_parse import SpeedReport, parse_speed
from ..measure.sampler import Sampler
from ..measure.sanity import problem
from ..measure.tools import run_tool
from ..model import Reading, Result, Trace
from ..platform.board import known_profiles, unknown_board
from ..platform.capture import run_capture
from ..platform.facts import platform_facts
from ..platform.sysroot import Sysroot
from ..report import beforeafter, fleet_merge, text
from ..report.beforeafter_chart import write_chart
from ..report.charts import MATPLOTLIB_MISSING, no_charts_reason, write_charts
from ..report.compare import (
    Outcome,
    board_profile,
    candidate_of,
    compare,
    earlier_notes,
    read_reference,
)
from ..report.fleet import FleetEntry, load_fleet
from ..report.lava import lava_cases
from ..report.markdown import as_json, render
from ..report.results import INTERRUPTED_NOTE, ResultsFile, load_results
from ..words import counted
from ..workloads import builtin_limits
from .output import say


def _engines(args: argparse.Namespace, sysroot: Sysroot) -> tuple[str | None, str]:
    """``openssl engine -t -c`` and ``openssl list -providers``: from --engines FILE, or run
    here when probing this machine; unknown for a captured tree without --engines."""
    if args.engines is not None:
        return read_bytes(args.engines, "--engines file").decode(errors="replace"), ""
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


def cmd_probe(args: argparse.Namespace) -> int:
    sysroot = Sysroot(args.sysroot)
    engines, providers = _engines(args, sysroot)
    _emit(platform_facts(sysroot, engines, providers), args.json, 22)
    return 0


def _emit(data: dict[str, object], as_json: bool, width: int) -> None:
    if as_json:
        print(json.dumps(data, indent=2))
        return
    print("\n".join(text.lines(data, width)))


def _progress(reading: Reading) -> None:
    print(text.reading_line(reading), file=sys.stderr, flush=True)


def cmd_monitor(args: argparse.Namespace) -> int:
    """Read until ``--duration`` ends or Ctrl-C, a line per reading on stderr, then the
    summary on stdout (text, or ``--json``)."""
    sysroot = Sysroot(args.sysroot)
    sampler = Sampler(sysroot, args.interval, load_source="system",
                      on_reading=None if args.quiet else _progress)
    if not args.quiet:
        print(f"sampling every {args.interval:g} s for {args.duration:g} s (Ctrl-C ends early); "
              "summary at the end", file=sys.stderr, flush=True)
    trace = read_for(sampler, args.duration)
    telemetry = summarize_trace(trace)
    found = findings(trace, telemetry)
    telemetry.update(throttling(found))
    telemetry["findings"] = [f.as_dict() for f in found]
    _emit(telemetry, args.json, 22)
    return 0


def read_for(sampler: Sampler, duration: float,
               sleep: Callable[[float], None] = time.sleep) -> Trace:
    """Read at the start, after every ``sampler.interval`` and at the end of ``duration``
    seconds (Ctrl-C ends early; what was sampled is kept).  ``sleep`` is the wait (a test
    passes one that advances a scripted clock): the samples a duration gives are fixed, not a
    race between a thread and the wall clock."""
    sampler.start(background=False)
    steps = max(1, math.ceil(duration / sampler.interval - 1e-9))
    try:
        for _ in range(steps - 1):
            sleep(sampler.interval)
            sampler.read()
        sleep(duration - (steps - 1) * sampler.interval)
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the monitor early; the summary of what was sampled still prints
    return sampler.stop()


def cmd_compare(args: argparse.Namespace) -> int:
    """The same judge as pytest (:func:`judge_result`: physics, the other-machine check, the
    candidate's boots against the baseline's, Holm and the suite mean at the end).  Exit 0 no
    regression, 1 a regression or an implausible number, 2 unusable input, 4 cannot gate
    (incomparable, or no baseline), 6 undecided: the codes of ``pytest --sbc-gate``."""
    reference, interrupted, left = read_reference(args.baseline)
    files = [(path, load_results(path)) for path in args.results]
    notes = [f"note: {args.baseline} {INTERRUPTED_NOTE}"] if interrupted else []
    notes += [*left, *earlier_notes(files)]
    notes += [f"note: {path} {INTERRUPTED_NOTE}" for path, f in files if f.interrupted]
    loaded = files[-1][1]
    notes += [f"note: {path} is for board {f.board}, the last file for {loaded.board}"
              for path, f in files if f.board != loaded.board]
    if loaded.board != reference.board:
        notes.append(f"note: results are for board {loaded.board}, the baseline for "
                     f"{reference.board}")
    profiles = known_profiles(args.baselines or args.baseline.parent)
    effect = args.min_effect if args.min_effect is not None else DEFAULT_MIN_EFFECT_PCT
    notes += delta_notes(loaded.results, effect)
    done = compare(reference, loaded.board, loaded.environment, loaded.results, profiles,
                   args.allow_incomparable, candidate_of(reference, files), effect)
    if args.json:
        print(json.dumps(compare_json(done, notes), indent=2, allow_nan=False))
        return done.code
    for note in notes:
        say(note)
    for result, verdict in done.verdicts:
        say(f"{verdict.status:12} {result.test}: {verdict.detail}")
    say(done.summary)
    say(done.tally)
    return done.code


def delta_notes(results: Sequence[Result], effect: float) -> list[str]:
    """A note when the run judged at another delta than this comparison."""
    recorded = {r.measurement.details.get("sequential", {}).get("min_effect_pct")
                for r in results if isinstance(r.measurement.details.get("sequential"), dict)}
    other = sorted(v for v in recorded if isinstance(v, (int, float)) and v != effect)
    if not other:
        return []
    return [f"note: the run judged at delta {', '.join(f'{v:g}%' for v in other)}; this "
            f"comparison uses {effect:g}% (--min-effect sets it; it is never read from the file)"]


def compare_json(done: Outcome, notes: list[str]) -> dict[str, Any]:
    """``sbcbench compare --json``: the verdicts as data (evidence as in the results file)."""
    suite = done.closing.suite if done.closing is not None else None
    return {"exit": done.code, "summary": done.summary, "tally": done.tally, "notes": notes,
            "suite_mean": None if suite is None else {
                "status": suite.status, "change_pct": suite.change_pct, "p_value": suite.p_value,
                "detail": suite.detail},
            "verdicts": [{"test": r.test, "metric": r.measurement.metric,
                          "status": v.status, "detail": v.detail,
                          "evidence": v.evidence.as_dict() if v.evidence else None}
                         for r, v in done.verdicts]}


def cmd_keygen(args: argparse.Namespace) -> int:
    private, public = signing.keygen(args.prefix)
    print(f"private key: {private} (keep it off the board under test)\npublic key:  {public}")
    return 0


def cmd_sign(args: argparse.Namespace) -> int:
    print(f"signature: {sign_any(args.baseline, args.key)}")  # a broken one is refused
    return 0


def cmd_parse(args: argparse.Namespace) -> int:
    """Print the results of one ``openssl speed`` log (of a ``-multi`` log: the parent's
    totals); notes (damaged child echoes, records left out) go to stderr and into the JSON.

    Every figure passes the sanity check (:mod:`..measure.sanity`): NaN, a negative or an
    absurd number is unparseable input (exit 2, naming it), never a printed result.  A cell
    of exactly 0 is how ``openssl speed`` prints an algorithm it did not run (not built in):
    it is left out and said in a note."""
    if args.tool == "bssl":
        from .parse_bssl import parse_bssl

        return parse_bssl(args)
    text = read_bytes(args.file, "openssl speed log").decode(errors="replace")
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
            if "table" in row:  # OpenSSL 3.2+'s KEM and signature tables
                name = f"{name} ({row['table']})"
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
               {"algorithm": r.algorithm, "op": r.op, "per_second": r.per_second,
                **({"table": r.kind} if r.kind else {})})
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


def cmd_validate(args: argparse.Namespace) -> int:
    """The physics gate through the same judge as pytest (no baseline), on ``--board`` or
    else the board the results file names."""
    profiles = known_profiles(args.baselines)
    loaded = load_results(args.results)
    name = args.board or loaded.board
    board = board_profile(name, profiles, loaded.environment)
    if board is None:
        raise BoardError(unknown_board(name, profiles))
    if args.board is None:
        say(f"board: {name} (named by {args.results})")
    # the built-in workloads' limits gathered once, as sbcbench compare does
    context = JudgeContext(board.name, board, limits=builtin_limits())
    results = loaded.results
    bad = 0
    for result in results:
        verdict = judge_result(result, context)
        if verdict.status == "implausible":
            bad += 1
            say(f"implausible  {result.test}: {verdict.detail}")
        else:
            say(f"ok           {result.test}: {result.measurement.display_name}")
    limits = ", ".join(f"{lim.metric} <= {lim.value:.4g} {lim.unit}"
                       for lim in physics.limits(board))
    print(f"{counted(len(results), 'result')}, {bad} implausible on {board.name} "
          f"({limits or 'no limits'})")
    return 1 if bad else 0


def cmd_list(args: argparse.Namespace) -> int:
    from ..run.suite import list_registered

    return list_registered(args.json, args.sysroot)


def cmd_report(args: argparse.Namespace) -> int:
    """A before/after view when every file is of one board (``--view auto``), else the
    fleet comparison."""
    _check_out_dir(args.out)
    loaded = [load_results(path) for path in args.results]
    for path, done in zip(args.results, loaded, strict=True):
        if done.interrupted:
            print(f"note: {path} {INTERRUPTED_NOTE}", file=sys.stderr)
    view = args.view if args.view != "auto" else \
        "before-after" if beforeafter.same_board(loaded) else "fleet"
    if view == "before-after":
        return _before_after(args, loaded)
    profiles = known_profiles(args.baselines)
    entries = load_fleet(args.results)
    if args.format == "json":
        report = json.dumps(as_json(entries, profiles, args.vs, args.measured_clock), indent=2)
    else:
        report = render(entries, profiles, args.vs, args.measured_clock)
    say(report)
    if args.out is not None:
        _write_report(args.out, f"report.{'json' if args.format == 'json' else 'md'}", report,
                      entries, args.vs, args.log)
    return 0


def _check_out_dir(out: Path | None) -> None:
    """``--out`` names a directory (made when missing); anything else there is refused first,
    before a report is shown."""
    if out is not None and (out.exists() or out.is_symlink()) and not out.is_dir():
        raise SbcBenchError(f"--out {out}: not a directory; --out expects a directory (the "
                            "report and its charts are written into it)")


def _before_after(args: argparse.Namespace, loaded: Sequence[ResultsFile]) -> int:
    names = beforeafter.column_names([(p, f.environment) for p, f in
                                      zip(args.results, loaded, strict=True)])
    columns = [beforeafter.Column(n, p, f) for n, p, f in
               zip(names, args.results, loaded, strict=True)]
    profiles = known_profiles(args.baselines)
    report = json.dumps(beforeafter.as_json(columns, profiles), indent=2) \
        if args.format == "json" else beforeafter.render(columns, profiles)
    say(report)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        name = args.out / f"report.{'json' if args.format == 'json' else 'md'}"
        write_atomic(name, report.encode("utf-8"))
        charts = write_chart(columns, args.out, profiles)
        note = f"{len(charts)} chart files" if charts else f"no charts: {MATPLOTLIB_MISSING}"
        print(f"wrote {name} and {note}", file=sys.stderr)
    return 0


def cmd_fleet_merge(args: argparse.Namespace) -> int:
    """``sbcbench fleet merge``: the places table, then the fleet report
    (:mod:`..report.fleet_merge`)."""
    report, entries = fleet_merge.merge(args.results, args.baselines)
    say(report.removesuffix("\n"))
    if args.out is not None:
        _write_report(args.out, "report.md", report, entries)
    return 0


def _write_report(out: Path, name: str, shown: str, entries: Sequence[FleetEntry],
                  vs: str | None = None, log: bool | None = None) -> None:
    """``out/name`` and the charts beside it, said on stderr (no charts: why not)."""
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / name, shown.encode("utf-8"))
    charts = write_charts(entries, out, vs, log)
    note = f"{len(charts)} chart files" if charts else f"no charts: {no_charts_reason(entries)}"
    print(f"wrote {out / name} and {note}", file=sys.stderr)


def cmd_capture(args: argparse.Namespace) -> int:
    done = run_capture(args.lg_env, args.out, args.role, args.root)
    print(f"wrote {done.path}: {done.files} files from {done.source} "
          f"(extract it and pass the directory to --sbc-sysroot)")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.results is None:
        raise SbcBenchError("export lava: name the results file")
    lines, recorded = export_lava(load_results(args.results).results)
    print("\n".join(lines) if not recorded else f"recorded {len(lines)} LAVA test cases")
    return 0


def export_lava(results: Iterable[Result], tool: str | None = None) -> tuple[list[str], bool]:
    """Record every case (:func:`..report.lava.lava_cases`) with ``lava-test-case`` when it is
    found (``tool``: its path).  Returns the command lines and whether they were recorded (else
    the caller prints them)."""
    cases = lava_cases(results)
    found = tool if tool is not None else shutil.which("lava-test-case")
    if found is not None:
        for case in cases:
            run_tool([found, *case.argv()[1:]], 60, "lava-test-case", expect_output=False)
    return [case.line() for case in cases], found is not None
