"""The results JSON of DESIGN section 4 (schema ``sbcbench-results/1``)."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cryptography

from ..errors import SchemaError
from ..judge.stats import summarize
from ..measure import openssl
from ..model import Identity, Measurement, Result, Verdict
from ..platform.environment import environment

if TYPE_CHECKING:
    from ..state import RunState

RESULTS_SCHEMA = "sbcbench-results/1"


def _openssl_version(state: RunState) -> str | None:
    if "openssl" in state.tools:
        return state.tools["openssl"]
    path = openssl.find_openssl()
    if path is None:
        return None
    try:
        return openssl.openssl_tool(path).version
    except Exception:  # the environment block is informative; the tests report tool errors
        return None


def document(state: RunState) -> dict[str, Any]:
    """The whole results document for this session."""
    env = environment(state.settings.sysroot, state.probe,
                      openssl=_openssl_version(state), cryptography=cryptography.__version__)
    env["governors"] = dict(state.governor.recorded) if state.governor else {}
    env["system_checks"] = state.system_checks.as_dict() if state.system_checks else None
    env["real_clock"] = {when: [dataclasses.asdict(r) for r in readings]
                         for when, readings in state.real_clock.items()}
    env["not_sampled"] = dict(state.unavailable)
    env["session_findings"] = [f.as_dict() for f in state.session_findings]
    return {
        "schema": RESULTS_SCHEMA,
        "board": state.board.name,
        "created": state.created,
        "environment": env,
        "results": [r.as_dict() for r in state.results],
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


def _label(data: dict[str, Any]) -> str:
    """The label as written; files written before labels were stored get the one rule that
    existed then (``metric op`` for sign/verify rates, else the metric)."""
    if "label" in data:
        return str(data["label"])
    if "op" in data["identity"]:
        return f"{data['metric']} {data['identity']['op']}"
    return str(data["metric"])


def _details(data: dict[str, Any]) -> dict[str, Any]:
    details = data.get("details", {})
    if not isinstance(details, dict):
        raise ValueError(f"{data['test']}: details must be an object, not {details!r}")
    return details


def _result(data: dict[str, Any]) -> Result:
    """One result as written by :meth:`Result.as_dict`: every field read back (the summary is
    recomputed from the samples, so an edited summary cannot disagree with them)."""
    samples = tuple(float(v) for v in data["samples"])
    if not samples:
        raise ValueError(f"{data['test']}: no samples")
    m = Measurement(str(data["metric"]), str(data["unit"]), data["better"],
                    Identity.from_mapping(data["identity"]), samples, label=_label(data),
                    details=_details(data))
    verdict = data.get("verdict", {})
    return Result(str(data["test"]), m, summarize(samples),
                  Verdict(verdict.get("status", "no-baseline"), verdict.get("detail", "")),
                  data.get("telemetry", {}))
