"""The summary of one save of a baseline directory (:mod:`.baseline_saves`), and its cache.

A save file is an ordinary baseline document; its summary is what judging needs of it, per
session: its entry, its save context (created and environment, shared), status, log mean, sum
of squares, runs and samples, in ``array`` columns.  Summaries are derived data, cached in one
file per baselines directory under the user's cache (``$SBCBENCH_SUMMARY_CACHE``, else
``$XDG_CACHE_HOME/sbcbench/baseline-summaries``, else ``~/.cache/...``), each save's part
keyed by the SHA-256 of the save's bytes and used only when that matches; a cache that cannot
be read, or was written by another machine (byte order, item sizes), is rebuilt from the
files, and one that cannot be written is left.

The rule for caches: derived from verified bytes and bound to their digest.  The cache's
numbers are bound to a save's digest only by the cache's own word, and anyone who can write
the user's cache directory can change them, so under ``--sbc-verify-key`` no number is taken
from it: every save is hashed, checked against the signature and summarized from the very
bytes hashed (:func:`.baseline_saves.load_saves`), and a cache that differs is rewritten."""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fileio import read_regular, write_atomic
from ..model import Identity
from .baseline_columns import STATUS_CODES, SaveContext, context_of
from .baseline_model import Baseline
from .boot_test import session_stats

MAGIC = b"sbcbench-summary/1\n"
COLUMNS = (("entry", "I"), ("context", "I"), ("runs", "I"), ("means", "d"),
           ("squares", "d"))
EntryKey = tuple[str, str, str, str, Identity]  # test, metric, unit, better, identity


@dataclass(frozen=True)
class SaveSummary:
    """One save, summarized (see the module's docstring); ``keys_text``: its entry keys as
    canonical JSON (two saves of the same tests share one table)."""

    sha256: str
    board: str
    keys: tuple[EntryKey, ...]
    keys_text: str
    contexts: tuple[SaveContext, ...]
    entry: array[int]
    context: array[int]
    status: bytes
    runs: array[int]
    means: array[float]
    squares: array[float]
    samples: array[float]

    @property
    def regular(self) -> bool:
        """One session per entry in entry order, of one context and one run count, all used:
        the shape every save a run writes has."""
        n = len(self.keys)
        return (len(self.entry) == n and len(self.contexts) == 1
                and self.entry == array("I", range(n)) and self.status.count(0) == n
                and (n == 0 or self.runs.count(self.runs[0]) == n))


_TEXTS: dict[tuple[EntryKey, ...], str] = {}  # the last key tables written out


def _keys_text(keys: tuple[EntryKey, ...]) -> str:
    """The canonical JSON of a key table (remembered: the saves of one suite share one)."""
    text = _TEXTS.get(keys)
    if text is None:
        text = json.dumps([[t, m, u, b, i.as_dict()] for t, m, u, b, i in keys],
                          sort_keys=True)
        _TEXTS.clear()
        _TEXTS[keys] = text
    return text


def summarize(save: Baseline, sha256: str) -> SaveSummary:
    """The summary of a save read whole (or just built by a run's save)."""
    keys: list[EntryKey] = []
    seen: dict[tuple[str, str], int] = {}
    contexts: list[SaveContext] = []
    cols: dict[str, array[Any]] = {name: array(code) for name, code in COLUMNS}
    status, samples = bytearray(), array("d")
    last: tuple[str, Any, int] | None = None  # the previous session's context
    for e in save.entries:
        keys.append((e.test, e.metric, e.unit, e.better, e.identity))
        for s in e.stored:
            if last is None or last[0] != s.created or last[1] != s.environment:
                where = (s.created, json.dumps(s.environment, sort_keys=True))
                if where not in seen:
                    seen[where] = len(contexts)
                    contexts.append(context_of(s.created, s.environment))
                last = (s.created, s.environment, seen[where])
            mean, square, runs = session_stats(s.samples)
            cols["entry"].append(len(keys) - 1)
            cols["context"].append(last[2])
            cols["runs"].append(runs)
            cols["means"].append(mean)
            cols["squares"].append(square)
            status.append(STATUS_CODES[s.status])
            samples.extend(s.samples)
    table = tuple(keys)
    return SaveSummary(sha256, save.board, table, _keys_text(table), tuple(contexts),
                       cols["entry"], cols["context"], bytes(status), cols["runs"],
                       cols["means"], cols["squares"], samples)


def cache_file(folder: Path) -> Path:
    """Where the summaries of the baseline directory ``folder`` are cached."""
    root = os.environ.get("SBCBENCH_SUMMARY_CACHE")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        root = os.path.join(base, "sbcbench", "baseline-summaries")
    name = hashlib.sha256(os.fsencode(os.path.realpath(folder))).hexdigest()[:32]
    return Path(root) / f"{name}.summary"


def _layout() -> dict[str, Any]:
    return {"byteorder": sys.byteorder,
            "itemsizes": {code: array(code).itemsize for _, code in COLUMNS}}


FileIdentity = tuple[int, int, int]  # a file's inode, size and modification time (ns)
RACY_NS = 2_000_000_000  # a file modified this close to the cache's writing is hashed again


@dataclass(frozen=True)
class Cached:
    """A directory's summary cache as read: the summaries by SHA-256, and each save's
    identity and SHA-256 when the cache was written (by name)."""

    summaries: dict[str, SaveSummary]
    files: dict[str, tuple[FileIdentity, str]]
    written_ns: int

    def sha_of(self, name: str, identity: FileIdentity) -> str | None:
        """The SHA-256 recorded for save ``name`` if it still has that identity and was last
        modified well before the cache was written (git's racy-clean rule: a file changed in
        the same instant could keep its size and time), else None (hash it)."""
        known = self.files.get(name)
        if known is None or known[0] != identity or identity[2] >= self.written_ns - RACY_NS:
            return None
        return known[1] if known[1] in self.summaries else None

    def recorded(self, name: str) -> FileIdentity | None:
        """The identity save ``name`` had when the cache was written (None: not in it)."""
        known = self.files.get(name)
        return known[0] if known is not None else None


NOTHING = Cached({}, {}, 0)


def write_cache(folder: Path, files: Sequence[Path], summaries: Sequence[SaveSummary],
                identity: Callable[[Path], FileIdentity | None]) -> bool:
    """Cache ``summaries`` (of ``files``, every save of ``folder``, in order, with the
    identity each was hashed at); False when it could not be written (the next read
    summarizes the files again)."""
    tables: dict[str, int] = {}
    saves = []
    for path, s in zip(files, summaries, strict=True):
        table = tables.setdefault(s.keys_text, len(tables))
        saves.append({"name": path.name, "stat": identity(path), "sha256": s.sha256,
                      "board": s.board, "keys": table,
                      "contexts": [[c.created, c.environment] for c in s.contexts],
                      "sessions": len(s.entry), "samples": len(s.samples)})
    header = json.dumps({**_layout(), "written_ns": time.time_ns(), "tables": list(tables),
                         "saves": saves}).encode()
    parts = [MAGIC, struct.pack("<Q", len(header)), header]
    for name, _ in COLUMNS:
        parts += [getattr(s, name).tobytes() for s in summaries]
    parts += [s.status for s in summaries]
    parts += [s.samples.tobytes() for s in summaries]
    try:
        path = cache_file(folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, b"".join(parts))
    except (OSError, ValueError):
        return False
    return True


def read_cache(folder: Path) -> Cached:
    """The cached summaries of ``folder`` (nothing when there is no usable cache)."""
    try:
        raw = read_regular(cache_file(folder), 1 << 40)
        return _decoded(memoryview(raw))
    except (OSError, ValueError, KeyError, TypeError, IndexError, struct.error):
        return NOTHING


def _decoded(raw: memoryview) -> Cached:
    if bytes(raw[:len(MAGIC)]) != MAGIC:
        raise ValueError("not a summary cache")
    at = len(MAGIC) + 8
    (size,) = struct.unpack("<Q", raw[len(MAGIC):at])
    header = json.loads(bytes(raw[at:at + size]))
    if {k: header[k] for k in _layout()} != _layout():
        raise ValueError("written by another machine")
    at += size
    tables = [tuple((t, m, u, b, Identity.from_mapping(i)) for t, m, u, b, i in json.loads(x))
              for x in header["tables"]]
    saves = header["saves"]
    cols: dict[str, list[array[Any]]] = {}
    for name, code in [*COLUMNS, ("status", "B"), ("samples", "d")]:
        cols[name] = []
        for s in saves:
            n = s["samples"] if name == "samples" else s["sessions"]
            column = array(code)
            end = at + n * column.itemsize
            if end > len(raw):
                raise ValueError("truncated")
            column.frombytes(raw[at:end])
            cols[name].append(column)
            at = end
    if at != len(raw):
        raise ValueError("trailing bytes")
    summaries = {s["sha256"]: _checked(s, tables[s["keys"]], header["tables"][s["keys"]],
                                       {k: v[i] for k, v in cols.items()})
                 for i, s in enumerate(saves)}
    files = {str(s["name"]): (tuple(map(int, s["stat"])), str(s["sha256"])) for s in saves
             if isinstance(s.get("stat"), list) and len(s["stat"]) == 3}
    stats = {name: ((int(i[0]), int(i[1]), int(i[2])), sha) for name, (i, sha) in files.items()}
    return Cached(summaries, stats, int(header["written_ns"]))


def _checked(save: dict[str, Any], keys: tuple[EntryKey, ...], keys_text: str,
             cols: dict[str, array[Any]]) -> SaveSummary:
    """One save's part of the cache, refused (ValueError) unless its columns fit together."""
    contexts = tuple(context_of(str(c), dict(e)) for c, e in save["contexts"])
    entry, context, runs = cols["entry"], cols["context"], cols["runs"]
    if len(entry) and (max(entry) >= len(keys) or max(context) >= len(contexts)
                       or min(runs) < 1 or sum(runs) != len(cols["samples"])
                       or max(cols["status"]) > 2):
        raise ValueError("inconsistent")
    if not math.isfinite(sum(cols["means"]) + sum(cols["squares"]) + sum(cols["samples"])):
        raise ValueError("not finite")
    return SaveSummary(str(save["sha256"]), str(save["board"]), keys, keys_text, contexts,
                       entry, context, bytes(cols["status"]), runs, cols["means"],
                       cols["squares"], cols["samples"])
