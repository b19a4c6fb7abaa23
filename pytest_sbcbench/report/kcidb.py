"""``sbcbench export kcidb``: the history as KCIDB JSON (the KernelCI results database's I/O
schema, checked with the ``kcidb-io`` package), so that a lab can feed KernelCI.

The mapping: a label (one kernel as booted) is a *checkout* (its commit as ``git_commit_hash``
when the history knows all 40 digits); a board running a label is a *build* of that checkout
(what was booted in its ``misc``); every result of every session is a *test* of that build,
its path ``sbcbench.<metric>``, its number the mean of its samples with their unit, its status
from the verdict (regression: ``FAIL``; pass, improvement: ``PASS``; implausible, invalid:
``ERROR``; anything else measured: ``DONE``) and the board, boot and samples in its
environment and ``misc``.  Ids are ``sbcbench:`` and a stable name: a session's is its merge
identity (:mod:`..judge.history_merge`), so exporting the same session twice gives one id.  A
session under a name that is no board name is left out (:mod:`..judge.stored_names`)."""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from ..errors import SbcBenchError
from ..judge import history_merge
from ..judge.history_url import Location
from ..judge.stored_names import valid_board

ORIGIN = "sbcbench"
EXTRA = "pip install 'pytest-sbcbench[kcidb]'"
STATUS = {"regression": "FAIL", "pass": "PASS", "improvement": "PASS", "implausible": "ERROR",
          "invalid": "ERROR"}
_COLUMNS = {c: i for i, c in enumerate(history_merge.SESSION_COLUMNS)}
_SHA1 = re.compile(r"^[0-9a-f]{40}$")
_PATH_PART = re.compile(r"[^a-zA-Z0-9_-]+")
_COMPATIBLE = re.compile(r"^[^ \0]+(,[^ \0]+)*$")


def _id(*parts: str) -> str:
    return f"{ORIGIN}:" + hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _time(text: str) -> str | None:
    try:
        when = _dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return when.isoformat() if when.tzinfo is not None else None


def _path(metric: str) -> str:
    return f"{ORIGIN}.{_PATH_PART.sub('_', metric).strip('_') or 'metric'}"


def _clean(text: Any) -> Any:
    return text.replace("\0", "\\0") if isinstance(text, str) else text


def document(where: Location) -> dict[str, Any]:
    """The KCIDB document (schema 5.3) of every session in the history at ``where``."""
    sessions, _ = history_merge.read(where)
    checkouts: dict[str, dict[str, Any]] = {}
    builds: dict[str, dict[str, Any]] = {}
    tests: list[dict[str, Any]] = []
    for session in sessions:
        if not valid_board(session.board):
            continue
        value = dict(zip(history_merge.SESSION_COLUMNS, map(_clean, session.values),
                         strict=True))
        label = str(value["label"] or value["kernel_release"] or "unlabelled")
        commit = value["kernel_commit"] or ""
        checkout = _id("checkout", label, commit)
        checkouts.setdefault(checkout, _checkout(checkout, label, commit, value))
        build = _id("build", str(value["board"]), label)
        builds.setdefault(build, _build(build, checkout, value))
        session_id = session.identity[:24]
        for n, row in enumerate(session.results):
            tests.append(_test(f"{ORIGIN}:{session_id}:{n}", build, value, row))
    return {"version": {"major": 5, "minor": 3}, "checkouts": list(checkouts.values()),
            "builds": list(builds.values()), "tests": tests}


def _checkout(checkout: str, label: str, commit: str, value: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": checkout, "origin": ORIGIN, "comment": f"label {label}",
                           "misc": {"label": label, "kernel_release": value["kernel_release"],
                                    "kernel_commit": commit or None}}
    if _SHA1.match(commit):
        out["git_commit_hash"] = commit
    return out


def _build(build: str, checkout: str, value: dict[str, Any]) -> dict[str, Any]:
    keys = ("board", "role", "kernel_release", "kernel_image", "image_sha256", "cmdline",
            "cpus_online", "dt_model", "dt_compatible")
    out = {"id": build, "checkout_id": checkout, "origin": ORIGIN,
           "comment": f"{value['board']} running {value['label'] or value['kernel_release']}",
           "misc": {k: value[k] for k in keys}}
    start = _time(str(value["created"]))
    if start is not None:
        out["start_time"] = start
    return out


def _test(test: str, build: str, value: dict[str, Any], row: Sequence[Any]) -> dict[str, Any]:
    name, metric, unit, identity, samples, _, status, detail = map(_clean, row)
    numbers = [float(v) for v in json.loads(samples)]
    environment: dict[str, Any] = {"comment": str(value["board"]),
                                   "misc": {"boot_id": value["boot_id"],
                                            "cmdline": value["cmdline"]}}
    compatible = [c for c in str(value["dt_compatible"] or "").split()
                  if _COMPATIBLE.match(c)]
    if compatible:
        environment["compatible"] = compatible
    out: dict[str, Any] = {
        "id": test, "build_id": build, "origin": ORIGIN, "path": _path(str(metric)),
        "comment": str(name), "environment": environment,
        "status": STATUS.get(str(status), "DONE" if numbers else "MISS"),
        "misc": {"test": name, "metric": metric, "identity": json.loads(identity),
                 "samples": numbers, "verdict": status, "detail": detail,
                 "label": value["label"], "role": value["role"]}}
    if numbers:
        out["number"] = {"value": sum(numbers) / len(numbers), "unit": str(unit)}
    start = _time(str(value["created"]))
    if start is not None:
        out["start_time"] = start
    return out


def validate(doc: dict[str, Any]) -> None:
    """Check ``doc`` against the KCIDB schema with ``kcidb-io``; an SbcBenchError naming what
    is wrong, or how to install the package."""
    try:
        import kcidb_io
        from jsonschema.exceptions import ValidationError
    except ImportError:
        raise SbcBenchError(f"export kcidb: checking KCIDB JSON needs kcidb-io ({EXTRA})"
                            ) from None
    try:
        kcidb_io.schema.V5_3.validate_exactly(doc)
    except ValidationError as exc:
        raise SbcBenchError(f"export kcidb: not valid KCIDB 5.3: {exc.message} (at "
                            f"{'/'.join(map(str, exc.absolute_path)) or 'the top'})") from exc
