"""One boot of the run as a value: what :mod:`.boot_cycle` plans and returns and the session
installs (:meth:`.session.Session.install`), the only way a boot's state enters the session."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..judge.baseline import Baseline
    from ..judge.verdict import JudgeContext
    from ..platform.board import BoardProfile
    from ..workload import Limits
    from .recorder import FarBoot
    from .target import BoardLookup, RunTarget


@dataclasses.dataclass(frozen=True)
class RunBoot:
    """One boot of the run: its number (of ``--sbc-boots``), the selected tests, where it
    measures (``target``, ``lookup``), its baseline, and what its verdicts are given against
    (``against``; None until planned, and on a host without /proc, where nothing that needs
    the board runs) with the far-boot rule of a baseline being saved."""

    number: int
    tests: tuple[str, ...]
    target: RunTarget
    lookup: BoardLookup
    baseline: Baseline | None
    against: JudgeContext | None = None
    far_boot: FarBoot | None = None


def alone(board: BoardProfile, baseline: Baseline | None, machine: dict[str, Any],
          strict: bool, limits: Limits) -> JudgeContext:
    """What a run judges against when no boot was planned (the session's API used directly):
    the board and baseline as they are, the limits its workloads declare, the candidate alone,
    m = 1."""
    from ..judge.verdict import JudgeContext

    return JudgeContext(board.name, board, baseline, machine, strict=strict, limits=limits,
                        n_metrics=1)
