"""Before and around the workloads: output paths checked, governors taken over and put back,
system checks and the real-clock check (before the first workload and after the last).

Everything found here is a session-wide finding or a note for the summary."""

from __future__ import annotations

import dataclasses
import warnings
from typing import TYPE_CHECKING

from ..errors import SbcBenchError, SbcBenchWarning

if TYPE_CHECKING:
    from ..measure.governor import GovernorGuard
    from ..measure.syschecks import SystemChecks
    from ..model import ClockReading, Finding
    from ..platform.host import Host
    from ..settings import Settings
    from .target import RunTarget

REPLAY_NOTE = ("system checks, real-clock check and idle gate skipped: --sbc-sysroot is a "
               "captured tree, not this machine; its CPU counters never move, so background "
               "load cannot be judged from it")


class Preflight:
    """The run's checks and governors; ``notes`` and ``findings`` go to the summary."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.findings: list[Finding] = []
        self.governor: GovernorGuard | None = None
        self.system_checks: SystemChecks | None = None
        self.real_clock: dict[str, list[ClockReading]] = {}
        self.started = False

    def check_outputs(self, settings: Settings, host: Host, on_board: bool) -> None:
        """Every unwritable output, at once (a storage path on a lab board is the board's,
        not checked from here)."""
        from ..workloads.storage import check_given_path
        from . import baseline_io

        if on_board:
            baseline_io.check_outputs(dataclasses.replace(settings, storage_path=None))
            return
        baseline_io.check_outputs(settings)
        check_given_path(settings, host)

    def take_governors(self, target: RunTarget) -> None:
        from ..measure.governor import GovernorGuard

        self.governor = GovernorGuard(target.settings.sysroot)
        if not target.settings.performance:
            return
        if target.remote is not None:
            self.notes.append("--sbc-performance: not applied on a remote board yet")
            return
        self._set_performance(self.governor)

    def _set_performance(self, guard: GovernorGuard) -> None:
        if not guard.recorded:
            self.notes.append("--sbc-performance: no cpufreq or devfreq governor to set here")
            return
        guard.set_performance()
        if guard.errors and not guard.changed:
            raise SbcBenchError("--sbc-performance could not set any governor (run as root?): "
                                + "; ".join(guard.errors))
        self.notes += [f"--sbc-performance: {e}" for e in guard.errors]

    def restore_governors(self) -> None:
        """Put the governors back now (at the end of the run, so a failure shows in the
        summary): a value that cannot be restored is a note and a warning, never silent (a
        warning even under ``filterwarnings = error``: the run's results are already out)."""
        if self.governor is None:
            return
        self.governor.restore()
        failures, self.governor.restore_failures = self.governor.restore_failures, []
        if not failures:
            return
        self.notes += failures
        with warnings.catch_warnings():
            warnings.simplefilter("default", SbcBenchWarning)
            for failure in failures:
                warnings.warn(SbcBenchWarning(failure), stacklevel=1)

    def last_restore(self) -> list[str]:
        """At unconfigure: the governors back (normally done already); what failed."""
        if self.governor is None:
            return []
        self.governor.restore()
        return list(self.governor.restore_failures)

    def start(self, target: RunTarget, skipped: str | None) -> None:
        """System checks and the real-clock check, before the first workload only; on a
        captured tree or a remote board they are skipped with the note ``skipped``."""
        if self.started:
            return
        self.started = True
        if not target.settings.sysroot.is_host:
            self.notes.append(skipped or REPLAY_NOTE)
            return
        from ..measure.syschecks import run_system_checks
        from ..model import Finding

        self.system_checks = run_system_checks(executor=target.executor)
        if self.system_checks.on_battery:
            self.findings.append(Finding("power-supply", "running on battery"))
        self.check_real_clock(target, "before")

    def check_real_clock(self, target: RunTarget, when: str) -> None:
        from ..measure import realclock
        from ..model import Finding

        settings = target.settings
        try:
            readings = realclock.check_clusters(settings.sysroot, settings.cache_root,
                                                executor=target.executor, host=target.host)
        except Exception as exc:  # a diagnostic: report why, keep benchmarking
            self.notes.append(f"real-clock check {when} unavailable: {exc}")
            return
        self.real_clock[when] = readings
        for r in readings:
            if r.mismatch_pct is not None and abs(r.mismatch_pct) > realclock.MISMATCH_PCT:
                self.findings.append(Finding(
                    "real-clock", f"cpu{r.cpu} {when}: measured {r.measured_mhz:.0f} MHz but "
                                  f"cpufreq says {r.cpufreq_mhz:.0f} MHz ({r.mismatch_pct:+.1f}%)"))

    def after(self, target: RunTarget) -> None:
        """The real-clock check after the run (when it checked before)."""
        if self.started and target.settings.sysroot.is_host:
            self.check_real_clock(target, "after")
