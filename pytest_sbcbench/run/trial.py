"""One test's trip through the run, asked of the session once, at the test's set-up
(:meth:`.session.Session.trial`): its board, the boot's recorder it records through, the
target it measures, the context of its registered workload, this boot's
:class:`~..judge.verdict.JudgeContext`, and, in its call phase, its watch (:mod:`.watch`: idle
gate, sampler).  The call phase ends in :meth:`Trial.end`: the watch
stopped (its trace and findings), the test's findings, each pending result judged with its
failure message in one call (:func:`..judge.verdict.judge_test`), set on the test's handle
(its ``outcome``, a :class:`.loop.Pending` future: nothing calls into the loop) and
published; what it returns (the failure message) is all the plugin reads.

Nothing here calls the session or the recorder back: the recorder's queue (``pending``) and its
boot's record (results, findings, traces, what was not sampled) are read and added to as data."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..measure.background import Window
    from ..measure.sampler import Sampler
    from ..model import Finding, Trace
    from ..platform.board import BoardProfile
    from ..workload import Context, Workload
    from .lab import LabRun
    from .loop import Handle
    from .preflight import Preflight
    from .recorder import Publish, Recorder
    from .target import RunTarget
    from .watch import Watch


class Trial:
    """One test: ``test`` (its node id) on ``board``, recorded through ``recorder`` on
    ``target``, judged against ``against`` (the recorder's, handed over per boot), its watch
    started with the run's ``preflight`` checks, its ``lab`` and ``clock``; ``ctx``: the context
    of its registered ``workload`` (``None`` without one).  ``watching`` is its local sampler
    while the call phase runs (what :meth:`.recorder.Recorder.measure` attributes load with)."""

    def __init__(self, test: str, recorder: Recorder, target: RunTarget, preflight: Preflight,
                 lab: LabRun | None = None, clock: Callable[[], float] = time.monotonic,
                 board: BoardProfile | None = None, workload: Workload | None = None) -> None:
        assert recorder.against is not None, "a boot is begun before a test runs"
        self.test, self.recorder, self.target, self.board = test, recorder, target, board
        self.ctx: Context | None = self.context(workload) if workload is not None else None
        self.against = recorder.against
        self.preflight, self.lab, self.clock = preflight, lab, clock
        self.watch: Watch | None = None
        self.watching: Sampler | None = None

    def context(self, workload: Workload) -> Context:
        return self.target.context(workload, self.recorder.shared, self.recorder.tools)

    def start(self, label: str, terminal: TextIO | None) -> None:
        """The call phase begins: the system and real-clock checks before the first workload,
        then the watch (idle gate, sampler, status line) on this target."""
        from .watch import start

        target, lab = self.target, self.lab
        self.preflight.start(target, lab.skipped_checks() if lab else None)
        self.watch = start(target.settings, label, terminal, target.host, self.clock,
                           self.recorder.quiet, target.remote,
                           lab.emulator_host() if lab else None)
        self.watching = self.watch.local
        for name, reason in self.watch.sampler.unavailable.items():
            self.recorder.unavailable.setdefault(name, reason)

    def end(self, line_end: int | None, publish: Publish) -> str | None:
        """The call phase ends: the sampler stopped (the cursor back to ``line_end``), the
        run's preflight findings and the watch's beside the trace, the verdicts given."""
        watch = self.watch
        assert watch is not None, "a trial ends after it started"
        trace, found = watch.stop(line_end)
        return self.verdicts(trace, [*self.preflight.findings, *found], publish)

    def verdicts(self, trace: Trace | None, extra: Sequence[Finding], publish: Publish
                 ) -> str | None:
        """Judge and publish the test's pending results with their telemetry and details, and
        write its trace (``--sbc-trace-dir``).  Returns the failure message when a verdict
        fails the test.  Without a trace (results recorded outside a sampled call phase)
        they are published without telemetry."""
        from ..judge import telemetry as telemetry_mod
        from ..judge import validity, warmup
        from ..judge.disturbance import EMULATED_KEY, FACTS_KEY

        recorder, settings = self.recorder, self.target.settings
        pending = recorder.pending.pop(self.test, [])
        dropped = [warmup.finding(h.measurement) for h in pending]  # a first run left out
        extra = [*extra, *(f for f in dropped if f is not None)]
        telemetry: dict[str, Any] = {}
        found: list[Finding] = list(extra)
        disturbed = recorder.disturbed.pop(self.test, None)
        windows = recorder.windows.pop(self.test, [])
        if trace is not None:
            telemetry = telemetry_mod.summarize_trace(trace)
            if pending and recorder.quiet.enabled(settings):
                disturbed, windows = self._beside(windows, disturbed)
                extra = [*extra, *validity.beside(windows)]
                telemetry["background"] = telemetry_mod.background(windows)
            found = validity.findings(trace, telemetry, extra)
            telemetry.update(validity.throttling(found))
            write_trace(recorder, settings.trace_dir, self.test, trace)
        telemetry["findings"] = [f.as_dict() for f in found]
        if disturbed:  # what ran beside the measurement: its judge reads it from here
            telemetry[FACTS_KEY] = disturbed
        if self.watch is not None and self.watch.emulator is not None:
            telemetry[EMULATED_KEY] = True  # the board's CPU time runs at its host's mercy
        failures = self._judge(pending, telemetry, found, publish)
        if pending:  # a skipped or errored test measured nothing: its findings judge nothing
            # one summary line each (report/terminal.py), not also a warning with a source line
            recorder.findings.extend((self.test, f) for f in found)
        self.watching = None
        return "\n".join(failures) or None

    def _judge(self, pending: Sequence[Handle], telemetry: dict[str, Any],
               found: list[Finding], publish: Publish) -> list[str]:
        """Each pending result's verdict (physics, then the baseline gate, then what ran beside
        it) against this boot's context and the test's findings; the failure messages.  Saving
        a baseline, a disturbed verdict stands (the save quarantines the number instead)."""
        from ..judge.verdict import judge_test
        from ..model import Measured, Result

        settings, far_boot = self.target.settings, self.recorder.far_boot
        context = dataclasses.replace(self.against, findings=tuple(found),
                                      saving=settings.save_baseline)
        failures = []
        for handle in pending:
            # judged exactly as written: the workload's details (an interface ceiling) included
            merged = {**telemetry, **handle.measurement.details}
            judged = judge_test(Measured(handle.test, handle.measurement, merged), context,
                                None, settings.allow_incomparable, settings.gate)
            verdict, message = judged.verdict, judged.message
            final = Result(handle.test, handle.measurement, handle.summary, verdict, merged)
            if message and verdict.status == "regression" and far_boot and far_boot(final):
                message = None  # a far boot of the reference being recorded: saved, reported
            if message:
                failures.append(message)
            handle.outcome.set_result(final)  # the test's handle: its result, now final
            self.recorder.results.append(final)
            publish(final)
        return failures

    def _beside(self, windows: list[Window], disturbed: dict[str, str | None] | None
                ) -> tuple[dict[str, str | None] | None, list[Window]]:
        """The windows of the test's measurements; a measurement recorded by the test itself
        (never through the recorder's ``measure``) has the whole call phase as its window, and
        cannot be re-measured: disturbed by other work, it is disturbed."""
        from .recorder import beside

        if windows or self.watching is None:
            return disturbed, windows
        whole = self.watching.window(0.0, self.recorder.quiet.sleep)
        if whole.outside() is None:
            return disturbed, [whole]
        return beside(whole, "a recorded measurement cannot be re-measured"), [whole]


def write_trace(recorder: Recorder, folder: Path | None, nodeid: str, trace: Trace) -> None:
    """The test's trace CSV (and PNG) under ``folder``, listed in the recorder's
    ``trace_files``; a file that cannot be written (disk full, its name taken by a directory)
    is a finding line naming it, never an error that would cost the test its results and its
    save."""
    if folder is None:
        return
    from ..fileio import OutputError
    from ..model import Finding
    from ..report import trace as trace_out

    name = trace_out.safe_name(nodeid)
    for path, write in ((folder / f"{name}.csv", trace_out.write_csv),
                        (folder / f"{name}.png",
                         lambda t, p: trace_out.write_png(t, p, nodeid))):
        try:
            written = write(trace, path)
        except OutputError as exc:  # refused or failed (a FIFO, a full disk): its reason
            recorder.findings.append((nodeid, Finding("trace-not-written", str(exc))))
            continue
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            recorder.findings.append((nodeid, Finding("trace-not-written", f"{path}: {why}")))
            continue
        if written is not None:
            recorder.trace_files.append(written)
