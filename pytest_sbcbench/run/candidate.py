"""The candidate a run judges (issue 22): which label, which boot, which earlier boots.

A run that keeps its session in the history (``--sbc-gate``, ``--sbc-candidate LABEL`` or
``--sbc-boots N``, and not ``--sbc-save-baseline``) is one boot of a candidate: its label is
``--sbc-candidate``, else the kernel release, and every earlier session of that label on this
board (the history beside the baselines) is judged with it, boot by boot.  Any other run is
judged alone, as one candidate boot."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..judge.candidates import Candidate
    from ..settings import Settings
    from .target import RunTarget


def keeps_history(settings: Settings) -> bool:
    """The run's session goes to the history (see :meth:`.outputs.Outputs.record_history`)."""
    return (settings.save_baseline or settings.gate or settings.candidate is not None
            or (settings.boots or 1) > 1 or settings.boots_auto)


def label_of(settings: Settings, kernel_release: str | None) -> str | None:
    return settings.candidate or kernel_release


def this_boot(target: RunTarget) -> tuple[str | None, str | None]:
    """This session's boot id and kernel release (``SBCBENCH_BOOT_ID`` for simulations)."""
    from ..platform.environment import boot

    found = boot(target.settings.sysroot)
    boot_id, kernel = found.get("boot_id"), found.get("kernel_release")
    return (boot_id if isinstance(boot_id, str) and boot_id else None,
            kernel if isinstance(kernel, str) and kernel else None)


def candidate_for(target: RunTarget, board: str) -> Candidate:
    """This boot of the run's candidate, with the earlier boots the history holds."""
    from ..judge import history
    from ..judge.candidates import Candidate, pooled

    settings = target.settings
    boot_id, kernel = this_boot(target)
    label = label_of(settings, kernel)
    if settings.save_baseline or not keeps_history(settings) or label is None:
        return Candidate(label, boot_id)
    path = history.history_path(settings.baselines)
    earlier = history.candidate_sessions(path, board, label) if path.is_file() else []
    return Candidate(label, boot_id, pooled(earlier))
