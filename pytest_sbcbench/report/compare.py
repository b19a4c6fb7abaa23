"""``sbcbench compare``: the baseline gate offline, judged exactly as inside pytest.

The reference may be a baseline file or another results file (its results become one baseline
session, with its environment, so the other-machine check applies as it does in pytest).  The
candidate is one or more results files, one per boot, the last judged with the earlier ones
as its earlier boots (as pytest judges a boot with the history's), m for Holm's first step
counted as pytest counts it, then Holm's later steps and the suite-mean test
(:func:`judge.closing.close_run`).  A candidate session that is already one of the baseline's
sessions (same boot, same samples), or given twice, is refused: it would be compared with
itself.  The boots given are judged by the every-boot plan (:data:`judge.looks.OFFLINE`: the
c-th boot's look spends its group-sequential share of the error rates), whatever plan or boots
left a file claims, so ``compare B c1``, ``B c1 c2``, ... together stay within the bound.
The outcome maps to the pytest gate's exit codes (:func:`outcome`; ``sbcbench compare
--help``): 0 every metric decided and none regressed, 1 a regression or an implausible number,
2 unusable input (raised as an error by the loaders), 4 cannot gate (incomparable, or without a
baseline), 6 undecided."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SbcBenchError, SchemaError, schema_field
from ..jsonload import read_bytes, strict_json
from ..judge.baseline import (
    BASELINE_SCHEMA,
    Baseline,
    BaselineEntry,
    parse_decoded,
    with_session,
)
from ..judge.baseline_model import no_gc_pauses
from ..judge.baseline_saves import is_saves_directory
from ..judge.baseline_store import load_any
from ..judge.boot_test import BootSession
from ..judge.candidates import Candidate, MetricKey, key_of, pooled
from ..judge.closing import Closing, close_run, with_closing
from ..judge.disturbance import disturbance
from ..judge.held import cannot_judge
from ..judge.history import UNUSABLE
from ..judge.looks import DEFAULT_MIN_EFFECT_PCT, OFFLINE
from ..judge.quarantine import reference_session
from ..judge.verdict import MACHINE_KEYS, JudgeContext, boot_of, count_metrics, judge_result
from ..model import Result, Verdict
from ..platform.board import BoardProfile, Cluster
from ..words import counted
from ..workloads import builtin_limits
from .results import RESULTS_SCHEMA, ResultsFile, results_document
from .tally import tally_line

# the pytest gate's codes (README, docs/gate.md): the same files give the same exit either way
EXIT_PASS, EXIT_REGRESSION, EXIT_UNUSABLE, EXIT_CANNOT_GATE, EXIT_UNDECIDED = 0, 1, 2, 4, 6
FAILING = ("regression", "implausible")
# measured and judged against the baseline (``invalid``: judged, and other work disturbed it)
JUDGED = ("pass", "improvement", "inconclusive", "regression", "implausible", "invalid")


def load_reference(path: Path) -> Baseline:
    """A baseline file, or a results file read as a baseline of one session (its ``created``
    and environment kept); anything else is a :class:`SchemaError` naming the file."""
    return read_reference(path)[0]


def read_reference(path: Path) -> tuple[Baseline, bool, list[str]]:
    """:func:`load_reference`'s baseline, whether the file is the results file of an
    interrupted run, and the notes naming what of a results file is not a baseline session,
    from one read and one JSON decoding of the file (a baseline of 250,000 sessions was
    decoded three times: to learn its schema, to read it, and to ask whether it was an
    interrupted results file).  A directory is a baseline of saves."""
    if is_saves_directory(path):
        saves = load_any(path)
        if saves is None:
            raise SchemaError(path, None, "a baseline directory with no save yet")
        return saves, False, []
    raw = read_bytes(path, "baseline or results file")
    with no_gc_pauses():
        data = strict_json(raw, path, "baseline or results file")
    schema = schema_field(data)
    if isinstance(data, dict) and schema == RESULTS_SCHEMA:
        loaded = results_document(data, path)
        baseline, notes = as_reference(loaded, path)
        return baseline, loaded.interrupted, notes
    if isinstance(data, dict) and schema != BASELINE_SCHEMA:
        raise SchemaError(path, schema, f"neither a baseline ({BASELINE_SCHEMA}) nor a "
                                        f"results file ({RESULTS_SCHEMA})")
    return parse_decoded(raw, data, path), False, []


def as_reference(loaded: ResultsFile, path: Path) -> tuple[Baseline, list[str]]:
    """A results file as a baseline of one session, held as a save would hold it: a result the
    run judged ``invalid`` or ``implausible`` is no session (named in a note), one whose
    numbers what ran beside it disturbed is quarantined
    (:func:`..judge.quarantine.reference_session`: never judged against, and the verdict says
    so)."""
    created, env = loaded.created or "unknown", loaded.environment
    kept = [r for r in loaded.results if r.verdict.status not in UNUSABLE]
    made = with_session(None, loaded.board, kept, created, env,
                        lambda r: reference_session(r, created, env))
    left = [r for r in loaded.results if r.verdict.status in UNUSABLE]
    return (Baseline(made.board, made.entries, path, from_results=True),
            left_out(path, left, "no baseline session"))


def left_out(path: Path, results: Sequence[Result], what: str) -> list[str]:
    """One note per verdict naming the results of ``path`` left out as ``what``."""
    by_status: dict[str, list[str]] = {}
    for r in results:
        by_status.setdefault(r.verdict.status, []).append(r.measurement.display_name)
    return [f"note: {path}: {counted(len(names), 'result')} left out ({what}): {status} in its "
            f"run: {', '.join(dict.fromkeys(names))}" for status, names in by_status.items()]


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
    """Every result's verdict, the exit code, the line that explains it and the tally line
    pytest would end with."""

    verdicts: tuple[tuple[Result, Verdict], ...]
    code: int
    summary: str
    tally: str = ""
    closing: Closing | None = None


def outcome(verdicts: Sequence[tuple[Result, Verdict]], allow_incomparable: bool,
            closing: Closing | None = None) -> Outcome:
    """The exit code of the pytest gate (``--sbc-gate``) on the same files: 1 a regression or
    an implausible number; 4 cannot gate (a result incomparable with the baseline, unless
    allowed, or without one: the gate refuses those before measuring); 6 undecided (a metric
    neither passed nor regressed, judged ``invalid`` because other work disturbed it, or an
    allowed incomparable one); 0 every metric decided and none regressed."""
    counts: Counter[str] = Counter(v.status for _, v in verdicts)
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    line = f"{len(verdicts)} results: {tally or 'none'}"
    judged = [dataclass_replace(r, v) for r, v in verdicts]
    suite = closing.suite.detail if closing and closing.suite.status == "regression" else None
    done = tuple(verdicts), tally_line(judged, suite), closing

    def ends(code: int, why: str) -> Outcome:
        return Outcome(done[0], code, f"{line}; exit {code}: {why}", *done[1:])
    if any(counts[s] for s in FAILING) or (closing is not None and closing.failed):
        return ends(EXIT_REGRESSION, "regression")
    blocked = counts["no-baseline"] + (0 if allow_incomparable else counts["incomparable"])
    held = sum(1 for _, v in verdicts if cannot_judge(v))
    if blocked or not any(counts[s] for s in JUDGED):
        why = (f"{counted(counts['incomparable'], 'result')} incomparable with the baseline "
               "(pytest's gate refuses these; --allow-incomparable to judge the rest)"
               if counts["incomparable"] and not allow_incomparable else
               f"{counted(held, 'result')} whose every baseline session is quarantined or "
               "dropped (each line says why; 'sbcbench baseline restore' uses sound ones, "
               "else record the baseline again on a quiet machine)" if held else
               f"{counted(counts['no-baseline'], 'result')} without a baseline"
               if counts["no-baseline"] else "no result has a comparable baseline")
        return ends(EXIT_CANNOT_GATE, f"cannot gate: {why}")
    left = counts["inconclusive"] + counts["incomparable"] + counts["invalid"]
    if left:
        disturbed = f", {counts['invalid']} of them disturbed by other work (rerun on a " \
            "quiet machine)" if counts["invalid"] else ""
        return ends(EXIT_UNDECIDED, f"undecided: {counted(left, 'metric')} neither passed nor "
                                    f"regressed (add candidate or baseline boots){disturbed}")
    return ends(EXIT_PASS, "no regression")


def dataclass_replace(result: Result, verdict: Verdict) -> Result:
    import dataclasses

    return dataclasses.replace(result, verdict=verdict)


def boot_id(environment: Mapping[str, Any]) -> str | None:
    """The boot a results file's session ran in (the lab board's, else this machine's)."""
    lab = environment.get("lab")
    found = boot_of(lab) if isinstance(lab, Mapping) else None
    return found or boot_of(environment)


def _usable(r: Result) -> bool:
    """A candidate boot's result the judge pools as the run's history does: not ``invalid``
    or ``implausible`` in its run, nor disturbed by what its run recorded beside it."""
    return r.verdict.status not in UNUSABLE \
        and disturbance(r.measurement, r.telemetry).invalid is None


def _sessions(loaded: ResultsFile) -> list[tuple[MetricKey, BootSession]]:
    boot = boot_id(loaded.environment)
    return [(key_of(r.test, r.measurement), BootSession(tuple(r.measurement.samples), boot))
            for r in loaded.results if _usable(r)]


Seen = tuple[MetricKey, BootSession, str]  # a session as stored: metric, samples, boot, created


def _stored(reference: Baseline) -> dict[MetricKey, tuple[BaselineEntry, ...]]:
    """The baseline's entries by metric key: a dictionary built without touching a session
    (a set of every stored session, built to check a few thousand candidate sessions, was an
    eighth of comparing against 250,000)."""
    out: dict[MetricKey, tuple[BaselineEntry, ...]] = {}
    for e in reference.entries:
        key = (e.test, e.metric, _identity_json(e))
        out[key] = (*out.get(key, ()), e)
    return out


def _in_baseline(stored: Mapping[MetricKey, Sequence[BaselineEntry]], seen: Seen) -> bool:
    """Whether the baseline holds this session (same created, samples and boot) among its
    used ones: the saves' created and boot first (from the entry's columns), the samples only
    of a save that matches (a directory of saves reads no session for a new candidate)."""
    key, session, created = seen
    for e in stored.get(key, ()):
        if (created, session.boot_id) in e.columns.saves:
            return any(s.created == created and s.samples == session.samples
                       and boot_of(s.environment) == session.boot_id for s in e.sessions)
    return False


def _identity_json(entry: Any) -> str:
    import json

    return json.dumps(entry.identity.as_dict(), sort_keys=True)


def earlier_notes(files: Sequence[tuple[Path, ResultsFile]]) -> list[str]:
    """What of the candidate's earlier boots is left out of its boots (:func:`_usable`), named
    by file: the run judged the same (the history keeps no such result as a boot)."""
    return [note for path, loaded in files[:-1]
            for note in left_out(path, [r for r in loaded.results if not _usable(r)],
                                 "not a candidate boot")]


def candidate_of(reference: Baseline, files: Sequence[tuple[Path, ResultsFile]]) -> Candidate:
    """The last file's session as this boot, the others as the candidate's earlier boots; a
    session given twice, or already in the baseline, is an error naming the file."""
    stored = _stored(reference)
    given: set[Seen] = set()
    earlier: list[tuple[MetricKey, BootSession]] = []
    for i, (path, loaded) in enumerate(files):
        mine = _sessions(loaded)
        sessions = [(k, b, loaded.created) for k, b in mine]
        again = [s for s in sessions if s in given or _in_baseline(stored, s)]
        if again:
            where = "one of the baseline's sessions" if _in_baseline(stored, again[0]) \
                else "given twice"
            raise SbcBenchError(f"candidate {path}: {again[0][0][0]} {again[0][0][1]} is "
                                f"{where} (same session: created, boot and samples): a "
                                "candidate boot must be a session the baseline does not hold")
        given.update(sessions)
        if i < len(files) - 1:
            earlier += mine
    last = files[-1][1]
    label = last.environment.get("label") or last.environment.get("kernel")
    return Candidate(str(label) if label else None, boot_id(last.environment), pooled(earlier),
                     OFFLINE)


def compare(reference: Baseline, board: str, environment: Mapping[str, Any],
            results: Sequence[Result], profiles: Mapping[str, BoardProfile],
            allow_incomparable: bool = False, candidate: Candidate | None = None,
            min_effect_pct: float = DEFAULT_MIN_EFFECT_PCT) -> Outcome:
    """Judge ``results`` (of ``board``, measured in ``environment``; ``candidate``: its
    earlier boots) against ``reference`` through :func:`judge_result`, as the plugin does at
    the end of each test, then close the family as the plugin does at the end of the run.
    Alpha follows from the metrics counted and delta is ``min_effect_pct`` (``--min-effect``):
    neither is taken from the file being judged."""
    n_metrics = count_metrics(reference, [r.test for r in results])
    # the built-in workloads' limits, gathered once, not once per result (a fifth of
    # judging 250 metrics went to gathering them again)
    context = JudgeContext(board, board_profile(board, profiles, environment), reference,
                           machine(environment), limits=builtin_limits(),
                           candidate=candidate or Candidate(
                               None, boot_id(environment), plan=OFFLINE), n_metrics=n_metrics,
                           min_effect_pct=min_effect_pct)
    judged = [dataclass_replace(r, judge_result(r, context)) for r in results]
    closing = close_run(judged, context)
    closed = with_closing(judged, closing)
    return outcome([(r, r.verdict) for r in closed], allow_incomparable, closing)
