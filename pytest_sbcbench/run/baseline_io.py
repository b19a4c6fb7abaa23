"""The run's files: output locations checked at start-up, the baseline loaded when the run
activates, this session saved into it at the end.

Plain data in, plain data out: the session calls these with its settings and results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SbcBenchError
from ..fileio import (
    check_cache,
    check_writable_dir,
    check_writable_target,
    clean_stale_temps,
    validate_outputs,
)
from ..judge.baseline import Baseline
from ..judge.baseline_saves import is_saves_directory
from ..judge.baseline_store import baseline_path, load_verified
from ..judge.saving import save_session
from ..model import Result
from ..settings import Settings
from ..words import counted


def check_outputs(settings: Settings) -> None:
    """Every output location (results, report, baselines when saving, traces, storage) must
    be usable before a benchmark runs: one :class:`SbcBenchError` listing every problem (the
    plugin turns it into a usage error, exit 4), instead of a crash after minutes of work."""
    problems = validate_outputs(settings.results, settings.report_dir,
                                settings.baselines if settings.save_baseline else None,
                                settings.trace_dir, settings.storage_path)
    cache = check_cache(settings.cache)
    _raise([*problems, *([cache] if cache else [])])


def _raise(problems: Sequence[str]) -> None:
    if problems:
        raise SbcBenchError(f"{counted(len(problems), 'unusable output location')}, nothing "
                            "was run:\n  " + "\n  ".join(problems))


def load_for_run(settings: Settings, board: str) -> Baseline | None:
    """The board's baseline, verified when --sbc-verify-key is given.

    Read once: the bytes verified are the bytes parsed.  A corrupt, truncated, unknown-schema
    or wrongly signed file, an unreadable key, or (under a verify key) a board without a signed
    baseline raises (the run stops, naming it); the file is only read.  When saving, the
    baseline file must be writable and temporaries left by a killed save are removed."""
    if settings.verify_key is not None and settings.save_baseline:
        raise SbcBenchError("--sbc-save-baseline cannot write a signed baseline under "
                            "--sbc-verify-key: save into another --sbc-baselines directory, "
                            "review it, and sign it with 'sbcbench sign'")
    path = baseline_path(settings.baselines, board)
    if settings.results is not None and _same_file(settings.results, path):
        raise SbcBenchError(f"--sbc-results {settings.results} is the baseline of board "
                            f"{board} ({path}): a results file would replace it; write the "
                            "results elsewhere")
    if settings.save_baseline:
        saves = is_saves_directory(path)
        problem = check_writable_dir(path, "--sbc-save-baseline") if saves \
            else check_writable_target(path, "--sbc-save-baseline")
        _raise([problem] if problem else [])
        clean_stale_temps(path if saves else settings.baselines)
    return load_verified(path, settings.verify_key, board)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (through links), existing or not."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def save(settings: Settings, board: str, results: Sequence[Result], created: str,
         environment: Mapping[str, Any], interrupted: bool) -> list[str]:
    """Append this session's savable results to the board's baseline, under its lock and
    atomically; never after an interruption.  Returns the summary lines saying what was and
    was not saved (and quarantined), and the save's notes."""
    path = baseline_path(settings.baselines, board)
    if interrupted:
        return [f"baseline NOT saved to {path}: the run was interrupted"]
    return save_session(path, board, results, settings.accept, created, environment,
                        with_notes=True)
