"""``sbcbench report old.json new.json`` of one board: a before/after view, side by side.

Each results file is a column named by what it measured (:func:`column_names`): the candidate
label (``--sbc-candidate``, the environment's ``label``), else the kernel release, else the
file name, and never two columns with the same name.  Each metric is a row: the medians (as
the terminal shows them), then each later file judged against the first exactly as
``sbcbench compare`` judges it (:mod:`.compare`: the gate's change, confidence interval and
verdict), so the view never tells a maintainer something the gate does not."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import Identity, Result, Verdict, display
from ..platform.board import BoardProfile
from ..words import interval_text, wide
from .compare import compare, load_reference
from .fleet import rank_identity
from .markdown import describe
from .results import ResultsFile


@dataclass(frozen=True)
class Column:
    """One results file of the view."""

    name: str
    path: Path
    loaded: ResultsFile


def kernel_of(environment: Mapping[str, Any]) -> str | None:
    """The kernel release the file was measured on (a lab board's own, else the host's)."""
    lab = environment.get("lab")
    release = lab.get("kernel_release") if isinstance(lab, Mapping) else None
    release = release or environment.get("kernel")
    return str(release) if release else None


def _choices(path: Path, environment: Mapping[str, Any]) -> list[str]:
    label = environment.get("label")
    found = [str(label) if label else None, kernel_of(environment), path.name, str(path)]
    return [c for c in found if c]


def column_names(files: Sequence[tuple[Path, Mapping[str, Any]]]) -> list[str]:
    """Candidate label, else kernel release, else file name; a name two files share gets the
    next choice of each (then the path, then ``#N``), so no two columns read alike."""
    choices = [_choices(path, env) for path, env in files]
    names = [c[0] for c in choices]
    for level in range(1, 4):
        clash = {n for n in names if names.count(n) > 1}
        if not clash:
            return names
        names = [f"{n} ({c[min(level, len(c) - 1)]})" if n in clash else n
                 for n, c in zip(names, choices, strict=True)]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} #{seen[n]}")
    return out


def same_board(files: Sequence[ResultsFile]) -> bool:
    """Two or more files of one board: a before/after, not a fleet."""
    return len(files) > 1 and len({f.board for f in files}) == 1


def verdicts(columns: Sequence[Column], profiles: Mapping[str, BoardProfile]
             ) -> list[dict[RowKey, Verdict]]:
    """Each later column judged against the first exactly as ``sbcbench compare FIRST
    LATER`` judges it (the project's gate: its change, interval and verdict)."""
    reference = load_reference(columns[0].path)
    out = []
    for column in columns[1:]:
        done = compare(reference, column.loaded.board, column.loaded.environment,
                       column.loaded.results, profiles, allow_incomparable=True)
        out.append({row_key(r): v for r, v in done.verdicts})
    return out


def change_text(before: Result | None, after: Result | None, verdict: Verdict | None) -> str:
    """``-39.8% [-61.1%, -6.7%] 90% CI: regression``; the verdict alone without evidence."""
    if before is None or after is None or verdict is None:
        return "-"
    e = verdict.evidence
    if e is None:
        return verdict.status
    low, high = e.ci_pct
    if wide(low, high):
        return f"{e.change_pct:+.1f}% ({interval_text(low, high)}): {verdict.status}"
    return f"{e.change_pct:+.1f}% [{low:+.1f}%, {high:+.1f}%] {e.confidence_pct:.0f}% CI: " \
           f"{verdict.status}"


RowKey = tuple[str, str, Identity]


def row_key(result: Result) -> RowKey:
    """A row is one measurement: the test, the metric and the identity that makes two numbers
    the same measurement (threads, block size, op...; not who measured it, so a tool upgrade
    stays one row, judged incomparable).  Keyed by test and metric alone, openssl's 1- and
    2-thread sha256 of one scaling test shared a row: one was dropped and the verdict shown
    could be the other's."""
    return (result.test, result.measurement.metric, rank_identity(result.measurement.identity))


def rows(columns: Sequence[Column]) -> list[tuple[Result, list[Result | None]]]:
    """Every metric of any file (in the first file's order, then new ones), with its result
    in each column (None where that file has no such metric)."""
    keyed = [{row_key(r): r for r in c.loaded.results} for c in columns]
    order: list[RowKey] = []
    for table in keyed:
        order += [k for k in table if k not in order]
    out = []
    for key in order:
        cells = [table.get(key) for table in keyed]
        first = next(c for c in cells if c is not None)
        out.append((first, cells))
    return out


def row_names(results: Sequence[Result]) -> list[str]:
    """Each row's label (``openssl sha256 x1``); a label two rows share gets its identity."""
    labels = [r.measurement.display_name for r in results]
    return [f"{label} ({describe(r.measurement.identity)})" if labels.count(label) > 1
            else label for label, r in zip(labels, results, strict=True)]


def _value(result: Result | None) -> str:
    if result is None:
        return "-"
    text, unit = display(result.summary.median, result.measurement.unit)
    return f"{text} {unit} (n={result.summary.n})"


def render(columns: Sequence[Column], profiles: Mapping[str, BoardProfile]) -> str:
    """The before/after view as Markdown: one row per metric."""
    first = columns[0].name
    head = ["metric", *(f"{c.name} median" for c in columns),
            *(f"{c.name} vs {first}" for c in columns[1:])]
    lines = [f"# Before/after: {columns[0].loaded.board}", "",
             "Files: " + "; ".join(f"**{c.name}** = {c.path.name}" for c in columns) + ".", "",
             "Values are medians of the runs (n = runs), as the terminal shows them. Each later "
             f"file is judged against **{first}** as `sbcbench compare` and the gate judge it: "
             "the change of the boot means (each boot's runs averaged, in log space: not the "
             "ratio of the medians shown), its confidence interval and the verdict "
             "(inconclusive: the runs cannot tell a change of the size that matters from "
             "noise).", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    judged = verdicts(columns, profiles)
    table = rows(columns)
    names = row_names([first for first, _ in table])
    for (first_result, cells), shown in zip(table, names, strict=True):
        better = "higher" if first_result.measurement.better == "higher" else "lower"
        name = f"{shown} ({better} is better)"
        moves = [change_text(cells[0], c, v.get(row_key(c)) if c else None)
                 for c, v in zip(cells[1:], judged, strict=True)]
        lines.append("| " + " | ".join([name, *(_value(c) for c in cells), *moves]) + " |")
    return "\n".join(lines) + "\n"


def as_json(columns: Sequence[Column], profiles: Mapping[str, BoardProfile]) -> dict[str, Any]:
    out: dict[str, Any] = {"view": "before-after", "board": columns[0].loaded.board,
                           "columns": [{"name": c.name, "file": str(c.path)} for c in columns],
                           "values": "median", "rows": []}
    judged = verdicts(columns, profiles)
    for first_result, cells in rows(columns):
        m = first_result.measurement
        out["rows"].append({
            "test": first_result.test, "metric": m.metric, "label": m.display_name,
            "unit": m.unit, "better": m.better,
            "medians": [c.summary.median if c else None for c in cells],
            "runs": [c.summary.n if c else None for c in cells],
            "verdicts": [v[row_key(c)].as_dict() if c and row_key(c) in v else None
                         for c, v in zip(cells[1:], judged, strict=True)]})
    return out
