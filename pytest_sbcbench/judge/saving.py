"""What ``--sbc-save-baseline`` records: only results a baseline should be judged against.

A regressed run saved into the baseline makes the same regression pass next time, so a save
keeps verdicts pass, improvement, inconclusive and no-baseline, plus what ``--sbc-accept``
names, and says what it did and did not record.  Inconclusive is kept: it is not a regression,
and a baseline of one or two boots leaves most verdicts inconclusive, so refusing it would stop
a baseline from ever reaching the three boots it needs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..model import Result
from .baseline import append_session_locked

SAVABLE = ("pass", "improvement", "inconclusive", "no-baseline")
NEVER_SAVED = ("invalid", "implausible")


def accepts(pattern: str, test: str) -> bool:
    """``--sbc-accept`` matching: the full node id, or any substring of it (``test_sequential``,
    ``[aes-128-gcm]``), like ``-k`` without the expression language."""
    return bool(pattern) and pattern in test


def savable(results: Sequence[Result], accept: Iterable[str] = ()
            ) -> tuple[list[Result], list[Result]]:
    """(kept, refused): a baseline records only what it should be judged against next time.

    Kept: verdicts pass, improvement, inconclusive and no-baseline, plus results ``accept``
    names (a regression or an incomparable result the user confirms is the new normal).
    Invalid and implausible results are refused even when named: they are not measurements of
    the board."""
    patterns = [p for p in accept if p]
    kept: list[Result] = []
    refused: list[Result] = []
    for result in results:
        status = result.verdict.status
        named = any(accepts(p, result.test) for p in patterns)
        ok = status in SAVABLE or (named and status not in NEVER_SAVED)
        (kept if ok else refused).append(result)
    return kept, refused


def save_summary(path: Path, kept: Sequence[Result], refused: Sequence[Result],
                 accept: Iterable[str] = (), sessions: int | None = None) -> list[str]:
    """Summary lines saying what was saved into ``path`` and what was not, and why
    (``sessions``: the most sessions any saved metric now has)."""
    patterns = [p for p in accept if p]
    lines = []
    if kept:
        depth = f"; up to {sessions} session(s) per metric" if sessions else ""
        lines.append(f"baseline saved: {path} ({len(kept)} result(s){depth})")
    else:
        lines.append(f"baseline NOT saved to {path}: no result can be recorded")
    for r in kept:
        if r.verdict.status not in SAVABLE:
            lines.append(f"  saved by --sbc-accept: {r.test} {r.measurement.display_name} "
                         f"({r.verdict.status})")
    for r in refused:
        status = r.verdict.status
        why = ("never recorded" if status in NEVER_SAVED
               else f"add --sbc-accept '{r.test}' to record it as the new normal")
        lines.append(f"  NOT saved: {r.test} {r.measurement.display_name} ({status}; {why})")
    lines += [f"  --sbc-accept {p!r} matched no result" for p in patterns
              if not any(accepts(p, r.test) for r in (*kept, *refused))]
    return lines


def save_session(path: Path, board: str, results: Sequence[Result], accept: Iterable[str],
                 created: str, environment: Mapping[str, Any]) -> list[str]:
    """``--sbc-save-baseline``: filter with :func:`savable`, append under the lock with
    :func:`append_session_locked` (nothing is written when nothing is savable), and return
    the summary lines of :func:`save_summary`."""
    patterns = list(accept)
    kept, refused = savable(results, patterns)
    sessions = None
    if kept:
        updated = append_session_locked(path, board, kept, created, environment)
        sessions = max(len(e.sessions) for e in updated.entries)
    return save_summary(path, kept, refused, patterns, sessions)
