"""Judging and saving grow linearly (issue 31, item 12), counted, not timed: the lines Python
executes (``sys.settrace``), the scans of a baseline's entries (an instrumented tuple) and the
reductions of a baseline side (calls of ``reduce_side``) at two sizes; and the work done once
however large the input: ``sbcbench compare``'s decoding of its baseline and gathering of the
built-in limits, and the sessions a save's notes reduce.  Linear work grows 4x
when the input does; the quadratic code this replaces grew 16x.  benchmarks/scale_judging.py
shows the CPU times."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import pytest

from pytest_sbcbench import jsonload, workloads
from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import SchemaError
from pytest_sbcbench.judge import baseline as baseline_module
from pytest_sbcbench.judge import boot_test, save_note
from pytest_sbcbench.judge.baseline import (
    Baseline,
    BaselineEntry,
    append_session_locked,
    load_baseline,
    with_session,
    write_baseline,
)
from pytest_sbcbench.judge.boots import BaselineSession
from pytest_sbcbench.judge.saving import notes, save_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.report.compare import compare
from pytest_sbcbench.report.results import document

ENV = {"cpu_model": "x", "cpus": 4, "kernel_release": "6.1.0-57"}


def results(metrics: int, boot: int) -> list[Result]:
    out = []
    for i in range(metrics):
        samples = tuple(1e6 * (1 + i % 5) * (1 + 0.002 * ((boot + i + r) % 3)) for r in range(3))
        m = Measurement("throughput", "B/s", "higher", Identity.of(case=i), samples)
        out.append(Result(f"t.py::test_m[{i}]", m, summarize(samples), Verdict("no-baseline", "")))
    return out


def baseline(metrics: int, boots: int) -> Baseline:
    made = None
    for b in range(boots):
        made = with_session(made, "star64", results(metrics, b), f"at-{b}",
                            {**ENV, "boot_id": f"b{b}"})
    assert made is not None
    return made


Tracer = Callable[[FrameType, str, Any], Any]


def traced(tracer: Tracer, work: Callable[[], Any]) -> None:
    """Run ``work`` with ``tracer`` as the trace function (``sys.settrace``), removed after."""
    sys.settrace(tracer)
    try:
        work()
    finally:
        sys.settrace(None)


def calls(code: CodeType, work: Callable[[], Any]) -> list[dict[str, Any]]:
    """The arguments of every call of the function of ``code`` that ``work`` makes."""
    seen: list[dict[str, Any]] = []

    def tracer(frame: FrameType, event: str, arg: Any) -> None:
        if frame.f_code is code:
            seen.append(dict(frame.f_locals))
    traced(tracer, work)
    return seen


def lines_run(work: Callable[[], Any], where: str = "pytest_sbcbench") -> int:
    """Lines of the package executed by ``work`` (a loop's every iteration counts)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        return local if where in frame.f_code.co_filename else None
    traced(tracer, work)
    return count


def test_with_session_is_linear_in_metrics() -> None:
    small, large = baseline(40, 2), baseline(160, 2)
    grow = (lines_run(lambda: with_session(large, "star64", results(160, 9), "x", ENV))
            / lines_run(lambda: with_session(small, "star64", results(40, 9), "x", ENV)))
    assert 3.5 < grow < 5.0, grow  # the scan of every entry per result grew 4x more


class CountingEntries(tuple[BaselineEntry, ...]):
    """The entries of a baseline, counting every scan of them."""

    scans = 0

    def __iter__(self) -> Iterator[BaselineEntry]:
        CountingEntries.scans += 1
        return super().__iter__()


def scans_judging(metrics: int) -> int:
    made = baseline(metrics, 3)
    counted = Baseline(made.board, CountingEntries(made.entries), made.path)
    CountingEntries.scans = 0
    done = compare(counted, "star64", {**ENV, "boot_id": "new"}, results(metrics, 7), {})
    assert len(done.verdicts) == metrics
    return CountingEntries.scans


def test_judging_scans_the_entries_a_fixed_number_of_times() -> None:
    few, many = scans_judging(10), scans_judging(40)
    assert few == many and few <= 4, (few, many)  # was two scans per result, and more


def test_a_baseline_side_is_reduced_once_per_metric() -> None:
    boots = 12
    made = baseline(20, boots)
    reduced = calls(boot_test.reduce_stats.__code__, lambda: compare(
        made, "star64", {**ENV, "boot_id": "new"}, results(20, 99), {}))
    sizes = [len(c["keys"]) for c in reduced]
    assert sizes.count(boots) == 20  # once per metric (it was 6 times)


def test_the_builtin_limits_are_gathered_once_however_many_metrics() -> None:
    def gathered(metrics: int) -> int:
        made = baseline(metrics, 2)
        return len(calls(workloads.builtin.__code__, lambda: compare(
            made, "star64", {**ENV, "boot_id": "new"}, results(metrics, 9), {})))
    assert gathered(5) == gathered(20) == 1  # it was once per result


def test_compare_decodes_its_baseline_once(tmp_path: Path) -> None:
    path, _ = saved_and_loaded(tmp_path, 20, 3)
    candidate = tmp_path / "run.json"
    candidate.write_text(json.dumps(document("star64", "now", {**ENV, "boot_id": "c"},
                                             results(20, 9))))
    size = len(path.read_text())
    baseline_module._PARSED.clear()
    decoded = calls(jsonload._loads.__code__,
                    lambda: main(["compare", str(path), str(candidate)]))
    assert [len(c["text"]) for c in decoded].count(size) == 1  # it was three times


def test_saving_is_linear_in_metrics_and_boots(tmp_path: Path) -> None:
    def saved(metrics: int, boots: int) -> int:
        path = tmp_path / f"{metrics}-{boots}" / "star64.json"
        path.parent.mkdir()
        append_session_locked(path, "star64", results(metrics, 0), "first", ENV)
        for b in range(1, boots):
            append_session_locked(path, "star64", results(metrics, b), f"at-{b}",
                                  {**ENV, "boot_id": f"b{b}"})
        return lines_run(lambda: append_session_locked(path, "star64", results(metrics, 99),
                                                       "last", {**ENV, "boot_id": "z"}))
    metrics = saved(80, 2) / saved(20, 2)
    boots = saved(10, 16) / saved(10, 4)
    assert 3.0 < metrics < 5.0, metrics
    assert 2.5 < boots < 5.0, boots


def parses(work: Callable[[], Any]) -> int:
    """How often ``work`` parses a baseline's bytes (calls of judge.baseline._parse)."""
    return len(calls(baseline_module._parse.__code__, work))


def saved_and_loaded(tmp_path: Path, metrics: int, boots: int) -> tuple[Path, Baseline]:
    """A baseline of ``metrics`` x ``boots`` written to ``star64.json`` and read back (the run's
    baseline, held until its save)."""
    path = tmp_path / "star64.json"
    write_baseline(path, baseline(metrics, boots))
    loaded = load_baseline(path, "star64")
    assert loaded is not None
    return path, loaded


def test_a_save_does_not_parse_again_the_bytes_the_run_loaded(tmp_path: Path) -> None:
    path, loaded = saved_and_loaded(tmp_path, 30, 3)
    assert parses(lambda: load_baseline(path, "star64")) == 0
    assert parses(lambda: save_session(path, "star64", results(30, 8), [], "new",
                                       {**ENV, "boot_id": "n"})) == 0
    # what a save wrote is parsed when next read: it is never taken from what the save built
    assert parses(lambda: load_baseline(path, "star64")) == 1
    baseline_module._PARSED.clear()
    fresh = load_baseline(path, "star64")
    assert fresh is not None and len(fresh.entries) == 30
    assert [s.created for s in fresh.entries[0].stored] == ["at-0", "at-1", "at-2", "new"]
    assert loaded.as_dict() != fresh.as_dict()


def test_bytes_changed_since_loading_are_parsed_again(tmp_path: Path) -> None:
    path, loaded = saved_and_loaded(tmp_path, 5, 2)
    other = with_session(loaded, "star64", results(5, 3), "other run", {**ENV, "boot_id": "o"})
    write_baseline(path, other)  # another run saved since this one loaded
    assert parses(lambda: append_session_locked(path, "star64", results(5, 4), "mine",
                                                {**ENV, "boot_id": "p"})) == 1
    kept = load_baseline(path, "star64")
    assert kept is not None
    assert [s.created for s in kept.entries[0].stored][-2:] == ["other run", "mine"]
    with pytest.raises(SchemaError, match="not of 'rock5b'"):
        load_baseline(path, "rock5b")  # the board is checked even for bytes parsed before


def test_a_saves_notes_reduce_no_stored_session_again() -> None:
    made = baseline(10, 6)
    assert all(e.side.k == 6 for e in made.entries)  # the run's judge reduced every entry
    reduced = calls(boot_test.reduce_side.__code__, lambda: notes(
        made, results(10, 9), {**ENV, "boot_id": "new"}))
    assert reduced and {len(c["sessions"]) for c in reduced} == {1}  # this session alone


def test_the_notes_say_what_reducing_every_session_says() -> None:
    made, saved = baseline(6, 5), results(7, 9)  # the seventh metric has no baseline yet
    for boot in ("new", "b2", None):  # a new boot, one the baseline has, an unknown one
        for r in saved:
            m = r.measurement
            entry = made.entry(r.test, m.metric, m.identity)
            every = [*(entry.boot_sessions if entry else ()),
                     BaselineSession(tuple(m.samples), boot)]
            means = save_note.boot_means(made, r, boot)
            assert means == boot_test.reduce_side(every).means
            assert save_note.catch_of(means, 7) == save_note.catch_pct(every, 7)
