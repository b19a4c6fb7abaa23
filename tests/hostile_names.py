"""A history whose every name is hostile, written through the store's own API where a run could
write it (a board, labels, metrics and test ids of any text) and by a raw insert where only
another writer could (board names that are no board names, a triage state no command writes):
for the tests of names that come back from a store, and the hostile replay."""

from __future__ import annotations

import random
from typing import Any

from pytest_sbcbench.judge import history
from pytest_sbcbench.judge.history_db import writing

MARK = "document.documentElement.dataset.pwned"
BOARD = "star64"
STEP_AT = 8  # the first bad label (1-based): a 5% step from it on of the hostile metric
LABELS = (
    "../../x",
    "javascript:" + MARK + "='href'",
    "<img src=x onerror=\"" + MARK + "='img'\">",
    "a/b\\c",
    "\x1b[2J\x1b]0;pwned\x07bell",
    "\u202eevil\u202c rtl",
    "'><svg onload=" + MARK + "='svg'>",
    'x"><script>' + MARK + '="label"</script>',  # the first bad label: in the incident's id
    "L" * 5000,
    "ядро 6.12 🐧",
    "</title><script>" + MARK + "='title'</script>",
    "]]>&amp;<!--",
)
METRICS = ("sha256", 'm"><script>' + MARK + '="metric"</script>\x1b[31m')
INVALID_BOARDS = (
    "../../pwned", "../../../pwned-far", "star64/../../pwned-too", "a/b", "a\\b", "..", ".",
    "", 'x"><script>' + MARK + '="board"</script>', "javascript:alert(1)", "\x1b[31mred",
    "Star64", "b" * 5000, "ядро",
)
STATE = 'x" onmouseover="' + MARK + "='state'"  # a triage state no command writes


def _doc(board: str, created: str, boot: str, kernel: str, slower: bool,
         rng: random.Random) -> dict[str, Any]:
    results = []
    for metric in METRICS:
        step = 0.95 if slower and metric == METRICS[1] else 1.0
        offset = 1 + rng.gauss(0, 0.003)
        results.append({
            "test": f"benchmarks/test_x.py::test_y[{metric}]", "metric": metric, "unit": "B/s",
            "identity": {"tool": "openssl", "algorithm": metric},
            "samples": [1e9 * step * offset * (1 + rng.gauss(0, 0.005)) for _ in range(3)],
            "telemetry": {"findings": []}, "verdict": {"status": "pass", "detail": "d"}})
    return {"schema": "sbcbench-results/1", "board": board, "created": created,
            "environment": {"kernel": kernel, "boot_id": boot}, "results": results}


def build(where: history.Location, boots: int = 3, seed: int = 41) -> None:
    """:data:`LABELS` on :data:`BOARD` (``boots`` boots each), a step at :data:`STEP_AT`, an
    acknowledged incident and a raw triage row of state :data:`STATE`, and one session under
    each of :data:`INVALID_BOARDS` (inserted raw: the store's writer refuses them)."""
    rng = random.Random(seed)
    for j, label in enumerate(LABELS, 1):
        for b in range(1, boots + 1):
            created = f"2026-12-01T{j:02d}:{b:02d}:00+00:00"
            history.append(where, _doc(BOARD, created, f"boot-{j}-{b}", f"6.12.{j}",
                                       j >= STEP_AT, rng), "candidate", label)
    incident = f"{BOARD}@{LABELS[STEP_AT - 1]}"
    history.append_triage(where, incident, "acknowledged", "a note <b>bold</b>\x1b[31m")
    with writing(where) as db:
        db.execute("INSERT INTO incident_triage (incident_id, state, note, at, \"by\") VALUES "
                   "(?, ?, ?, ?, ?)", (incident, STATE, "n", "2026-12-02T00:00:00+00:00",
                                       "<script>"))
        for n, board in enumerate(INVALID_BOARDS):
            doc = _doc(board, f"2026-12-03T00:{n:02d}:00+00:00", f"bad-{n}", "6.12.1", False,
                       rng)
            cursor = db.execute(
                "INSERT INTO sessions (created, board, role, label, kernel_release, boot_id, "
                "interrupted, environment) VALUES (?, ?, 'candidate', ?, '6.12.1', ?, 0, '{}')",
                (doc["created"], board, LABELS[n % len(LABELS)], f"bad-{n}"))
            session = int(cursor.lastrowid or 0)
            for r in doc["results"]:
                db.execute("INSERT INTO results VALUES (?, ?, ?, ?, '{}', ?, '{}', 'pass', '')",
                           (session, r["test"], r["metric"], r["unit"],
                            "[" + ", ".join(map(str, r["samples"])) + "]"))
