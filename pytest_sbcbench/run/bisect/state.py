"""What survives a Ctrl-C or a lost board: one JSON file in the bisect's state directory.

``state.json`` holds the bisect's arguments, every boot measured so far (per commit, in order:
each metric's samples and boot id), the commits whose build said skip (exit 125), the commit
installed last and the wall time spent.  ``--resume`` runs the procedure again from the start:
git bisect replays its steps, the recorded boots are served in their order, and the first boot
not recorded is measured for real, so a resumed bisect reaches the decisions the uninterrupted
one would have reached on the same boots.  The file is rewritten atomically after every boot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import SbcBenchError
from ...fileio import write_json_atomic
from ...jsonload import read_bytes, strict_json
from ...judge.boot_test import BootSession
from .procedure import Boot

SCHEMA = "sbcbench-bisect-state/1"
FILE = "state.json"


class StateError(SbcBenchError):
    """No state to resume, or one this version cannot read (path in the message)."""


@dataclass
class State:
    directory: Path
    args: dict[str, Any]
    boots: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    skips: dict[str, str] = field(default_factory=dict)
    installed: str | None = None
    wall_s: float = 0.0
    runs: int = 0
    status: str = "running"
    result: dict[str, Any] | None = None

    @property
    def path(self) -> Path:
        return self.directory / FILE

    def save(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.path, {
            "schema": SCHEMA, "args": self.args, "boots": self.boots, "skips": self.skips,
            "installed": self.installed, "wall_s": round(self.wall_s, 3), "runs": self.runs,
            "status": self.status, "result": self.result})

    def recorded(self, commit: str) -> list[Boot]:
        return [boot_of(b) for b in self.boots.get(commit, [])]

    def record(self, commit: str, boot: Boot, results: str) -> None:
        self.boots.setdefault(commit, []).append({
            "results": results, "better": dict(boot.better),
            "sessions": {k: {"samples": list(s.samples), "boot_id": s.boot_id}
                         for k, s in boot.sessions.items()}})
        self.save()

    @property
    def boots_spent(self) -> int:
        return sum(len(v) for v in self.boots.values())


def boot_of(entry: dict[str, Any]) -> Boot:
    sessions = {k: BootSession(tuple(float(x) for x in s["samples"]), s.get("boot_id"))
                for k, s in entry["sessions"].items()}
    return Boot(sessions, dict(entry["better"]))


def load(directory: Path) -> State:
    path = directory / FILE
    if not path.is_file():
        raise StateError(f"no bisect to resume: {path} does not exist")
    doc = strict_json(read_bytes(path, "bisect state"), path, "bisect state")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise StateError(f"{path}: not a {SCHEMA} file")
    return State(directory, dict(doc["args"]), dict(doc.get("boots") or {}),
                 dict(doc.get("skips") or {}), doc.get("installed"),
                 float(doc.get("wall_s") or 0.0), int(doc.get("runs") or 0),
                 str(doc.get("status") or "running"), doc.get("result"))
