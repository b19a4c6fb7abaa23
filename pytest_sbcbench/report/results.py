"""The results JSON of DESIGN section 4 (schema ``sbcbench-results/1``)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import cryptography

from ..errors import BoardError, SchemaError
from ..fileio import write_json_atomic as write_json_atomic
from ..jsonload import read_bytes, strict_json
from ..judge.baseline import identity_of
from ..judge.stats import summarize
from ..measure import openssl
from ..model import Measurement, Result, Status, Verdict
from ..platform.board import check_board_name
from ..platform.environment import environment

if TYPE_CHECKING:
    from ..state import RunState

RESULTS_SCHEMA = "sbcbench-results/1"
STATUSES: tuple[str, ...] = get_args(Status)


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


@dataclass(frozen=True)
class ResultsFile:
    board: str
    environment: dict[str, Any]
    results: list[Result]


def load_results(path: Path) -> ResultsFile:
    """Read a results file back into results; a broken file is a :class:`SchemaError` naming it.

    Types and ranges are checked (samples are finite positive numbers, not strings or
    booleans; the board is a valid board name, since it becomes part of file names)."""
    data = strict_json(read_bytes(path, "results file"), path, "results file")
    if not isinstance(data, dict) or data.get("schema") != RESULTS_SCHEMA:
        version = data.get("schema") if isinstance(data, dict) else None
        raise SchemaError(path, version, f"not a results file; expected {RESULTS_SCHEMA}")
    try:
        environment = data.get("environment") or {}
        if not isinstance(environment, dict) or not isinstance(data["results"], list):
            raise ValueError("environment must be an object and results a list")
        return ResultsFile(check_board_name(data["board"]), environment,
                           [_result(r, i) for i, r in enumerate(data["results"])])
    except (KeyError, TypeError, ValueError, BoardError) as exc:
        raise SchemaError(path, RESULTS_SCHEMA, f"malformed result: {exc}") from exc


def _label(data: dict[str, Any], metric: str) -> str:
    """The label as written; files written before labels were stored get the one rule that
    existed then (``metric op`` for sign/verify rates, else the metric)."""
    if "label" in data:
        if not isinstance(data["label"], str):
            raise ValueError(f"{data['test']}: label must be a string, not {data['label']!r}")
        return data["label"]
    if "op" in data["identity"]:
        return f"{metric} {data['identity']['op']}"
    return metric


def _details(data: dict[str, Any]) -> dict[str, Any]:
    details = data.get("details", {})
    if not isinstance(details, dict):
        raise ValueError(f"{data['test']}: details must be an object, not {details!r}")
    return details


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where}: {value!r} is not a non-empty string")
    return value


def _samples(values: Any, where: str) -> tuple[float, ...]:
    if not isinstance(values, list) or not values:
        raise ValueError(f"{where}: samples must be a non-empty list")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ValueError(f"{where}: samples must be numbers, not {values!r}")
    samples = tuple(float(v) for v in values)
    if not all(math.isfinite(v) and v > 0 for v in samples):
        raise ValueError(f"{where}: samples must be finite positive numbers")
    return samples


def _result(data: Any, index: int) -> Result:
    if not isinstance(data, dict):
        raise ValueError(f"result {index}: must be an object")
    test = _text(data["test"], f"result {index} test")
    samples = _samples(data["samples"], test)
    metric, unit = _text(data["metric"], f"{test} metric"), _text(data["unit"], f"{test} unit")
    if data["better"] not in ("higher", "lower"):
        raise ValueError(f"{test}: better must be 'higher' or 'lower'")
    identity = identity_of(data["identity"], test)
    m = Measurement(metric, unit, data["better"], identity, samples,
                    label=_label(data, metric), details=_details(data))
    verdict = data.get("verdict", {})
    telemetry = data.get("telemetry", {})
    if not isinstance(verdict, dict) or not isinstance(telemetry, dict):
        raise ValueError(f"{test}: verdict and telemetry must be objects")
    status = verdict.get("status", "no-baseline")
    if status not in STATUSES:
        raise ValueError(f"{test}: unknown verdict {status!r}")
    return Result(test, m, summarize(samples), Verdict(status, str(verdict.get("detail", ""))),
                  telemetry)
