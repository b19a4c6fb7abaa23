"""``sbcbench baseline list|drop|restore``: a baseline's sessions, reviewed and kept clean.

A *session* is one save: every stored session with the same ``created`` and boot id, across
the file's entries (one per metric saved).  Sessions are numbered 1, 2, ... in the order they
first appear.  Nothing is ever deleted: ``drop`` marks each of the session's stored sessions
``dropped`` (remembering what it was in ``before_drop``), ``restore`` undoes a drop, and
``restore`` of a quarantined session accepts it (marks it used).  A drop then a restore gives
back the same bytes, so a signature made before the drop matches again.

Every change is written under the baseline's lock, re-read first, atomically (the save path:
:func:`.baseline.write_baseline`); a signed baseline's ``.sig`` no longer matches what was
written, so ``--sbc-verify-key`` refuses the file until it is signed again."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SbcBenchError
from ..fileio import clean_stale_temps, locked
from ..words import counted
from .baseline import (
    Baseline,
    BaselineEntry,
    StoredSession,
    boot_of,
    load_baseline,
    lock_path,
    reference_of,
    write_baseline,
)
from .baseline_saves import context_list, is_saves_directory, load_saves, rewrite_saves, saves_of
from .signing import signature_path
from .stored_names import shown

SessionKey = tuple[str, str | None]  # created, boot id


def key_of(session: StoredSession) -> SessionKey:
    return session.created, boot_of(session.environment)


@dataclass(frozen=True)
class SessionRow:
    """One save as ``sbcbench baseline list`` shows it."""

    number: int
    created: str
    boot_id: str | None
    reference: str | None
    kernel: str | None
    statuses: tuple[str, ...]  # one per metric stored
    findings: tuple[str, ...]  # contamination kinds, each once
    whys: tuple[str, ...]  # why its metrics are quarantined (or accepted), each once

    @property
    def status(self) -> str:
        """``used``, ``dropped``, ``quarantined`` or ``quarantined N of M`` (some used)."""
        kinds = set(self.statuses)
        if len(kinds) == 1:
            return self.statuses[0]
        held = sum(1 for s in self.statuses if s != "used")
        return f"quarantined {held} of {len(self.statuses)}" if "dropped" not in kinds \
            else f"partly dropped ({self.statuses.count('dropped')} of {len(self.statuses)})"

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.number, "created": self.created, "boot_id": self.boot_id,
                "reference": self.reference, "kernel_release": self.kernel,
                "metrics": len(self.statuses), "status": self.status,
                "used": self.statuses.count("used"),
                "quarantined": self.statuses.count("quarantined"),
                "dropped": self.statuses.count("dropped"), "findings": list(self.findings),
                "why": list(self.whys)}


def _text(environment: Any, key: str) -> str | None:
    value = environment.get(key)
    return value if isinstance(value, str) and value else None


def _in_order(baseline: Baseline) -> Iterator[StoredSession]:
    """Every stored session: a file's by entry, a directory's save by save."""
    saves = saves_of(baseline)
    for save in saves.parsed() if saves is not None else [baseline]:
        for entry in save.entries:
            yield from entry.stored


def sessions(baseline: Baseline) -> list[SessionRow]:
    """Every save in the baseline, in the order each first appears (a directory's: in the
    order of its saves)."""
    grouped: dict[SessionKey, list[StoredSession]] = {}
    for s in _in_order(baseline):
        grouped.setdefault(key_of(s), []).append(s)
    rows = []
    for number, ((created, boot), stored) in enumerate(grouped.items(), 1):
        env = stored[0].environment
        rows.append(SessionRow(
            number, created, boot, reference_of(env), _text(env, "kernel_release"),
            tuple(s.status for s in stored),
            tuple(dict.fromkeys(k for s in stored for k, _ in s.findings)),
            tuple(dict.fromkeys(s.why for s in stored if s.why))))
    return rows


def session_number(baseline: Baseline, created: str, boot: str | None) -> int | None:
    """The number ``sbcbench baseline list`` gives the save of ``created`` in ``boot`` (a
    directory's from its saves' summaries, no session read)."""
    contexts = context_list(baseline)
    if contexts:
        keys = list(dict.fromkeys((c.created, c.boot_id) for c in contexts))
        return keys.index((created, boot)) + 1 if (created, boot) in keys else None
    return next((r.number for r in sessions(baseline) if (r.created, r.boot_id)
                 == (created, boot)), None)


def list_lines(baseline: Baseline, path: Path) -> list[str]:
    """The listing: one line per session, then why each held one is held (every name read
    from the file shown escaped: :func:`.stored_names.shown`)."""
    rows = sessions(baseline)
    entries = counted(len(baseline.entries), "entry", "entries")
    lines = [f"{path}: board {baseline.board}, {entries}, "
             f"{counted(len(rows), 'session')}"]
    for r in rows:
        boot = shown((r.boot_id or "unknown")[:12])
        label = r.reference or "-"
        if r.kernel and r.kernel != r.reference:
            label += f" (kernel {r.kernel})"
        findings = f"; findings: {', '.join(r.findings)}" if r.findings else ""
        lines.append(f"  {r.number:>3}  {shown(r.created)}  boot {boot}  {shown(label)}  "
                     f"{counted(len(r.statuses), 'metric')}  {r.status}{shown(findings)}")
        lines += [f"         {shown(why)}" for why in r.whys[:3]]
        if len(r.whys) > 3:
            lines.append(f"         ... and {len(r.whys) - 3} more reasons")
    return lines


def find(rows: Sequence[SessionRow], wanted: str) -> SessionRow:
    """The session ``wanted`` names: its number, its ``created`` or its boot id (a unique
    prefix of at least 4 characters will do); anything else is an error listing choices."""
    if wanted.isdigit():
        hit = [r for r in rows if r.number == int(wanted)]
    else:
        hit = [r for r in rows if wanted in (r.created, r.boot_id)]
        if not hit and len(wanted) >= 4:
            hit = [r for r in rows if r.boot_id is not None and r.boot_id.startswith(wanted)]
    if len(hit) == 1:
        return hit[0]
    known = ", ".join(f"{r.number} ({r.created}, boot {(r.boot_id or 'unknown')[:8]})"
                      for r in rows[:10])
    what = "matches several sessions" if hit else "names no session"
    raise SbcBenchError(f"{wanted!r} {what}: give a session number from 'sbcbench baseline "
                        f"list' ({known}{', ...' if len(rows) > 10 else ''})")


Change = Callable[[StoredSession], StoredSession | None]  # None: left as it is
PAST = {"drop": "dropped", "restore": "restored"}


def dropping(s: StoredSession) -> StoredSession | None:
    if s.status == "dropped":
        return None
    return dataclasses.replace(s, status="dropped", before_drop=s.status)


def restoring(s: StoredSession) -> StoredSession | None:
    """A dropped session goes back to what it was; a quarantined one is accepted."""
    if s.status == "dropped":
        return dataclasses.replace(s, status=s.before_drop or "used", before_drop=None)
    if s.status == "quarantined":
        return dataclasses.replace(s, status="used")
    return None


def changed(baseline: Baseline, key: SessionKey, change: Change
            ) -> tuple[Baseline, list[tuple[BaselineEntry, str, str]]]:
    """``baseline`` with ``change`` applied to the stored sessions of ``key``, and what moved
    (entry, status before, status after)."""
    moved = []
    entries = []
    for e in baseline.entries:
        stored = []
        touched = False
        for s in e.stored:
            new = change(s) if key_of(s) == key else None
            if new is not None:
                moved.append((e, s.status, new.status))
                touched = True
            stored.append(new if new is not None else s)
        entries.append(BaselineEntry(e.test, e.metric, e.unit, e.better, e.identity,
                                     tuple(stored)) if touched else e)
    return Baseline(baseline.board, tuple(entries), baseline.path), moved


def change_lines(path: Path, action: str, row: SessionRow,
                 moved: Sequence[tuple[BaselineEntry, str, str]], after: Baseline,
                 written: bool) -> list[str]:
    """What a drop or restore (``action``) changed (or would change, ``written`` False)."""
    verb = PAST[action] if written else f"would {action}"
    head = (f"{verb} session {row.number} of {path} ({row.created}, boot "
            f"{row.boot_id or 'unknown'}, {row.reference or 'unknown reference'})")
    steps: dict[tuple[str, str], list[str]] = {}
    for e, before, now in moved:
        steps.setdefault((before, now), []).append(e.metric)
    lines = [head + ":"]
    for (before, now), metrics in steps.items():
        shown = ", ".join(dict.fromkeys(metrics))
        lines.append(f"  {counted(len(metrics), 'metric')} {before} -> {now}: {shown}")
    empty = [e for e, _, _ in moved if after.entry(e.test, e.metric, e.identity) is None]
    if empty:
        names = ", ".join(dict.fromkeys(e.metric for e in empty))
        left = counted(len(empty), "entry", "entries")
        lines.append(f"  no used session left for {left} ({names}): "
                     "judged as no-baseline until a session is saved or restored")
    if not written:
        lines.append("  nothing written (--dry-run)")
    elif signature_path(path).exists():
        lines.append(f"  the signature {signature_path(path).name} no longer matches this "
                     "file: review it and sign again with 'sbcbench sign "
                     f"{path} --key KEY'; --sbc-verify-key refuses it until then")
    return lines


def apply(path: Path, wanted: str, action: str, dry_run: bool = False) -> list[str]:
    """Drop or restore (``action``) the session ``wanted`` names in the baseline at ``path``:
    under its lock, re-read, changed, written atomically (not with ``dry_run``); the lines
    saying what changed.  A session with nothing to change is an error."""
    with locked(lock_path(path)):
        clean_stale_temps(lock_path(path).parent)
        baseline = load_saves(path, None) if is_saves_directory(path) else load_baseline(path)
        if baseline is None:
            raise SbcBenchError(f"{path}: no such baseline")
        row = find(sessions(baseline), wanted)
        change = dropping if action == "drop" else restoring
        after, moved = changed(baseline, (row.created, row.boot_id), change)
        if not moved:
            raise SbcBenchError(f"session {row.number} of {path} is {row.status}: nothing to "
                                f"{action}")
        if not dry_run and is_saves_directory(path):
            rewrite_saves(path, baseline.board, lambda save: _changed_save(save, row, change))
        elif not dry_run:
            write_baseline(path, after)
    return change_lines(path, action, row, moved, after, not dry_run)


def _changed_save(save: Baseline, row: SessionRow, change: Change) -> Baseline | None:
    """One save of a directory with the change applied (None: it holds nothing of it)."""
    after, moved = changed(save, (row.created, row.boot_id), change)
    return after if moved else None


def split(path: Path) -> list[str]:
    """``sbcbench baseline split FILE``: the file ``<board>.json`` becomes the first save of
    the directory ``<board>/`` (moved, byte for byte, under its lock), where each later save
    is a file of its own; its signature, if any, no longer applies.  Under the directory's
    lock too: a run saving at that moment, into the directory just made, waits for the move
    instead of writing a first save the move would replace."""
    folder = path.with_suffix("")
    if path.suffix != ".json" or not path.is_file():
        raise SbcBenchError(f"{path}: not a baseline file (baselines/<board>.json)")
    with locked(lock_path(path)), locked(lock_path(folder)):
        baseline = load_baseline(path)
        if baseline is None:
            raise SbcBenchError(f"{path}: no such baseline")
        if folder.exists():
            raise SbcBenchError(f"{folder} exists already: move it out of the way first")
        folder.mkdir()
        first = folder / "000001.json"
        os.replace(path, first)
    lines = [f"split: {path} is now {first}, the first save of {folder}/ (board "
             f"{baseline.board}); each later save is a file of its own there"]
    if signature_path(path).exists():
        lines.append(f"  {signature_path(path).name} signed the file, not the directory: "
                     f"sign the directory with 'sbcbench sign {folder} --key KEY'")
    return lines
