"""The results JSON of DESIGN section 4 (schema ``sbcbench-results/1``)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SchemaError
from ..judge.stats import summarize
from ..model import Identity, Measurement, Result, Verdict

RESULTS_SCHEMA = "sbcbench-results/1"


def document(board: str, created: str, environment: dict[str, Any],
             results: Sequence[Result]) -> dict[str, Any]:
    """The whole results document of one run (plain data in)."""
    return {
        "schema": RESULTS_SCHEMA,
        "board": board,
        "created": created,
        "environment": environment,
        "results": [r.as_dict() for r in results],
    }


def write_json_atomic(path: Path, data: Any) -> None:
    """Write to a temporary file in the same directory, fsync, rename: never half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class ResultsFile:
    board: str
    environment: dict[str, Any]
    results: list[Result]


def load_results(path: Path) -> ResultsFile:
    """Read a results file back into results; a broken file is a :class:`SchemaError`."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaError(path, None, f"unreadable results file: {exc}") from exc
    if not isinstance(data, dict) or data.get("schema") != RESULTS_SCHEMA:
        version = data.get("schema") if isinstance(data, dict) else None
        raise SchemaError(path, version, f"not a results file; expected {RESULTS_SCHEMA}")
    try:
        return ResultsFile(str(data["board"]), dict(data.get("environment") or {}),
                           [_result(r) for r in data["results"]])
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(path, RESULTS_SCHEMA, f"malformed result: {exc}") from exc


def _result(data: dict[str, Any]) -> Result:
    samples = tuple(float(v) for v in data["samples"])
    if not samples:
        raise ValueError(f"{data['test']}: no samples")
    label = data["metric"]
    if "op" in data["identity"]:
        label = f"{data['metric']} {data['identity']['op']}"
    m = Measurement(str(data["metric"]), str(data["unit"]), data["better"],
                    Identity.from_mapping(data["identity"]), samples, label=label)
    verdict = data.get("verdict", {})
    return Result(str(data["test"]), m, summarize(samples),
                  Verdict(verdict.get("status", "no-baseline"), verdict.get("detail", "")),
                  data.get("telemetry", {}))
