"""``sbcbench compare``: the baseline gate offline, judged exactly as inside pytest.

The reference may be a baseline file or another results file (its results become one baseline
session, with its environment, so the other-machine check applies as it does in pytest).  The
outcome maps to the exit codes in ``sbcbench compare --help``: 0 nothing regressed, 1 a
regression or an implausible number, 2 unusable input (raised as an error by the loaders),
and 3 when the gate could not judge: a result is incomparable (pytest fails it too unless
allowed) or no result had a baseline at all."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SchemaError, schema_field
from ..jsonload import read_bytes, strict_json
from ..judge.baseline import BASELINE_SCHEMA, Baseline, parse_baseline, with_session
from ..judge.verdict import MACHINE_KEYS, JudgeContext, judge_result
from ..model import Result, Verdict
from ..platform.board import BoardProfile, Cluster
from .results import RESULTS_SCHEMA, results_document

EXIT_PASS, EXIT_REGRESSION, EXIT_UNUSABLE, EXIT_NOT_JUDGED = 0, 1, 2, 3
FAILING = ("regression", "implausible")
JUDGED = ("pass", "improvement", "inconclusive", "regression", "implausible")


def load_reference(path: Path) -> Baseline:
    """A baseline file, or a results file read as a baseline of one session (its ``created``
    and environment kept); anything else is a :class:`SchemaError` naming the file."""
    raw = read_bytes(path, "baseline or results file")
    data = strict_json(raw, path, "baseline or results file")
    schema = schema_field(data)
    if isinstance(data, dict) and schema == RESULTS_SCHEMA:
        loaded = results_document(data, path)
        made = with_session(None, loaded.board, loaded.results, loaded.created or "unknown",
                            loaded.environment)
        return Baseline(made.board, made.entries, path)
    if isinstance(data, dict) and schema != BASELINE_SCHEMA:
        raise SchemaError(path, schema, f"neither a baseline ({BASELINE_SCHEMA}) nor a "
                                        f"results file ({RESULTS_SCHEMA})")
    return parse_baseline(raw, path)


def generic_board(name: str, environment: Mapping[str, Any]) -> BoardProfile:
    """The profile a run on an unrecognised machine judged with (``generic-<arch>``), rebuilt
    from its results file's environment (CPU model and count; no published limits)."""
    arch = str(environment.get("arch") or name.removeprefix("generic-"))
    cpus, model = environment.get("cpus"), str(environment.get("cpu_model") or "unknown")
    clusters = (Cluster(cpus, model, None),) if isinstance(cpus, int) and cpus > 0 else ()
    return BoardProfile(name=name, title=f"unrecognised {arch} machine, {model}",
                        soc="unknown", arch=arch, clusters=clusters, generic=True)


def board_profile(name: str, profiles: Mapping[str, BoardProfile],
                  environment: Mapping[str, Any]) -> BoardProfile | None:
    """The named profile; a ``generic-*`` name rebuilt from the environment; else None."""
    if name in profiles:
        return profiles[name]
    if name.startswith("generic-"):
        return generic_board(name, environment)
    return None


def machine(environment: Mapping[str, Any]) -> dict[str, Any]:
    """What the other-machine check compares (``cpu_model``, ``cpus``), as pytest passes it."""
    return {k: environment.get(k) for k in MACHINE_KEYS}


@dataclass(frozen=True)
class Outcome:
    """Every result's verdict, the exit code and the line that explains it."""

    verdicts: tuple[tuple[Result, Verdict], ...]
    code: int
    summary: str


def outcome(verdicts: Sequence[tuple[Result, Verdict]], allow_incomparable: bool) -> Outcome:
    counts: Counter[str] = Counter(v.status for _, v in verdicts)
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    line = f"{len(verdicts)} results: {tally or 'none'}"
    if any(counts[s] for s in FAILING):
        return Outcome(tuple(verdicts), EXIT_REGRESSION, f"{line}; exit 1: regression")
    if counts["incomparable"] and not allow_incomparable:
        return Outcome(tuple(verdicts), EXIT_NOT_JUDGED,
                       f"{line}; exit 3: not judged: {counts['incomparable']} incomparable with "
                       "the baseline (pytest fails these too; --allow-incomparable to accept)")
    if not any(counts[s] for s in JUDGED):
        return Outcome(tuple(verdicts), EXIT_NOT_JUDGED,
                       f"{line}; exit 3: not judged: no result has a comparable baseline")
    return Outcome(tuple(verdicts), EXIT_PASS, f"{line}; exit 0: no regression")


def compare(reference: Baseline, board: str, environment: Mapping[str, Any],
            results: Sequence[Result], profiles: Mapping[str, BoardProfile],
            allow_incomparable: bool = False) -> Outcome:
    """Judge ``results`` (of ``board``, measured in ``environment``) against ``reference``
    through :func:`judge_result`, as the plugin does at the end of each test."""
    context = JudgeContext(board, board_profile(board, profiles, environment), reference,
                           machine(environment))
    return outcome([(r, judge_result(r, context)) for r in results], allow_incomparable)
