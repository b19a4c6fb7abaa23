"""Per-board baselines: ``<baselines>/<board>.json``, schema ``sbcbench-baseline/1``.

Each entry is one test's metric under one identity, holding one or more sessions (samples, date,
environment).  Sessions stay separate because between-boot spread is real."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SchemaError
from ..model import Identity, Result

BASELINE_SCHEMA = "sbcbench-baseline/1"


@dataclass(frozen=True)
class Session:
    created: str
    samples: tuple[float, ...]
    environment: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    test: str
    metric: str
    unit: str
    better: str
    identity: Identity
    sessions: tuple[Session, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"test": self.test, "metric": self.metric, "unit": self.unit,
                "better": self.better, "identity": self.identity.as_dict(),
                "sessions": [{"created": s.created, "samples": list(s.samples),
                              "environment": dict(s.environment)} for s in self.sessions]}


@dataclass(frozen=True)
class Baseline:
    board: str
    entries: tuple[Entry, ...]
    path: Path | None = None

    def slot(self, test: str, metric: str) -> list[Entry]:
        return [e for e in self.entries if e.test == test and e.metric == metric]

    def as_dict(self) -> dict[str, Any]:
        return {"schema": BASELINE_SCHEMA, "board": self.board,
                "entries": [e.as_dict() for e in self.entries]}


def baseline_path(directory: Path, board: str) -> Path:
    return directory / f"{board}.json"


def _samples(values: Any, where: str) -> tuple[float, ...]:
    if not isinstance(values, list) or not values:
        raise ValueError(f"{where}: samples must be a non-empty list")
    out = tuple(float(v) for v in values)
    if not all(math.isfinite(v) and v > 0 for v in out):
        raise ValueError(f"{where}: samples must be finite positive numbers")
    return out


def _entry(data: Mapping[str, Any], index: int) -> Entry:
    where = f"entry {index}"
    sessions = tuple(
        Session(str(s["created"]), _samples(s["samples"], f"{where} session {j}"),
                dict(s.get("environment", {})))
        for j, s in enumerate(data["sessions"]))
    if not sessions:
        raise ValueError(f"{where}: no sessions")
    if data["better"] not in ("higher", "lower"):
        raise ValueError(f"{where}: better must be 'higher' or 'lower'")
    return Entry(str(data["test"]), str(data["metric"]), str(data["unit"]),
                 str(data["better"]), Identity.from_mapping(data["identity"]), sessions)


def parse_baseline(text: str, source: Path) -> Baseline:
    """Validate a baseline document; every problem is a :class:`SchemaError` naming the file."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SchemaError(source, None, f"corrupt or truncated baseline ({exc})") from exc
    if not isinstance(data, dict):
        raise SchemaError(source, None, "a baseline must be a JSON object")
    if data.get("schema") != BASELINE_SCHEMA:
        raise SchemaError(source, data.get("schema"),
                          f"unknown baseline schema; this sbcbench reads {BASELINE_SCHEMA}")
    try:
        entries = tuple(_entry(e, i) for i, e in enumerate(data["entries"]))
        return Baseline(str(data["board"]), entries, source)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SchemaError(source, BASELINE_SCHEMA, f"malformed baseline: {exc}") from exc


def load_baseline(path: Path) -> Baseline | None:
    """The baseline at ``path``; None when there is none yet."""
    if not path.exists():
        return None
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SchemaError(path, None, f"unreadable baseline: {exc.strerror}") from exc
    return parse_baseline(raw.decode("utf-8", errors="replace"), path)


def with_session(baseline: Baseline | None, board: str, results: Sequence[Result],
                 created: str, environment: Mapping[str, Any]) -> Baseline:
    """A new baseline with this session appended to each result's identity entry."""
    entries = list(baseline.entries) if baseline else []
    for result in results:
        m = result.measurement
        session = Session(created, m.samples, environment)
        for i, entry in enumerate(entries):
            if (entry.test, entry.metric, entry.identity) == (result.test, m.metric, m.identity):
                entries[i] = Entry(entry.test, entry.metric, entry.unit, entry.better,
                                   entry.identity, (*entry.sessions, session))
                break
        else:
            entries.append(Entry(result.test, m.metric, m.unit, m.better, m.identity,
                                 (session,)))
    return Baseline(board, tuple(entries), baseline.path if baseline else None)
