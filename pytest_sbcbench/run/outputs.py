"""The run's outputs at the end: the results file's environment block, the results JSON, the
fleet report and the baseline save (with how many boots the saved metrics now have)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import SbcBenchError

T = TypeVar("T")

if TYPE_CHECKING:
    from ..judge.baseline import Baseline
    from ..model import Result
    from ..platform.board import BoardProfile
    from ..settings import Settings
    from .lab import LabRun
    from .preflight import Preflight
    from .recorder import Recorder
    from .target import BoardLookup, RunTarget


@dataclasses.dataclass
class Outputs:
    """What the run writes; ``saved`` says what ``--sbc-save-baseline`` did (summary lines)."""

    created: str
    saved: list[str] | None = None
    failed: list[str] = dataclasses.field(default_factory=list)
    unwritten: dict[str, str] = dataclasses.field(default_factory=dict)  # output -> why

    def environment(self, target: RunTarget, lookup: BoardLookup, preflight: Preflight,
                    recorder: Recorder, lab: LabRun | None) -> dict[str, Any]:
        """The results file's environment block (plain data)."""
        from ..platform.environment import environment

        try:
            crypto: str | None = metadata.version("cryptography")  # without importing it
        except metadata.PackageNotFoundError:
            crypto = None
        env = environment(target.settings.sysroot, lookup.probe,
                          openssl=openssl_version(target, recorder.tools), cryptography=crypto)
        governor = preflight.governor
        env["governors"] = dict(governor.recorded) if governor else {}
        checks = preflight.system_checks
        env["system_checks"] = checks.as_dict() if checks else None
        env["real_clock"] = {when: [dataclasses.asdict(r) for r in readings]
                             for when, readings in preflight.real_clock.items()}
        env["not_sampled"] = dict(recorder.unavailable)
        from ..workloads.pinning import SHARED_KEY as PIN_KEY

        pin = recorder.shared.get(PIN_KEY)  # single-threaded tools' CPU (workloads/pinning.py)
        if pin is not None:
            env["pinning"] = pin.as_dict()
        env["session_findings"] = [f.as_dict() for f in preflight.findings]
        if lab is not None:
            env["lab"] = lab.environment()
        from .candidate import booted_now

        env["booted"] = booted_now(target)  # what was booted: the history's ordering key
        if target.settings.candidate is not None:
            env["label"] = target.settings.candidate  # the reference a baseline boot belongs to
        candidate = recorder.candidate
        if candidate is not None and not target.settings.save_baseline \
                and candidate.label is not None:
            env["boot_plan"] = candidate.plan.as_dict()  # the label's, for its later boots
        return env

    def write_boot(self, target: RunTarget, lookup: BoardLookup, preflight: Preflight,
                   recorder: Recorder, lab: LabRun | None, results_path: Path | None,
                   interrupted: bool, cut_short: Callable[[], bool]) -> list[str]:
        """This boot's files: the environment block, results JSON and fleet report
        (:meth:`write`; ``interrupted``: workloads are missing), the baseline save
        (``--sbc-save-baseline``; ``cut_short``: an interrupt arrived, so the save is not
        whole) and the history; the notes they give."""
        env = self.environment(target, lookup, preflight, recorder, lab)
        doc, note = self.write(target, lookup.board, lookup.profiles(), env, recorder.results,
                               interrupted, results_path)
        if target.settings.save_baseline:
            self.guard("baseline", lambda: self.save(
                target, lookup.board.name, None, recorder.results, doc["environment"],
                cut_short()))
        return [n for n in (note, self.record_history(target, doc)) if n is not None]

    def write(self, target: RunTarget, board: BoardProfile, profiles: dict[str, BoardProfile],
              environment: dict[str, Any], results: Sequence[Result],
              interrupted: bool, results_path: Path | None = None
              ) -> tuple[dict[str, Any], str | None]:
        """Results JSON at ``results_path`` (``interrupted``: workloads are missing) and fleet
        report, each on its own (a report that cannot be written never costs the results
        file); returns the document and the report's note."""
        from ..report import results as results_io

        settings = target.settings
        doc: dict[str, Any] = results_io.document(board.name, self.created, environment,
                                                  list(results), interrupted)
        report_dir = settings.report_dir
        if results_path is not None:
            self.guard("results JSON", lambda: results_io.write_json_atomic(results_path, doc))
        note = None
        if report_dir is not None:
            from ..report import run_in_fleet

            note = self.guard("fleet report", lambda: run_in_fleet.write(
                report_dir, doc, settings.baselines, profiles))
        return doc, note

    def guard(self, what: str, write: Callable[[], T]) -> T | None:
        """Run one output's ``write``; a failure (full disk, a directory where a file goes, an
        error the output names) is kept in :attr:`failed` for the summary and the exit code,
        and the run's other outputs go on."""
        try:
            return write()
        except (SbcBenchError, OSError) as exc:
            self.failed.append(f"{what} not written: {exc}")
            self.unwritten[what] = str(exc)
            return None

    def record_history(self, target: RunTarget, doc: dict[str, Any]) -> str | None:
        """Append this session to the history (``--sbc-history``, else ``SBCBENCH_HISTORY``,
        else ``<baselines>/history.sqlite``) when the run takes part in a gate
        (``--sbc-save-baseline``: a baseline session; ``--sbc-gate``, ``--sbc-candidate`` or
        ``--sbc-boots``: a candidate's) and a SQLite history's directory exists; the summary's
        note.  A history that refuses the session (a newer schema, not a history) is a note,
        never a lost run; one that could not grow (its file too large, no space) is an output
        lost, as a results file would be (:attr:`failed`: the run's exit is not 0)."""
        from ..judge import history
        from ..judge.history_url import HistoryNoRoom
        from .candidate import history_of, keeps_history

        settings = target.settings
        if not keeps_history(settings):
            return None
        try:
            path = history_of(settings)
        except history.HistoryError as exc:
            return f"history not written: {exc}"
        if isinstance(path, Path) and not path.parent.is_dir():
            return None
        role = "baseline" if settings.save_baseline else "candidate"
        if role == "baseline" and doc.get("interrupted"):  # as the baseline: whole or nothing
            return f"history: baseline session not appended to {path}: the run was interrupted"
        try:
            number = history.append(path, doc, role, settings.candidate)
        except HistoryNoRoom as exc:  # lost, as a file that cannot be written is
            self.failed.append(f"history not written: {exc}")
            self.unwritten["history"] = str(exc)
            return None
        except history.HistoryError as exc:
            return f"history not written: {exc}"
        return f"history: {role} session {number} appended to {path}"

    def save(self, target: RunTarget, board: str, baseline: Baseline | None,
             results: Sequence[Result], environment: dict[str, Any], interrupted: bool) -> None:
        from . import baseline_io

        # the save's lines include its notes (boots, what the baseline can catch, findings of
        # what was saved as used): judge.saving.save_session knows what it quarantined
        del baseline
        self.saved = baseline_io.save(target.settings, board, results, self.created,
                                      environment, interrupted)


def boot_results_path(settings: Settings, boot: int, last: bool | None = None
                      ) -> Path | None:
    """``--sbc-results``; under ``--sbc-boots`` the boots before the last (``last``: this boot
    is the run's last, by default boot N of ``--sbc-boots N``) write ``NAME.bootI.json``
    beside it."""
    path = settings.results
    if last is None:
        last = boot >= (settings.boots or 1)
    if path is None or last:
        return path
    return path.with_name(f"{path.stem}.boot{boot}{path.suffix}")


def openssl_version(target: RunTarget, tools: dict[str, str | None]) -> str | None:
    """The version the run's openssl workloads saw, else the target's openssl, else None."""
    if "openssl" in tools:
        return tools["openssl"]
    from ..measure import openssl

    try:  # the environment block is informative: the tests report tool errors, and a board
        # that stopped answering (an interrupt killed its emulator) leaves it unknown
        path = openssl.find_openssl(executor=target.executor)
        if path is None:
            return None
        return openssl.openssl_tool(path, executor=target.executor).version
    except Exception:
        return None
