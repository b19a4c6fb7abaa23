"""Loading the board's baseline at start-up and saving this session into it (plugin glue)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import SbcBenchError
from .judge import signing
from .judge.baseline import Baseline, baseline_path, load_baseline, with_session
from .report.results import write_json_atomic

if TYPE_CHECKING:
    from .state import RunState

UNSAVED = ("invalid", "implausible")


def load_for_run(state: RunState) -> Baseline | None:
    """The detected or requested board's baseline, verified when --sbc-verify-key is given.

    A corrupt, truncated, unknown-schema or wrongly signed file raises (the run stops, naming
    it); the file is only read."""
    if not state.board_resolved:  # board not resolvable on this host: nothing to judge against
        return None
    settings = state.settings
    if settings.verify_key is not None and settings.save_baseline:
        raise SbcBenchError("--sbc-save-baseline cannot write a signed baseline under "
                            "--sbc-verify-key: save into another --sbc-baselines directory, "
                            "review it, and sign it with 'sbcbench sign'")
    path = baseline_path(settings.baselines, state.board.name)
    if settings.verify_key is not None and path.exists():
        signing.verify(path, signing.public_key(settings.verify_key))
    return load_baseline(path)


def save(state: RunState, environment: Mapping[str, Any], interrupted: bool) -> None:
    """Append this session to the board's baseline, atomically; never after Ctrl-C."""
    path = baseline_path(state.settings.baselines, state.board.name)
    if interrupted:
        state.notes.append(f"baseline NOT saved to {path}: the run was interrupted")
        return
    keep = [r for r in state.results if r.verdict.status not in UNSAVED]
    if not keep:
        state.notes.append(f"baseline NOT saved to {path}: no valid results to record")
        return
    updated = with_session(state.baseline, state.board.name, keep, state.created, environment)
    write_json_atomic(path, updated.as_dict())
    sessions = max(len(e.sessions) for e in updated.entries)
    state.notes.append(f"baseline saved: {path} ({len(keep)} results; up to {sessions} "
                       "session(s) per metric)")
