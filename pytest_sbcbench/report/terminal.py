"""The end-of-run summary table, readable like the seeds' tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model import Result, display
from ..words import counted

if TYPE_CHECKING:
    from ..model import ClockReading, Finding


def rows(results: Sequence[Result]) -> list[list[str]]:
    out = [["test", "metric", "tool", "median", "unit", "CV %", "n", "at max", "verdict"]]
    for r in results:
        median, unit = display(r.summary.median, r.measurement.unit)
        test = r.test.rsplit("::", 1)[-1]
        tool = str(r.measurement.identity.as_dict().get("tool", ""))
        at_max = r.telemetry.get("at_max_clock_pct")
        out.append([test, r.measurement.display_name, tool, median, unit,
                    f"{100 * r.summary.cv:.2f}", str(r.summary.n),
                    "-" if at_max is None else f"{at_max:g}%", r.verdict.status])
    return out


def table(results: Sequence[Result]) -> list[str]:
    grid = rows(results)
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]))]
    numeric = {3, 5, 6, 7}
    lines = []
    for n, row in enumerate(grid):
        cells = [c.rjust(w) if i in numeric and n else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def extra_lines(findings: Sequence[tuple[str, Finding]], results: Sequence[Result],
                unavailable: Mapping[str, str], real_clock: Mapping[str, Sequence[ClockReading]],
                notes: Sequence[str]) -> list[str]:
    """Findings (one line each, the only place they print), improvements with their re-baseline
    hint, scaling efficiency, probes that could not run (once each), real-clock readings,
    notes."""
    lines = finding_lines(findings)
    lines += [f"improvement: {r.test.rsplit('::', 1)[-1]}: {r.verdict.detail}"
              for r in results if r.verdict.status == "improvement"]
    lines += [f"scaling: {r.measurement.display_name}: {r.telemetry['speedup']:.2f}x over one "
              f"thread, efficiency {100 * r.telemetry['efficiency']:.0f}% "
              f"({r.telemetry.get('threads_are', '')})"
              for r in results if "efficiency" in r.telemetry]
    lines += verdict_lines(results)
    lines += [f"not sampled: {name}: {reason}" for name, reason in unavailable.items()]
    for when, readings in real_clock.items():
        for r in readings:
            claim = (f"cpufreq says {r.cpufreq_mhz:.0f} MHz ({r.mismatch_pct:+.1f}%)"
                     if r.cpufreq_mhz and r.mismatch_pct is not None else "no cpufreq to compare")
            lines.append(f"real clock {when}: cpu{r.cpu} {r.measured_mhz:.0f} MHz measured, "
                         f"{claim}")
    lines += [f"note: {n}" for n in notes]
    return lines


def finding_lines(findings: Sequence[tuple[str, Finding]]) -> list[str]:
    """One line per finding kind: a kind that touched one test is that test's line; a kind
    repeated over several tests (background load on a busy machine) is printed once for the
    run, with the tests it touched and the first test's detail."""
    by_kind: dict[str, list[tuple[str, Finding]]] = {}
    for nodeid, f in findings:
        by_kind.setdefault(f.kind, []).append((nodeid.rsplit("::", 1)[-1], f))
    lines = []
    for kind, found in by_kind.items():
        tests = list(dict.fromkeys(name for name, _ in found))
        first_test, first = found[0]
        if len(tests) == 1:
            lines += [f"finding: {first_test}: {kind}: {f.detail}" for _, f in found]
            continue
        lines.append(f"finding: {kind} in {len(tests)} tests ({', '.join(tests)}); "
                     f"{first_test}: {first.detail}")
    return lines


def verdict_lines(results: Sequence[Result]) -> list[str]:
    """A line per inconclusive metric (what it could detect, what deciding would take), one
    line for candidate boots still to come, and the family bound of the metrics judged."""
    pending = [r for r in results if r.verdict.evidence and r.verdict.evidence.pending]
    lines = [f"inconclusive: {r.test.rsplit('::', 1)[-1]}: {r.verdict.detail}"
             for r in results if r.verdict.status == "inconclusive" and r not in pending]
    if pending:
        ev = pending[0].verdict.evidence
        assert ev is not None
        verb = "waits" if len(pending) == 1 else "wait"
        lines.append(f"pending: {counted(len(pending), 'metric')} {verb} for the candidate's "
                     f"last boot (this is candidate boot {ev.candidate_boots}); nothing is "
                     "decided yet")
    judged = [r for r in results if r.verdict.evidence is not None]
    plans = [r.measurement.details.get("sequential") for r in judged]
    sizes = {p.get("n_metrics") for p in plans if isinstance(p, Mapping)}
    if judged:
        n = max((s for s in sizes if isinstance(s, int)), default=len(judged))
        lines.append(f"suite: {counted(len(judged), 'metric')} judged against the baseline, "
                     f"each at 4%/{n} (Holm's first step), then Holm's later steps and a "
                     "suite-mean test at 1% at the end: P(an unchanged run fails any metric) <= 5%")
    return lines


def results_line(path: Path, unwritten: str | None) -> str:
    """Where the results went: ``results JSON: PATH``, or that they were not written there
    and why (never the name of a file that does not exist)."""
    if unwritten is None:
        return f"results JSON: {path}"
    return f"results JSON: not written ({unwritten})"


def write_summary(reporter: Any, board: str, title: str, results: Sequence[Result],
                  extra: Sequence[str], results_path: Path | None,
                  saved: Sequence[str] | None = None, suite: str | None = None,
                  saving: bool = False, unwritten: str | None = None) -> None:
    """The table, the extra lines, what ``--sbc-save-baseline`` did (``saved``: its lines, or
    None when nothing was saved; ``saving``: the run was asked to save) and where the results
    went (``unwritten``: why they could not be written there), through pytest's reporter."""
    reporter.write_sep("=", f"sbcbench: {board} ({title})")
    for line in [*table(results), *extra, *(saved or ())]:
        reporter.write_line(line)
    from ..judge.held import cannot_judge

    if not saving and any(r.verdict.status == "no-baseline" and not cannot_judge(r.verdict)
                          for r in results):
        reporter.write_line(
            f"no baseline for {board} yet: rerun with --sbc-save-baseline to record one")
    if results_path is not None:
        reporter.write_line(results_line(results_path, unwritten))
    from .tally import tally_line

    reporter.write_line(tally_line(results, suite, saving=saving), bold=True)
