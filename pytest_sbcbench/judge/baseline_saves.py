"""A board's baseline as a directory of saves: ``<baselines>/<board>/000001.json``, ...

Each save is an ordinary baseline document (``sbcbench-baseline/1``) holding one save's
sessions, written once and never rewritten by a later save, so a save costs its own sessions
and no file grows past the input limit however many boots are kept.  The board's baseline is
the saves in order, an entry's sessions those of every save holding it.  Judging reads the
saves' summaries (:mod:`.baseline_summary`), not their sessions; the sessions are parsed only
when something asks for one (:class:`.baseline_columns.LazySessions`).  A single-file baseline
becomes a directory with ``sbcbench baseline split`` (the file is its first save)."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import weakref
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

from ..errors import SchemaError
from ..fileio import read_regular, write_atomic
from ..model import Identity
from .baseline import parse_baseline
from .baseline_columns import ContextFacts, EntryColumns, LazySessions, SaveContext
from .baseline_model import Baseline, BaselineEntry, StoredSession, baseline_text
from .baseline_summary import Cached, SaveSummary, read_cache, summarize, write_cache

SAVE_NAME = re.compile(r"\d{6}\.json")
Key = tuple[str, str, Identity]


def is_saves_directory(path: Path) -> bool:
    """Whether ``path`` is a directory of saves: a directory not named like a baseline file
    (``<board>.json`` as a directory is a broken file, said so) and one that can be looked
    at (else reading it says why, naming it)."""
    if path.name.endswith(".json"):
        return False
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def save_files(folder: Path) -> list[Path]:
    """The saves of ``folder`` in order; another ``.json`` file there is an error naming it
    (a save's name is six digits)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise SchemaError(folder, None, f"unreadable baseline directory: "
                                        f"{exc.strerror or exc}") from exc
    stray = [n for n in names if n.endswith(".json") and not SAVE_NAME.fullmatch(n)]
    if stray:
        raise SchemaError(folder / stray[0], None, "not a save of this baseline directory "
                          "(saves are named 000001.json, 000002.json, ...): move it out")
    return [folder / n for n in names if SAVE_NAME.fullmatch(n)]


# Each save's SHA-256 known here, by path, with its identity then (inode, size, mtime: saves
# are renamed into place whole) and whether it was hashed here (else: the cache's record)
_DIGESTS: dict[str, tuple[tuple[int, int, int], str, bool]] = {}


def _identity(stat: os.stat_result) -> tuple[int, int, int]:
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def digest(path: Path, cached: Cached) -> str:
    """The SHA-256 of a save: known in this process for its identity, else the one the
    summary cache recorded for it when the file is older than the cache's racy window, else
    hashed."""
    identity = _identity(os.stat(path))
    known = _known(path, identity, hashed=False)
    if known is not None:
        return known
    sha = cached.sha_of(path.name, identity)
    if sha is not None:
        _DIGESTS[str(path)] = (identity, sha, False)
        return sha
    return _hashed(path, read_regular(path), identity)


def _known(path: Path, identity: tuple[int, int, int], hashed: bool) -> str | None:
    """The SHA-256 known here for ``path`` at this identity (``hashed``: hashed here), or None."""
    known = _DIGESTS.get(str(path))
    if known is None or known[0] != identity or (hashed and not known[2]):
        return None
    return known[1]


def _hashed(path: Path, raw: bytes, before: tuple[int, int, int] | None = None) -> str:
    """The SHA-256 of ``raw`` (read from ``path``), remembered with the file's identity when
    it did not change while read (``before``: its identity before)."""
    sha = hashlib.sha256(raw).hexdigest()
    after = _identity(os.stat(path))
    if before is None or before == after:
        _DIGESTS[str(path)] = (after, sha, True)
    return sha


def identity_of(path: Path) -> tuple[int, int, int] | None:
    """The identity this process hashed ``path`` at (None: not hashed)."""
    return _DIGESTS[str(path)][0] if str(path) in _DIGESTS else None


@dataclass(frozen=True)
class Saves:
    """What a directory's baseline was built from: its files, SHA-256s and summaries."""

    folder: Path
    board: str
    files: tuple[Path, ...]
    summaries: tuple[SaveSummary, ...]
    sessions: dict[Key, list[StoredSession]] = field(default_factory=dict, compare=False)
    read: list[Baseline] = field(default_factory=list, compare=False)
    derived: bool = False  # every summary made in this process from the bytes it hashed

    def manifest(self) -> bytes:
        """What a signature of the directory signs: each save's name and SHA-256."""
        return "".join(f"{p.name} {s.sha256}\n" for p, s in
                       zip(self.files, self.summaries, strict=True)).encode()

    def stored(self, key: Key) -> list[StoredSession]:
        """``key``'s sessions in save order, every save parsed once (as summarized)."""
        if not self.sessions:
            for save in self.parsed():
                for e in save.entries:
                    self.sessions.setdefault(e.key, []).extend(e.stored)
        return self.sessions.get(key, [])

    def parsed(self) -> list[Baseline]:
        """Every save read whole, in order, parsed once (its bytes still those summarized)."""
        if not self.read:
            self.read.extend(_read_save(path, self.board, summary.sha256)[0]
                             for path, summary in zip(self.files, self.summaries, strict=True))
        return self.read


_BUILT: dict[tuple[str, ...], weakref.ref[Baseline]] = {}  # by the saves' SHA-256s
_SAVES: dict[int, Saves] = {}  # the saves of each directory baseline alive, by its id


def saves_of(baseline: Baseline | None) -> Saves | None:
    """The saves a directory's baseline was built from (None: not a directory's)."""
    return _SAVES.get(id(baseline))


def _read_save(path: Path, board: str | None, sha: str | None = None) -> tuple[Baseline, str]:
    """A save parsed, and the SHA-256 of the bytes parsed (``sha``: what they must be)."""
    before = _identity(os.stat(path))
    raw = read_regular(path)
    found = _hashed(path, raw, before)
    if sha is not None and found != sha:
        raise SchemaError(path, None, "this save changed while it was being read: run again")
    return parse_baseline(raw, path, board), found


def load_saves(folder: Path, board: str | None, hash_all: bool = False) -> Baseline | None:
    """The baseline of the directory ``folder`` (None: no save yet); ``hash_all``
    (``--sbc-verify-key``): every save hashed and summarized here from the bytes hashed, no
    number taken from the cache, which anyone who can write the user's cache can edit (the
    rule for caches: :mod:`.baseline_summary`); a cache that differs is rewritten."""
    files = save_files(folder)
    if not files:
        return None
    built = _built_before(folder, files, board, hash_all)
    if built is not None:
        return built
    cache = read_cache(folder)
    if hash_all:  # each save read once: the bytes hashed are the bytes summarized
        summaries = [summarize(*_read_save(p, board)) for p in files]
    else:
        shas = [digest(p, cache) for p in files]
        built = _built_before(folder, files, board)
        if built is not None:
            return built
        summaries = [cache.summaries.get(sha) or summarize(*_read_save(p, board, sha))
                     for p, sha in zip(files, shas, strict=True)]
    owner = board or summaries[0].board
    for p, s in zip(files, summaries, strict=True):
        if s.board != owner:
            raise SchemaError(p, "sbcbench-baseline/1", f"malformed baseline: this is the "
                              f"baseline of board {s.board!r}, not of {owner!r}")
    if any(cache.summaries.get(s.sha256) != s for s in summaries) \
            or any(cache.recorded(p.name) != identity_of(p) for p in files):
        write_cache(folder, files, summaries, identity_of)
    derived = hash_all or not any(s.sha256 in cache.summaries for s in summaries)
    return built_of(Saves(folder, owner, tuple(files), tuple(summaries), derived=derived))


def _built_before(folder: Path, files: Sequence[Path], board: str | None,
                  verified: bool = False) -> Baseline | None:
    """The baseline built in this process from these very saves, if still in use (each
    save's SHA-256 known here for its identity: a stat a save; ``verified``: only SHA-256s
    hashed here, and a baseline whose every summary was made here from those bytes)."""
    shas = []
    for path in files:
        known = _known(path, _identity(os.stat(path)), verified)
        if known is None:
            return None
        shas.append(known)
    ref = _BUILT.get((str(folder), *shas))
    built = ref() if ref is not None else None
    if built is None or (board is not None and built.board != board):
        return None
    return built if not verified or getattr(_SAVES.get(id(built)), "derived", False) else None


def built_of(saves: Saves) -> Baseline:
    """The baseline of ``saves`` (remembered while in use, with the saves it came from)."""
    return _remembered(Baseline(saves.board, tuple(_Merge(saves).entries()), saves.folder),
                       saves)


def _remembered(baseline: Baseline, saves: Saves) -> Baseline:
    shas = tuple(s.sha256 for s in saves.summaries)
    key = (str(saves.folder), *shas)

    def forget(ref: weakref.ref[Baseline]) -> None:
        if _BUILT.get(key) is ref:
            del _BUILT[key]
    _BUILT[key] = weakref.ref(baseline, forget)
    _SAVES[id(baseline)] = saves
    weakref.finalize(baseline, _SAVES.pop, id(baseline), None)
    return baseline


class _Merge:
    """Every save's columns distributed to its entries: a run of saves of one shape (the
    same entries in the same order, one session each: what runs write) is cut into entries by
    strided slices of its columns at once, any other save session by session."""

    def __init__(self, saves: Saves) -> None:
        self.saves = saves
        self.heads: dict[Key, tuple[str, str]] = {}
        self.parts: dict[Key, list[tuple[Any, ...]]] = {}

    def entries(self) -> list[BaselineEntry]:
        summaries = list(self.saves.summaries)
        i = 0
        while i < len(summaries):
            j = i + 1
            if summaries[i].regular:
                while j < len(summaries) and summaries[j].regular \
                        and summaries[j].keys_text == summaries[i].keys_text:
                    j += 1
                self._block(summaries[i:j])
            else:
                self._one(summaries[i])
            i = j
        return [self._entry(key) for key in self.parts]

    def _head(self, key: Key, unit: str, better: str, where: SaveSummary) -> None:
        known = self.heads.setdefault(key, (unit, better))
        if known != (unit, better):
            path = self.saves.files[self.saves.summaries.index(where)]
            raise SchemaError(path, "sbcbench-baseline/1", f"malformed baseline: {key[0]} "
                              f"{key[1]} is {unit}, {better} better here, {known[0]}, "
                              f"{known[1]} better in an earlier save")

    def _block(self, block: Sequence[SaveSummary]) -> None:
        first = block[0]
        k, r = len(first.keys), (first.runs[0] if first.runs else 1)
        means, squares, samples = array("d"), array("d"), array("d")
        for s in block:
            means += s.means
            squares += s.squares
            samples += s.samples
        contexts = [s.contexts[0] for s in block]
        keys = [c.boot_id if c.boot_id is not None else ("session", n)
                for n, c in enumerate(contexts)]
        facts = ContextFacts(contexts)
        for p, (test, metric, unit, better, identity) in enumerate(first.keys):
            key = (test, metric, identity)
            self._head(key, unit, better, first)
            bag = samples[p * r::k * r]
            for j in range(1, r):
                bag += samples[p * r + j::k * r]
            self.parts.setdefault(key, []).append(
                (contexts, bytes(len(block)), means[p::k], squares[p::k], [r] * len(block),
                 bag, keys, facts))

    def _one(self, s: SaveSummary) -> None:
        rows: dict[int, list[int]] = {}
        for i, e in enumerate(s.entry):
            rows.setdefault(e, []).append(i)
        starts = [0]
        for n in s.runs:
            starts.append(starts[-1] + n)
        for e, members in rows.items():
            test, metric, unit, better, identity = s.keys[e]
            key = (test, metric, identity)
            self._head(key, unit, better, s)
            self.parts.setdefault(key, []).append(
                ([s.contexts[s.context[i]] for i in members],
                 bytes(s.status[i] for i in members), [s.means[i] for i in members],
                 [s.squares[i] for i in members], [s.runs[i] for i in members],
                 [v for i in members for v in s.samples[starts[i]:starts[i + 1]]], None, None))

    def _entry(self, key: Key) -> BaselineEntry:
        parts = self.parts[key]
        if len(parts) == 1:
            contexts, status, means, squares, runs, bag, keys, facts = parts[0]
        else:
            joined = [list(chain.from_iterable(p[n] for p in parts)) for n in range(6)]
            contexts, status, means, squares, runs, bag = joined
            status, keys, facts = bytes(status), None, None
        unit, better = self.heads[key]
        return lazy_entry(self.saves, key, unit, better, EntryColumns(
            contexts, status, means, squares, runs, bag, keys, facts))


def lazy_entry(saves: Saves, key: Key, unit: str, better: str, columns: EntryColumns
               ) -> BaselineEntry:
    """A directory's entry: its columns, its sessions read from ``saves`` when asked for."""
    return BaselineEntry(key[0], key[1], unit, better, key[2],
                         LazySessions(len(columns.status), lambda: saves.stored(key)), columns)


def append_save(folder: Path, current: Baseline | None, save: Baseline) -> Baseline:
    """Write ``save`` as the next save of ``folder`` (under the caller's lock); the baseline."""
    before = saves_of(current)
    files = list(before.files) if before else save_files(folder)
    number = int(files[-1].name[:6]) + 1 if files else 1
    path = folder / f"{number:06d}.json"
    folder.mkdir(parents=True, exist_ok=True)
    raw = baseline_text(save).encode("utf-8")
    write_atomic(path, raw)
    summary = summarize(save, _hashed(path, raw))
    summaries = [*(before.summaries if before else ()), summary]
    if before is None and files:  # saves this process did not read: read them all with it
        loaded = load_saves(folder, save.board)
        assert loaded is not None  # a save was just written
        return loaded
    # the cache is not rewritten here (130 MiB at 2,500 x 1,000): the next process to read
    # the directory summarizes this save from its file and writes the cache then
    saves = Saves(folder, save.board, (*files, path), tuple(summaries),
                  derived=before.derived if before is not None else True)
    if current is None or not summary.regular:
        return built_of(saves)
    return _remembered(Baseline(save.board, tuple(_extended(current, saves, summary)),
                                folder), saves)


def _extended(current: Baseline, saves: Saves, summary: SaveSummary) -> list[BaselineEntry]:
    """The entries of ``current`` with the sessions of a regular save (``summary``, the last
    of ``saves``) added: each entry's columns extended, not every save merged again."""
    context = summary.contexts[0]
    added = {(t, m, i): (p, u, b) for p, (t, m, u, b, i) in enumerate(summary.keys)}
    entries = []
    for e in current.entries:
        hit = added.pop(e.key, None)
        columns = e.columns
        if hit is not None:
            p, unit, better = hit
            if (unit, better) != (e.unit, e.better):
                return _Merge(saves).entries()  # says which save differs
            r = summary.runs[p]
            columns = columns.plus(context, summary.status[p], summary.means[p],
                                   summary.squares[p], r, summary.samples[p * r:(p + 1) * r])
        entries.append(lazy_entry(saves, e.key, e.unit, e.better, columns))
    for key, (p, unit, better) in added.items():
        r = summary.runs[p]
        entries.append(lazy_entry(saves, key, unit, better, EntryColumns(
            [context], bytes([summary.status[p]]), [summary.means[p]], [summary.squares[p]],
            [r], list(summary.samples[p * r:(p + 1) * r]))))
    return entries


def rewrite_saves(folder: Path, board: str,
                  change: Callable[[Baseline], Baseline | None]) -> list[Path]:
    """Apply ``change`` to each save of ``folder`` (None: leave it) atomically; those changed."""
    out = []
    for path in save_files(folder):
        changed = change(_read_save(path, board)[0])
        if changed is not None:
            write_atomic(path, baseline_text(Baseline(board, changed.entries, path))
                         .encode("utf-8"))
            out.append(path)
    return out


def without(keys: Callable[[BaselineEntry], bool]) -> Callable[[Baseline], Baseline | None]:
    """A change for :func:`rewrite_saves`: the save without the entries ``keys`` names."""
    def change(save: Baseline) -> Baseline | None:
        kept = tuple(e for e in save.entries if not keys(e))
        return None if len(kept) == len(save.entries) else Baseline(save.board, kept)
    return change


def context_list(baseline: Baseline) -> list[SaveContext]:
    """Every save context of a directory's baseline in order (empty for a single file)."""
    saves = saves_of(baseline)
    return [c for s in saves.summaries for c in s.contexts] if saves else []

