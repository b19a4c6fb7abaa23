"""Gate mode's preflight (``--sbc-gate``): before the first benchmark, every selected test must
have a baseline it can be judged against, recorded on this machine with the same tool identity.
A gate that would only learn after minutes of measuring that it compared nothing fails now,
naming each test and what to do; a kernel gate never re-baselines on the candidate.

What is checked before measuring: the board's baseline file exists; each selected test has
entries in it; for a registered workload, the identity it declares (tool and version, before any
run) matches one of the test's entries; the machine (CPU model) matches the entries' latest
session (the CPUs online are not checked: a kernel or BSP that loses a core is what the gate
must judge).  What only a run can tell (an identity part a run adds, such as the seconds of a
quick run) is still judged ``incomparable`` at the end, and gate mode fails on that too."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..words import counted

if TYPE_CHECKING:
    from ..judge.baseline import Baseline, BaselineEntry
    from ..model import Identity, Result
    from ..settings import Settings
    from ..workload import Context, Workload

GATE_UNDECIDED = 6  # exit code: nothing regressed, but some metric was not decided
UNDECIDED = ("inconclusive", "no-baseline", "incomparable", "invalid")
ADVICE = ("record the baseline on the reference kernel with the same userland (same openssl: "
          "pin SBCBENCH_OPENSSL), quick against quick, then gate the candidate against it; "
          "never re-baseline on the candidate")
HELD = "is quarantined or dropped"


def held_advice(path: Path | None) -> str:
    """What to do about a baseline whose sessions of a test are all held."""
    where = path or "FILE"
    return (f"see why with 'sbcbench baseline list {where}'; if those sessions are sound, use "
            f"them with 'sbcbench baseline restore {where} SESSION', else record the baseline "
            "again on a quiet machine (--sbc-save-baseline on the reference kernel)")


def missing_baseline(path: Path) -> str:
    folder = path.parent
    where = (f"{path} does not exist" if folder.is_dir() else
             f"the baselines directory {folder} does not exist (check --sbc-baselines and the "
             "directory pytest runs from)")
    return f"gate: no baseline to gate against: {where}; {ADVICE}"


def before_board(settings: Settings) -> None:
    """``--sbc-gate``, before a lab board is powered (a boot takes minutes): the baselines
    directory exists, and with ``--board`` so does that board's baseline file; else raise the
    refusal the gate would give after the boot (a misspelled ``--sbc-baselines`` used to be
    found only once the board had booted)."""
    if not settings.gate:
        return
    from ..errors import SbcBenchError
    from ..judge.baseline_store import baseline_path

    folder = settings.baselines
    if not folder.is_dir():
        raise SbcBenchError(missing_baseline(folder / "board.json"))
    if settings.board is not None and not baseline_path(folder, settings.board).exists():
        raise SbcBenchError(missing_baseline(baseline_path(folder, settings.board)))


def declared_mismatch(declared: Identity, entries: Sequence[BaselineEntry]) -> str | None:
    """Why no entry carries ``declared`` (the workload's own identity keys), or None."""
    wanted = declared.as_dict()
    found = []
    for entry in entries:
        theirs = entry.identity.as_dict()
        diffs = {k: (theirs.get(k), v) for k, v in wanted.items() if theirs.get(k) != v}
        if not diffs:
            return None
        found.append(diffs)
    diffs = found[-1]
    return ", ".join(f"{k}: baseline {old!r}, this run {new!r}" for k, (old, new) in diffs.items())


def machine_mismatch(entries: Sequence[BaselineEntry], machine: Mapping[str, Any]) -> str | None:
    from ..judge.verdict import other_machine

    moved = [other_machine(e, machine) for e in entries]
    return moved[-1] if moved and all(moved) else None


def problems(tests: Sequence[str], baseline: Baseline, machine: Mapping[str, Any],
             declared: Callable[[str], Identity | None]) -> list[str]:
    """One line per selected test the gate cannot judge; ``declared(test)`` is the identity
    its workload declares before running (None: a custom measurement, known only after)."""
    out = []
    for test in tests:
        entries = [e for e in baseline.entries if e.test == test]
        if entries and not any(e.used_count for e in entries):
            out.append(f"{test}: every baseline session of it in {baseline.path} {HELD}; "
                       f"{held_advice(baseline.path)}")
            continue
        entries = [e for e in entries if e.used_count]
        if not entries:
            out.append(f"{test}: no baseline entry in {baseline.path}")
            continue
        identity = declared(test)
        mismatch = declared_mismatch(identity, entries) if identity is not None else None
        if mismatch:
            out.append(f"{test}: incomparable before measuring ({mismatch})")
            continue
        moved = machine_mismatch(entries, machine)
        if moved:
            out.append(f"{test}: the baseline was measured on another machine ({moved})")
    return out


def refusal(found: Sequence[str]) -> str:
    shown = "\n  ".join(found)
    return (f"gate: {counted(len(found), 'selected test')} cannot be gated, nothing was measured:\n"
            f"  {shown}\n{ADVICE}")


def workload_identity(workload: Workload | None, context: Callable[[Workload], Context]
                      ) -> Identity | None:
    """The identity a registered workload declares before any run (None: it can say only after
    ``prepare``, or its tool is missing here, which the test reports as a skip)."""
    if workload is None:
        return None
    ctx = context(workload)
    if workload.available(ctx) is not None:
        return None
    return workload.declared_identity(ctx)


def will_skip(workload: Workload | None, context: Callable[[Workload], Context]) -> bool:
    """The workload cannot run here (a missing tool): its test skips and judges nothing, so
    the gate does not ask it for a baseline."""
    return workload is not None and workload.available(context(workload)) is not None


def check(tests: Sequence[tuple[str, Workload | None]], path: Path, baseline: Baseline | None,
          machine: Mapping[str, Any], context: Callable[[Workload], Context]) -> None:
    """Raise :class:`SbcBenchError` naming every selected test the gate cannot judge."""
    from ..errors import SbcBenchError

    if baseline is None:
        raise SbcBenchError(missing_baseline(path))
    workloads = dict(tests)
    found = problems([t for t, w in tests if not will_skip(w, context)], baseline, machine,
                     lambda test: workload_identity(workloads.get(test), context))
    if found:
        raise SbcBenchError(refusal(found))


def early_warnings(tests: Sequence[tuple[str, Workload | None]], baseline: Baseline | None,
                   machine: Mapping[str, Any], context: Callable[[Workload], Context]
                   ) -> list[str]:
    """Outside gate mode, before measuring: the selected tests whose baseline is already known
    to be incomparable (another tool version, another machine), each once, with the advice; a
    test without an entry yet is not a problem (the baseline is being built)."""
    if baseline is None:
        return []
    workloads = dict(tests)
    known = {e.test for e in baseline.entries}
    found = problems([t for t, _ in tests if t in known], baseline, machine,
                     lambda test: workload_identity(workloads.get(test), context))
    if not found:
        return []
    odd = [line for line in found if HELD not in line]  # a held one says what to do itself
    return [f"before measuring: {line}" for line in found] + ([
        f"before measuring: those tests will be judged incomparable; {ADVICE}"] if odd else [])


def cannot_gate(results: Sequence[Result], failed: int, allow_incomparable: bool,
                gate: bool = True, where: Path | None = None) -> str | None:
    """At the end: when the ``failed`` tests are exactly those the baseline cannot judge, the
    line of exit 4 (cannot gate), as ``sbcbench compare`` gives on the same file; None when
    anything else failed (a regression, a broken tool: exit 1 stays).  Those tests: a result
    whose every baseline session is quarantined or dropped (any run), and in gate mode one
    incomparable with the baseline (an identity part only a run adds, found after
    measuring); ``where``: the baseline file, named in the advice."""
    from ..judge.held import cannot_judge

    if failed == 0:
        return None
    failing = [r for r in results if r.verdict.status in ("regression", "implausible",
                                                           "invalid")]
    odd = sorted({r.test for r in results if gate and not allow_incomparable
                  and r.verdict.status == "incomparable"})
    held = sorted({r.test for r in results if cannot_judge(r.verdict)})
    if failing or not odd + held or len(set(odd + held)) != failed:
        return None
    lines = [f"{counted(len(odd), 'test')} measured something the baseline cannot be compared "
             f"with: {', '.join(odd)}; {ADVICE}"] if odd else []
    if held:
        lines.append(f"{counted(len(held), 'test')} whose every baseline session is "
                     f"quarantined or dropped: {', '.join(held)}; {held_advice(where)}")
    return f"{'gate: ' if gate else ''}cannot gate, exit 4: {'; '.join(lines)}"


def undecided(results: Sequence[Result]) -> str | None:
    """Gate mode at the end: the metrics the run could not decide (exit 6), or None."""
    left = [f"{r.measurement.display_name} ({r.verdict.status})" for r in results
            if r.verdict.status in UNDECIDED]
    if not left:
        return None
    return (f"gate: undecided, exit {GATE_UNDECIDED}: {counted(len(left), 'metric')} neither "
            f"passed nor regressed: {', '.join(left)}; add candidate boots or baseline boots, "
            "or a quieter board")


def preflight(settings: Settings, path: Path, baseline: Baseline | None,
              machine: Mapping[str, Any], context: Callable[[Workload], Context],
              tests: Sequence[tuple[str, Workload | None]]) -> list[str]:
    """``--sbc-gate``: raise naming every test the gate cannot judge (``path``: the board's
    baseline file); otherwise the early warnings (:func:`early_warnings`)."""
    if settings.gate:
        check(tests, path, baseline, machine, context)
        return []
    return early_warnings(tests, baseline, machine, context)
