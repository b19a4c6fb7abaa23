"""What ``--sbc-save-baseline`` records: only results a baseline should be judged against.

A regressed run saved into the baseline makes the same regression pass next time, so a save
keeps verdicts pass, improvement, inconclusive and no-baseline, plus what ``--sbc-accept``
names, and says what it did and did not record.  Inconclusive is kept: it is not a regression,
and a baseline of one or two boots leaves most verdicts inconclusive, so refusing it would stop
a baseline from ever reaching the three boots it needs.

A ``regression`` against a baseline whose every session has this session's reference (its
``label``, else its ``kernel_release``) may be a far boot of the same reference, not a change;
it is kept, but never folded in silently: its own gate called it a regression, so it is stored
quarantined (:func:`.quarantine.regressed`) with the line saying how to use it
(``sbcbench baseline restore``, or ``--sbc-accept`` naming it, which records it as used: "far
boot: ... recorded; it widens the tolerance").  Results of another reference are saved only
when ``--sbc-accept`` names them.

A kept result measured under contamination (other load, steal time, throttling, swap growth)
or whose boot is far beyond what the reference's other boots make plausible (3 robust
spreads) is stored *quarantined* (issue 28, item 5: :mod:`.quarantine`): kept and listed, never
judged against, unless ``--sbc-accept`` names it; the summary says why and how to use it.

An accepted result that is incomparable because it ran on another machine (``cpu_model``,
``cpus``) restarts its entry with this machine's session (issue 23): appended to the old
CPU's entry, the next run would be judged against two CPUs' samples."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..model import Result
from ..words import counted
from .baseline import (
    Baseline,
    BaselineEntry,
    StoredSession,
    boot_of,
)
from .baseline import reference_of as reference_of  # where a session's reference is read
from .baseline_model import no_gc_pauses
from .baseline_review import session_number
from .baseline_store import append_session_locked, load_any
from .quarantine import holds_for
from .save_note import beside_note, boot_means, boots_note, catch_note, findings_note
from .verdict import other_machine

SAVABLE = ("pass", "improvement", "inconclusive", "no-baseline")
NEVER_SAVED = ("invalid", "implausible")


def same_reference(baseline: Baseline | None, environment: Mapping[str, Any]
                   ) -> Callable[[Result], bool]:
    """Whether a result's baseline entry holds only sessions of this session's reference."""
    mine = reference_of(environment)

    def check(result: Result) -> bool:
        m = result.measurement
        entry = baseline.entry(result.test, m.metric, m.identity) \
            if baseline is not None and mine is not None else None
        return entry is not None and entry.references == {mine}
    return check


def _far_boot(result: Result, reference: str | None) -> str:
    """The save line of a far boot of the same reference."""
    e = result.verdict.evidence
    where = ""
    if e is not None and e.change_pct is not None:
        side = "below" if e.change_pct < 0 else "above"
        where = (f": this boot is {abs(e.change_pct):.1f}% {side} the other "
                 f"{counted(e.baseline_boots, 'boot')} of {reference or 'this reference'}")
    return (f"  far boot: {result.test} {result.measurement.display_name}{where}: recorded; "
            "it widens the tolerance")


def accepts(pattern: str, test: str) -> bool:
    """``--sbc-accept`` matching: the full node id, or any substring of it (``test_sequential``,
    ``[aes-128-gcm]``), like ``-k`` without the expression language."""
    return bool(pattern) and pattern in test


def savable(results: Sequence[Result], accept: Iterable[str] = (),
            same: Callable[[Result], bool] | None = None) -> tuple[list[Result], list[Result]]:
    """(kept, refused): a baseline records only what it should be judged against next time.

    Kept: verdicts pass, improvement, inconclusive and no-baseline, plus results ``accept``
    names (a regression or an incomparable result the user confirms is the new normal), plus
    regressions for which ``same`` says the baseline is of this session's reference (a far
    boot, see the module docstring).  Invalid and implausible results are refused even when
    named: they are not measurements of the board."""
    patterns = [p for p in accept if p]
    kept: list[Result] = []
    refused: list[Result] = []
    for result in results:
        status = result.verdict.status
        named = any(accepts(p, result.test) for p in patterns)
        drift = status == "regression" and same is not None and same(result)
        ok = status in SAVABLE or drift or (named and status not in NEVER_SAVED)
        (kept if ok else refused).append(result)
    return kept, refused


def save_summary(path: Path, kept: Sequence[Result], refused: Sequence[Result],
                 accept: Iterable[str] = (), sessions: int | None = None,
                 same: Callable[[Result], bool] | None = None,
                 reference: str | None = None,
                 stored: Mapping[tuple[str, str], StoredSession] | None = None,
                 number: int | None = None) -> list[str]:
    """Summary lines saying what was saved into ``path`` and what was not, and why
    (``sessions``: the most used sessions any saved metric now has; ``same`` and
    ``reference``: as for :func:`savable`, to name far boots; ``stored``: the session each
    kept result was stored as, by (test, metric), to name the quarantined ones; ``number``:
    this session's number in ``sbcbench baseline list``)."""
    patterns = [p for p in accept if p]
    held = _quarantined(kept, stored or {})
    held_ids = {id(r) for r, _ in held}
    lines = []
    if kept:
        depth = f"; up to {counted(sessions, 'session')} per metric" if sessions else ""
        aside = f", {len(held)} quarantined" if held else ""
        lines.append(f"baseline saved: {path} ({counted(len(kept), 'result')}{aside}{depth})")
    else:
        lines.append(f"baseline NOT saved to {path}: no result can be recorded")
    for r in kept:
        if id(r) in held_ids:
            continue
        if r.verdict.status == "regression" and same is not None and same(r):
            lines.append(_far_boot(r, reference))
        elif r.verdict.status not in SAVABLE:
            lines.append(f"  saved by --sbc-accept: {r.test} {r.measurement.display_name} "
                         f"({r.verdict.status})")
    lines += _quarantine_lines(path, held, number)
    for r in refused:
        status = r.verdict.status
        why = ("never recorded" if status in NEVER_SAVED
               else f"add --sbc-accept '{r.test}' to record it as the new normal")
        lines.append(f"  NOT saved: {r.test} {r.measurement.display_name} ({status}; {why})")
    lines += [f"  --sbc-accept {p!r} matched no result" for p in patterns
              if not any(accepts(p, r.test) for r in (*kept, *refused))]
    return lines


def _quarantined(kept: Sequence[Result], stored: Mapping[tuple[str, str], StoredSession]
                 ) -> list[tuple[Result, str]]:
    """The kept results stored as quarantined, with why."""
    out = []
    for r in kept:
        session = stored.get((r.test, r.measurement.metric))
        if session is not None and session.status == "quarantined":
            out.append((r, session.why))
    return out


def _quarantine_lines(path: Path, held: Sequence[tuple[Result, str]], number: int | None
                      ) -> list[str]:
    """One line per reason (the results it holds named), then how to use them after all."""
    if not held:
        return []
    by_why: dict[str, list[str]] = {}
    for r, why in held:
        by_why.setdefault(why, []).append(r.measurement.display_name)
    lines = [f"  quarantined: {', '.join(names)}: {why}" for why, names in by_why.items()]
    which = f" {number}" if number is not None else " SESSION"
    tests = " ".join(dict.fromkeys(f"'{r.test}'" for r, _ in held))
    lines.append(f"  quarantined results are kept in the baseline but never judged against "
                 f"(sbcbench baseline list {path}); if they are sound, use them with "
                 f"'sbcbench baseline restore {path}{which}', or save the boot again with "
                 f"--sbc-accept {tests}")
    return lines


def other_machine_entries(kept: Sequence[Result], environment: Mapping[str, Any]
                          ) -> Callable[[BaselineEntry], bool]:
    """Whether a baseline entry is one a kept result belongs to (test, metric, identity) whose
    latest session ran on another machine (another ``cpu_model`` or ``cpus``): accepting such
    a result (``--sbc-accept`` of an incomparable one) restarts the entry with this machine's
    session, never mixes two CPUs' samples in one entry."""
    keys = {(r.test, r.measurement.metric, r.measurement.identity) for r in kept}

    def check(entry: BaselineEntry) -> bool:
        return entry.key in keys and bool(entry.used_count) \
            and other_machine(entry, environment) is not None
    return check


def _restarted(entries: Sequence[BaselineEntry], environment: Mapping[str, Any]) -> list[str]:
    return [f"  restarted: {e.test} {e.metric}: its {counted(e.used_count, 'session')} "
            f"from another machine ({other_machine(e, environment)}) "
            f"{'is' if e.used_count == 1 else 'are'} replaced by this machine's"
            for e in entries]


def save_session(path: Path, board: str, results: Sequence[Result], accept: Iterable[str],
                 created: str, environment: Mapping[str, Any], with_notes: bool = False
                 ) -> list[str]:
    """``--sbc-save-baseline``: filter with :func:`savable` (a far boot of the baseline's own
    reference is kept), append under the lock with :func:`append_session_locked` (nothing is
    written when nothing is savable; an entry of another machine restarts, see
    :func:`other_machine_entries`; a contaminated or implausibly far result is stored
    quarantined unless ``accept`` names it, see :mod:`.quarantine`), and return the summary
    lines of :func:`save_summary`, followed (``with_notes``: what the run prints) by the notes
    of :mod:`.save_note` (boots, the drop the baseline can catch, findings of what was saved
    as used).  Run with the cyclic garbage collector paused (a save makes a few objects per metric
    while the baseline's hold a few per boot: one collection walked them all)."""
    with no_gc_pauses():
        return _save(path, board, results, accept, created, environment, with_notes)


def _save(path: Path, board: str, results: Sequence[Result], accept: Iterable[str],
          created: str, environment: Mapping[str, Any], with_notes: bool) -> list[str]:
    patterns = list(accept)
    baseline = load_any(path, board)
    same = same_reference(baseline, environment)
    kept, refused = savable(results, patterns, same)
    restart = other_machine_entries(kept, environment)
    moved = [e for e in baseline.entries if restart(e)] if baseline is not None else []
    sessions = number = None
    stored: dict[tuple[str, str], StoredSession] = {}
    reference = reference_of(environment)
    if kept:
        named = holds_for(created, environment,
                          lambda r: any(accepts(p, r.test) for p in patterns), reference, stored)
        updated = append_session_locked(path, board, kept, created, environment, restart, named)
        sessions = max((e.used_count for e in updated.entries), default=0) or None
        number = session_number(updated, created, boot_of(environment))
    lines = [*save_summary(path, kept, refused, patterns, sessions, same, reference, stored,
                           number), *_restarted(moved, environment)]
    used = [r for r in kept if stored.get((r.test, r.measurement.metric)) is None
            or stored[r.test, r.measurement.metric].used]
    return [*lines, *notes(baseline, used, environment)] if kept and with_notes else lines


def notes(baseline: Baseline | None, used: Sequence[Result], environment: Mapping[str, Any]
          ) -> list[str]:
    """The notes after a save (:mod:`.save_note`) over the results saved as used."""
    if not used:
        return ["baseline boots: no result of this session is used (all quarantined)"]
    boot = boot_of(environment)
    said = [n for n in (findings_note(used), beside_note(used)) if n]
    means = [boot_means(baseline, r, boot) for r in used]  # once for both notes
    return [boots_note(baseline, used, boot, means), catch_note(baseline, used, boot, means),
            *said]
