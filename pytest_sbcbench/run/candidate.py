"""The candidate a run judges (issue 22): which label, which boot, which earlier boots.

A run that keeps its session in the history (``--sbc-gate``, ``--sbc-candidate LABEL`` or
``--sbc-boots N``, and not ``--sbc-save-baseline``) is one boot of a candidate: its label is
``--sbc-candidate``, else the kernel release, and every earlier session of that label on this
board (in the history: ``--sbc-history``, else beside the baselines) is judged with it, boot by
boot.  Any other run is judged alone, as one candidate boot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..judge.candidates import Candidate
    from ..judge.history_url import Location
    from ..settings import Settings
    from .target import RunTarget


def keeps_history(settings: Settings) -> bool:
    """The run's session goes to the history (see :meth:`.outputs.Outputs.record_history`)."""
    return (settings.save_baseline or settings.gate or settings.candidate is not None
            or (settings.boots or 1) > 1 or settings.boots_auto)


def history_of(settings: Settings) -> Location:
    """Where the run's history is: ``--sbc-history``, else ``SBCBENCH_HISTORY``, else
    ``<baselines>/history.sqlite``."""
    from ..judge.history_url import location

    return location(settings.history, settings.baselines)


def label_of(settings: Settings, kernel_release: str | None) -> str | None:
    return settings.candidate or kernel_release


def this_boot(target: RunTarget) -> tuple[str | None, str | None]:
    """This session's boot id and kernel release (``SBCBENCH_BOOT_ID`` for simulations)."""
    from ..platform.environment import boot

    found = boot(target.settings.sysroot)
    boot_id, kernel = found.get("boot_id"), found.get("kernel_release")
    return (boot_id if isinstance(boot_id, str) and boot_id else None,
            kernel if isinstance(kernel, str) and kernel else None)


def booted_now(target: RunTarget) -> dict[str, Any]:
    """What this boot booted (:mod:`..platform.booted`): read through the run's sysroot (on a
    lab board, its captured tree), the image from a labgrid target's QEMUDriver, the commit
    from ``--sbc-kernel-commit`` or the release."""
    from ..platform.booted import booted, lab_image

    image, digest = lab_image(getattr(target.remote, "target", None))
    return booted(target.settings.sysroot, target.settings.kernel_commit, image, digest)


def candidate_for(target: RunTarget, board: str, notes: list[str] | None = None) -> Candidate:
    """This boot of the run's candidate, with the earlier boots the history holds that booted
    the same thing (:func:`check_booted`).  A history that cannot be read is refused in gate
    mode (a usage error, exit 4, before anything is measured); otherwise it is a note in
    ``notes`` and the boot is judged alone."""
    from ..judge import history
    from ..judge.candidates import Candidate, pooled

    settings = target.settings
    boot_id, kernel = this_boot(target)
    label = label_of(settings, kernel)
    if settings.save_baseline or not keeps_history(settings) or label is None:
        return Candidate(label, boot_id)
    try:
        earlier = history.earlier_boots(history_of(settings), board, label)
    except history.HistoryError as exc:
        _refuse_or_note(settings, notes, str(exc), "; this boot is judged alone")
        return Candidate(label, boot_id)
    problem = check_booted(label, earlier.booted, boot_id, booted_now(target))
    if problem is not None:
        _refuse_or_note(settings, notes, problem)
        return Candidate(label, boot_id)
    same = same_as_first(earlier.booted)
    return Candidate(label, boot_id, pooled([(key, s) for key, s in earlier.sessions
                                             if s.boot_id in same]))


def same_as_first(booted: Mapping[str | None, Mapping[str, Any]]) -> set[str | None]:
    """The boots that booted what the first of them did (a boot recorded with another image
    outside gate mode stays in the history, never pooled)."""
    from ..platform.booted import differences

    first = next(iter(booted.values()), None)
    return {boot for boot, found in booted.items()
            if first is None or not differences(first, found)}


def check_booted(label: str, earlier: Mapping[str | None, Mapping[str, Any]],
                 boot_id: str | None, now: Mapping[str, Any]) -> str | None:
    """Why this boot cannot be pooled with the label's earlier boots (it booted something else
    than the first of them: another kernel, image, command line, CPUs online or device tree),
    naming both and the label; None when it can."""
    from ..platform.booted import describe, differences

    others = [(boot, found) for boot, found in earlier.items() if boot != boot_id]
    if not others:
        return None
    first_boot, first = others[0]
    changed = differences(first, now)
    if not changed:
        return None
    return (f"candidate {label!r}: this boot ({boot_id or 'boot id unknown'}) booted "
            f"{describe(now)}, but the label's first boot ({first_boot}) booted "
            f"{describe(first)} ({'; '.join(changed)}): a label is one kernel as booted; give "
            "this boot its own --sbc-candidate label (it is not pooled with the others)")


def _refuse_or_note(settings: Settings, notes: list[str] | None, problem: str,
                    outside_gate: str = "") -> None:
    if settings.gate:
        import pytest

        raise pytest.UsageError(f"{problem} (--sbc-gate: nothing measured)")
    if notes is not None:
        notes.append(f"warning: {problem}{outside_gate}")
