"""Verdicts for results.  Until baselines exist every result is ``no-baseline``."""

from __future__ import annotations

from ..model import Verdict

SAVE_HINT = "record one with --sbc-save-baseline"


def no_baseline(board: str) -> Verdict:
    return Verdict("no-baseline", f"no baseline for board {board}; {SAVE_HINT}")
