"""The run's baseline: loaded when the run activates, this session saved into it at the end.

Plain data in, plain data out: the session calls these with its settings and results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import SbcBenchError
from .judge import signing
from .judge.baseline import Baseline, baseline_path, load_baseline, with_session
from .model import Result
from .report.results import write_json_atomic
from .settings import Settings

UNSAVED = ("invalid", "implausible")


def load_for_run(settings: Settings, board: str) -> Baseline | None:
    """The board's baseline, verified when --sbc-verify-key is given.

    A corrupt, truncated, unknown-schema or wrongly signed file raises (the run stops, naming
    it); the file is only read."""
    if settings.verify_key is not None and settings.save_baseline:
        raise SbcBenchError("--sbc-save-baseline cannot write a signed baseline under "
                            "--sbc-verify-key: save into another --sbc-baselines directory, "
                            "review it, and sign it with 'sbcbench sign'")
    path = baseline_path(settings.baselines, board)
    if settings.verify_key is not None and path.exists():
        signing.verify(path, signing.public_key(settings.verify_key))
    return load_baseline(path)


def save(settings: Settings, baseline: Baseline | None, board: str, results: Sequence[Result],
         created: str, environment: Mapping[str, Any], interrupted: bool) -> str:
    """Append this session to the board's baseline, atomically; never after Ctrl-C.  Returns
    the note saying what happened."""
    path = baseline_path(settings.baselines, board)
    if interrupted:
        return f"baseline NOT saved to {path}: the run was interrupted"
    keep = [r for r in results if r.verdict.status not in UNSAVED]
    if not keep:
        return f"baseline NOT saved to {path}: no valid results to record"
    updated = with_session(baseline, board, keep, created, environment)
    write_json_atomic(path, updated.as_dict())
    sessions = max(len(e.sessions) for e in updated.entries)
    return (f"baseline saved: {path} ({len(keep)} results; up to {sessions} session(s) per "
            "metric)")
