"""The results JSON written by ``--sbc-results`` (schema ``sbcbench-results/1``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from ..errors import BoardError, SchemaError, schema_field
from ..fileio import write_json_atomic as write_json_atomic
from ..jsonload import read_bytes, strict_json
from ..judge.baseline import identity_of, plausible, samples_field, text_field
from ..judge.stats import summarize
from ..model import Evidence, Measurement, Result, Status, Verdict
from ..platform.board import check_board_name

RESULTS_SCHEMA = "sbcbench-results/1"
STATUSES: tuple[str, ...] = get_args(Status)
# numbers in details and telemetry that a judge reads back (the physics gate, the fleet
# report): a limit must be a finite number above 0, a sampled clock finite and not negative
LIMIT_FIELDS = ("interface_limit_bytes_per_s",)
CLOCK_KEYS = ("min", "median", "max")


def document(board: str, created: str, environment: dict[str, Any],
             results: Sequence[Result], interrupted: bool = False) -> dict[str, Any]:
    """The whole results document of one run (plain data in).  ``interrupted`` (Ctrl-C, or
    pytest's exit status INTERRUPTED): the results are only those measured before it."""
    return {
        "schema": RESULTS_SCHEMA,
        "board": board,
        "created": created,
        "interrupted": interrupted,
        "environment": environment,
        "results": [r.as_dict() for r in results],
    }


INTERRUPTED_NOTE = "is from an interrupted run: the workloads after the interruption are missing"


@dataclass(frozen=True)
class ResultsFile:
    board: str
    environment: dict[str, Any]
    results: list[Result]
    created: str = ""
    interrupted: bool = False


def load_results(path: Path) -> ResultsFile:
    """Read a results file back into results; a broken file is a :class:`SchemaError` naming it.

    Types and ranges are checked (samples are finite positive numbers, not strings or
    booleans; the board is a valid board name, since it becomes part of file names)."""
    data = strict_json(read_bytes(path, "results file"), path, "results file")
    if not isinstance(data, dict) or data.get("schema") != RESULTS_SCHEMA:
        raise SchemaError(path, schema_field(data), f"not a results file; expected "
                                                    f"{RESULTS_SCHEMA}")
    return results_document(data, path)


def results_document(data: dict[str, Any], path: Path) -> ResultsFile:
    """A parsed results document (its schema already checked) as a :class:`ResultsFile`."""
    try:
        environment = data.get("environment") or {}
        if not isinstance(environment, dict) or not isinstance(data["results"], list):
            raise ValueError("environment must be an object and results a list")
        created = data.get("created", "")
        if not isinstance(created, str):
            raise ValueError(f"created must be a string, not {created!r}")
        interrupted = data.get("interrupted", False)  # absent in files written before it
        if not isinstance(interrupted, bool):
            raise ValueError(f"interrupted must be true or false, not {interrupted!r}")
        return ResultsFile(check_board_name(data["board"]), environment,
                           [_result(r, i) for i, r in enumerate(data["results"])], created,
                           interrupted)
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


def _result(data: Any, index: int) -> Result:
    if not isinstance(data, dict):
        raise ValueError(f"result {index}: must be an object")
    test = text_field(data["test"], f"result {index} test")
    samples = samples_field(data["samples"], test)
    metric = text_field(data["metric"], f"{test} metric")
    unit = text_field(data["unit"], f"{test} unit")
    plausible(samples, f"{test} {metric}", unit)  # a 1e29 B/s sample is no result either
    if data["better"] not in ("higher", "lower"):
        raise ValueError(f"{test}: better must be 'higher' or 'lower'")
    identity = identity_of(data["identity"], test)
    m = Measurement(metric, unit, data["better"], identity, samples,
                    label=_label(data, metric), details=_details(data))
    verdict = data.get("verdict", {})
    telemetry = data.get("telemetry", {})
    if not isinstance(verdict, dict) or not isinstance(telemetry, dict):
        raise ValueError(f"{test}: verdict and telemetry must be objects")
    _check_numbers(test, m.details, telemetry)
    status = verdict.get("status", "no-baseline")
    if status not in STATUSES:
        raise ValueError(f"{test}: unknown verdict {status!r}")
    return Result(test, m, summarize(samples),
                  Verdict(status, str(verdict.get("detail", "")), _evidence(verdict, test)),
                  telemetry)


def _finite(value: Any, where: str, *, zero_ok: bool) -> None:
    """``value`` is null (absent) or a finite number above 0 (or 0 with ``zero_ok``)."""
    if value is None:
        return
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not (number and math.isfinite(value) and (value > 0 or (zero_ok and value == 0))):
        raise ValueError(f"{where} must be a finite number {'>= 0' if zero_ok else 'above 0'}, "
                         f"not {value!r}")


def _check_numbers(test: str, details: Mapping[str, Any], telemetry: Mapping[str, Any]) -> None:
    """The known numeric fields a judge reads back; a string, a list, NaN or a negative
    ceiling would otherwise crash the physics gate or print a negative limit."""
    for block, name in ((details, "details"), (telemetry, "telemetry")):
        for field in LIMIT_FIELDS:
            _finite(block.get(field), f"{test}: {name} {field}", zero_ok=False)
    clock = telemetry.get("clock_mhz")
    if clock is None:
        return
    if not isinstance(clock, dict):
        raise ValueError(f"{test}: telemetry clock_mhz must be an object, not {clock!r}")
    for key in CLOCK_KEYS:
        _finite(clock.get(key), f"{test}: telemetry clock_mhz {key}", zero_ok=True)


def _number(data: dict[str, Any], key: str, where: str, optional: bool = True
            ) -> float | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where}: verdict {key} must be a finite number, not {value!r}")
    return float(value)


def _count(data: dict[str, Any], key: str, where: str, optional: bool = True) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}: verdict {key} must be a whole number, not {value!r}")
    return value


def _evidence(verdict: dict[str, Any], where: str) -> Evidence | None:
    """A verdict's evidence (change, interval, tolerance, samples, boots) when it has one:
    files written before verdicts carried evidence have none."""
    if "change_pct" not in verdict:
        return None
    ci = verdict.get("ci_pct")
    if not isinstance(ci, list) or len(ci) != 2:
        raise ValueError(f"{where}: verdict ci_pct must be a pair, not {ci!r}")
    bounds = {"low": ci[0], "high": ci[1]}
    low, high = _number(bounds, "low", where), _number(bounds, "high", where)
    required = [_number(verdict, k, where, optional=False)
                for k in ("change_pct", "confidence_pct", "min_effect_pct")]
    counts = [_count(verdict, k, where, optional=False)
              for k in ("samples", "baseline_samples", "baseline_boots")]
    change, confidence, effect = (float(v or 0.0) for v in required)
    samples, base_samples, boots = (int(v or 0) for v in counts)
    return Evidence(
        change_pct=change, ci_pct=(low, high), confidence_pct=confidence,
        tolerance_pct=_number(verdict, "tolerance_pct", where),
        detectable_pct=_number(verdict, "detectable_pct", where), min_effect_pct=effect,
        samples=samples, baseline_samples=base_samples, baseline_boots=boots,
        runs_needed=_count(verdict, "runs_needed", where),
        boots_needed=_count(verdict, "boots_needed", where),
        candidate_boots=_count(verdict, "candidate_boots", where) or 1,
        candidate_boots_needed=_count(verdict, "candidate_boots_needed", where),
        catch95_pct=_number(verdict, "catch95_pct", where),
        p_value=_number(verdict, "p_value", where), df=_number(verdict, "df", where),
        pending=verdict.get("pending") is True,
        baseline_median=_number(verdict, "baseline_median", where))
