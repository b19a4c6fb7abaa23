"""One object per pytest run (kept in ``config.stash``) that owns the run: settings, board,
baseline, executor, the run loop, results and findings.

It stays inert until a benchmark is collected (or an sbcbench option is given): then it
activates (board, baseline, governor).  Everything heavy is imported on first use, so a project
that merely has the plugin installed pays for none of it."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import pytest

from .errors import SbcBenchError, SysrootError
from .runloop import Driver, Handle, MoreNeeded, never_more, take_samples
from .settings import Settings
from .workload import Context, Workload

if TYPE_CHECKING:
    from .judge.baseline import Baseline
    from .judge.boots import BootPrior
    from .judge.sequential import SequentialPlan
    from .judge.verdict import JudgeContext
    from .lab import LabRun
    from .measure.governor import GovernorGuard
    from .measure.syschecks import SystemChecks
    from .model import ClockReading, Finding, Measurement, Result, Trace, Verdict
    from .platform.board import BoardProfile
    from .platform.executor import Executor
    from .platform.host import Host
    from .platform.probe import Probe
    from .workloads import Registry

class Session:
    """The run.  Sequential sampling plugs in at :meth:`measure`: after the planned runs, the
    loop asks the sequential decision (:func:`judge.verdict.wants_more`, with every metric's
    samples so far) whether to take one more, up to the metric's budget.  ``more_needed`` and
    ``max_runs`` override the decision and the budget (tests).  ``n_metrics`` and ``prior``
    (the suite's size and the baseline's between-boot prior) are fixed by :meth:`plan_suite`
    before the first test.

    The session owns one :class:`Executor` (where commands run) and one :class:`Host` (process
    and system CPU readings, mounts, affinity); every workload and every measurement of the
    run goes through them.  ``clock`` times the sampler (a test scripts it with the host)."""

    def __init__(self, settings: Settings, hook_profiles: Callable[[], list[BoardProfile]],
                 registry: Callable[[], Registry]) -> None:
        self.settings = settings
        self._registry_factory = registry
        self._registry: Registry | None = None
        self._hook_profiles = hook_profiles
        self.created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        self.active = False
        self.started = False
        self.results: list[Result] = []
        self.tools: dict[str, str | None] = {}
        self.shared: dict[str, Any] = {}
        self.pending: dict[str, list[Handle]] = {}
        self.findings: list[tuple[str, Finding]] = []
        self.session_findings: list[Finding] = []
        self.unavailable: dict[str, str] = {}
        self.real_clock: dict[str, list[ClockReading]] = {}
        self.notes: list[str] = []
        self.saved: list[str] | None = None  # what --sbc-save-baseline did (summary lines)
        self.trace_files: list[Path] = []
        self.baseline: Baseline | None = None
        self.governor: GovernorGuard | None = None
        self.system_checks: SystemChecks | None = None
        self.terminal: TextIO | None = None
        self.more_needed: MoreNeeded | None = None
        self.max_runs: int | None = None
        self.n_metrics = 1
        self.prior: BootPrior | None = None
        self._probe: Probe | None = None
        self._board: BoardProfile | None = None
        self._profiles: dict[str, BoardProfile] | None = None
        self._executor: Executor | None = None
        self._host: Host | None = None
        self.clock: Callable[[], float] = time.monotonic
        self.lab: LabRun | None = None  # a labgrid board (--lg-env): attached on activation

    @property
    def registry(self) -> Registry:
        """Every workload of this run (built on first use)."""
        if self._registry is None:
            self._registry = self._registry_factory()
        return self._registry

    # -- what the run is judged against -------------------------------------------------------

    @property
    def probe(self) -> Probe:
        if self._probe is None:
            from .platform.probe import probe

            self._probe = probe(self.settings.sysroot)
        return self._probe

    def profiles(self) -> dict[str, BoardProfile]:
        """Built-in, then ``<baselines>/boards``, then hook-contributed profiles."""
        if self._profiles is None:
            from .platform.board import known_profiles

            self._profiles = known_profiles(self.settings.baselines, self._hook_profiles())
        return self._profiles

    @property
    def board_resolved(self) -> bool:
        return self._board is not None

    @property
    def board(self) -> BoardProfile:
        """The board being judged; raises :class:`BoardError` on a mismatch."""
        if self._board is None:
            from .platform.board import resolve

            self._board = resolve(self.settings.board, self.probe, self.profiles())
        return self._board

    @property
    def executor(self) -> Executor:
        """Where the run's commands run: this machine unless one was given (a remote board)."""
        if self._executor is None:
            from .platform.executor import default_executor

            self._executor = default_executor()
        return self._executor

    @executor.setter
    def executor(self, executor: Executor) -> None:
        self._executor = executor

    @property
    def host(self) -> Host:
        """Process-tree and system CPU readings, mounts and affinity: through the sysroot when
        ``--sbc-sysroot`` is a captured tree (it replays hermetically), else this machine."""
        if self._host is None:
            from .platform.host import SysrootHost, default_host

            sysroot = self.settings.sysroot
            self._host = default_host() if sysroot.is_host else SysrootHost(sysroot)
        return self._host

    @host.setter
    def host(self, host: Host) -> None:
        self._host = host

    def activate(self) -> None:
        """Resolve the board, load its baseline, take over the governors; once.  A mismatch or
        an unreadable tree stops the run; a host without /proc only defers (nothing that needs
        the board may run there)."""
        if self.active:
            return
        self.active = True
        from . import run_baseline
        from .workloads.storage import check_given_path

        # every unwritable output, at once (a storage path on a remote board is the board's)
        run_baseline.check_outputs(self.settings if self.lab is None else
                                   dataclasses.replace(self.settings, storage_path=None))
        if self.lab is None:  # a path on a remote board is not checked from here
            check_given_path(self.settings, self.host)
        if self.lab is not None:
            try:
                self._board = self.lab.attach(self)
            except SbcBenchError:
                raise
            except Exception as exc:  # labgrid's own errors (no such place, not acquired)
                raise SbcBenchError(f"labgrid: {type(exc).__name__}: {exc}") from exc
        try:
            board = self.board
        except SysrootError:
            if self.settings.board is not None or self.settings.sysroot_given:
                raise
            return
        from .measure.governor import GovernorGuard

        self.baseline = run_baseline.load_for_run(self.settings, board.name)
        self.governor = GovernorGuard(self.settings.sysroot)
        if self.settings.performance:
            self._set_performance(self.governor)

    def _set_performance(self, guard: GovernorGuard) -> None:
        if self.lab is not None:
            self.notes.append("--sbc-performance: not applied on a remote board yet")
            return
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
        import warnings

        from .errors import SbcBenchWarning

        self.notes += failures
        with warnings.catch_warnings():
            warnings.simplefilter("default", SbcBenchWarning)
            for failure in failures:
                warnings.warn(SbcBenchWarning(failure), stacklevel=1)

    def close(self) -> None:
        """At unconfigure: the governors back (normally done already; a failure this late can
        only go to stderr) and the live status terminal closed."""
        if self.governor is not None:
            self.governor.restore()
            if self.governor.restore_failures:
                import sys

                print("\n".join(f"sbcbench: {f}" for f in self.governor.restore_failures),
                      file=sys.stderr)
        if self.lab is not None:
            self.lab.close()
        if self.terminal is not None:
            self.terminal.close()

    # -- once, before the first workload ------------------------------------------------------

    def start_workloads(self) -> None:
        """System checks and the real-clock check, before the first workload only."""
        if self.started:
            return
        self.started = True
        if not self.settings.sysroot.is_host:
            self.notes.append(self.lab.skipped_checks() if self.lab is not None else
                              "system checks and real-clock check skipped: --sbc-sysroot is a "
                              "captured tree, not this machine")
            return
        from .measure.syschecks import run_system_checks
        from .model import Finding

        self.system_checks = run_system_checks(executor=self.executor)
        if self.system_checks.on_battery:
            self.session_findings.append(Finding("power-supply", "running on battery"))
        self.check_real_clock("before")

    def check_real_clock(self, when: str) -> None:
        from .measure import realclock
        from .model import Finding

        try:
            readings = realclock.check_clusters(self.settings.sysroot, self.settings.cache_root,
                                                executor=self.executor, host=self.host)
        except Exception as exc:  # a diagnostic: report why, keep benchmarking
            self.notes.append(f"real-clock check {when} unavailable: {exc}")
            return
        self.real_clock[when] = readings
        for r in readings:
            if r.mismatch_pct is not None and abs(r.mismatch_pct) > realclock.MISMATCH_PCT:
                self.session_findings.append(Finding(
                    "real-clock", f"cpu{r.cpu} {when}: measured {r.measured_mhz:.0f} MHz but "
                                  f"cpufreq says {r.cpufreq_mhz:.0f} MHz ({r.mismatch_pct:+.1f}%)"))

    # -- the run loop -------------------------------------------------------------------------

    def context(self, workload: Workload) -> Context:
        return Context(self.settings, self.executor, self.host, self.shared, self.tools,
                       plan=workload.plan(self.settings))

    def plan_suite(self, tests: Sequence[str]) -> None:
        """Before the first test: n, the metrics of the collected ``tests`` that have a
        baseline (per-metric alpha 5% / n), and the baseline's between-boot prior."""
        from .judge.verdict import boot_prior, count_metrics

        self.n_metrics = count_metrics(self.baseline, tests)
        self.prior = boot_prior(self.baseline)

    def plan(self, min_runs: int, min_effect_pct: float | None = None) -> SequentialPlan:
        """A metric's plan: ``--sbc-min-effect``, else the workload's delta, else 3%; the budget
        ``--sbc-max-runs`` (or :attr:`max_runs`), else 2x the planned runs."""
        from .judge.boots import ONE_BOOT_ALLOWANCE
        from .judge.verdict import run_plan

        effect = self.settings.min_effect_pct or min_effect_pct
        budget = self.max_runs or self.settings.max_runs
        return run_plan(min_runs, budget, effect, self.n_metrics, self.prior or ONE_BOOT_ALLOWANCE)

    def _with_plan(self, measurement: Measurement, plan: SequentialPlan) -> Measurement:
        from .judge.verdict import PLAN_KEY, plan_details

        if PLAN_KEY in measurement.details:
            return measurement
        details = {**measurement.details, PLAN_KEY: plan_details(plan, self.n_metrics)}
        return dataclasses.replace(measurement, details=details)

    def record(self, test: str, measurement: Measurement,
               plan: SequentialPlan | None = None) -> Handle:
        """Queue ``measurement`` for ``test``'s verdict (given when its call phase ends), with
        its plan (a custom measurement: its samples as a fixed count)."""
        if plan is None:
            n = max(1, len(measurement.samples))
            plan = dataclasses.replace(self.plan(n), max_runs=n)
        handle = Handle(test, self._with_plan(measurement, plan))
        self.pending.setdefault(test, []).append(handle)
        return handle

    def measure(self, test: str, workload: Workload, ctx: Context,
                driver: Driver | None = None) -> list[Handle]:
        """Prepare ``workload``, take its planned samples (through ``driver`` when given, e.g.
        pytest-benchmark), then more while the sequential decision asks and the budget allows;
        record one result per metric."""
        plan = self.plan(ctx.plan.runs_for(ctx.settings), ctx.plan.min_effect_pct)
        measurements = take_samples(workload, ctx, self._more(test, plan), plan.max_runs,
                                    driver)
        return [self.record(test, m, plan) for m in measurements]

    def _more(self, test: str, plan: SequentialPlan) -> MoreNeeded:
        """The loop's question: does any metric's decision still say ``continue``?"""
        if self.more_needed is not None:
            return self.more_needed
        if self.baseline is None:
            return never_more
        from .judge.verdict import wants_more

        baseline, machine = self.baseline, self.machine

        def more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
            return any(wants_more(test, m, baseline, machine, plan) for m in measurements)
        return more

    @property
    def machine(self) -> dict[str, Any]:
        return {"cpu_model": self.probe.cpu_model, "cpus": self.probe.cpus}

    # -- after a test's call phase ------------------------------------------------------------

    def judge_context(self, found: Sequence[Finding]) -> JudgeContext:
        from .judge.verdict import JudgeContext

        return JudgeContext(self.board.name, self.board, self.baseline, self.machine,
                            tuple(found), self.settings.strict, self.prior)

    def finalize(self, nodeid: str, trace: Trace | None, extra: Sequence[Finding],
                 publish: Callable[[Result], None]) -> str | None:
        """Judge and publish the test's pending results with their telemetry and details.

        Returns the failure message when a verdict fails the test."""
        from .judge import telemetry as telemetry_mod
        from .judge import validity
        from .judge.verdict import failure_message, judge_result
        from .model import Result

        pending = self.pending.pop(nodeid, [])
        telemetry: dict[str, Any] = {}
        found: list[Finding] = list(extra)
        if trace is not None:
            telemetry = telemetry_mod.summarize_trace(trace)
            found = validity.findings(trace, telemetry, extra)
            telemetry.update(validity.throttling(found))
            self._write_trace(nodeid, trace)
        telemetry["findings"] = [f.as_dict() for f in found]
        context = self.judge_context(found) if pending else None
        failures = []
        for handle in pending:
            assert context is not None
            # judged exactly as written: the workload's details (an interface ceiling) included
            merged = {**telemetry, **handle.measurement.details}
            result = Result(handle.test, handle.measurement, handle.summary,
                            _placeholder(), merged)
            verdict = judge_result(result, context)
            message = failure_message(verdict, found, self.settings.allow_incomparable,
                                      self.settings.strict)
            if message:
                failures.append(message)
            final = dataclasses.replace(result, verdict=verdict)
            handle.settle(final)
            self.results.append(final)
            publish(final)
        if pending:  # a skipped or errored test measured nothing: its findings judge nothing
            # one summary line each (report/terminal.py), not also a warning with a source line
            self.findings += [(nodeid, f) for f in found]
        return "\n".join(failures) or None

    def _write_trace(self, nodeid: str, trace: Trace) -> None:
        folder = self.settings.trace_dir
        if folder is None:
            return
        from .report import trace as trace_out

        name = trace_out.safe_name(nodeid)
        self.trace_files.append(trace_out.write_csv(trace, folder / f"{name}.csv"))
        png = trace_out.write_png(trace, folder / f"{name}.png", nodeid)
        self.trace_files += [png] if png is not None else []

    # -- at the end ---------------------------------------------------------------------------

    def environment(self) -> dict[str, Any]:
        """The results file's environment block (plain data)."""
        from importlib import metadata

        from .platform.environment import environment

        try:
            crypto: str | None = metadata.version("cryptography")  # without importing it
        except metadata.PackageNotFoundError:
            crypto = None
        env = environment(self.settings.sysroot, self.probe, openssl=self._openssl_version(),
                          cryptography=crypto)
        env["governors"] = dict(self.governor.recorded) if self.governor else {}
        env["system_checks"] = self.system_checks.as_dict() if self.system_checks else None
        env["real_clock"] = {when: [dataclasses.asdict(r) for r in readings]
                             for when, readings in self.real_clock.items()}
        env["not_sampled"] = dict(self.unavailable)
        env["session_findings"] = [f.as_dict() for f in self.session_findings]
        if self.lab is not None:
            env["lab"] = self.lab.environment()
        return env

    def _openssl_version(self) -> str | None:
        if "openssl" in self.tools:
            return self.tools["openssl"]
        from .measure import openssl

        path = openssl.find_openssl(executor=self.executor)
        if path is None:
            return None
        try:
            return openssl.openssl_tool(path, executor=self.executor).version
        except Exception:  # the environment block is informative; the tests report tool errors
            return None

    def finish(self, collected: bool, interrupted: bool) -> bool:
        """Results JSON, fleet report, baseline: only for an active run that has something.

        Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT under the plugin) during the real-clock check
        after the run skips the rest of the check; during the writes it is held until they
        are done.  Either way the results are written and the baseline is not saved (unless
        the save had begun).  Returns True when such a late interrupt arrived: the run then
        exits as interrupted."""
        if not self.active or not (self.results or collected):
            return False
        from .platform.interrupts import deferred, signal_name

        late: list[str] = []
        if self.started and self.settings.sysroot.is_host and not interrupted:
            try:
                self.check_real_clock("after")
            except KeyboardInterrupt as exc:
                late.append(str(exc) or "SIGINT")
        with deferred() as held:
            doc = self._write_outputs(interrupted)
            if self.settings.save_baseline:
                self._save(doc, interrupted or bool(late or held.received))
        late += [signal_name(s) for s in held.received]
        if late:
            self.notes.append(f"interrupted ({', '.join(dict.fromkeys(late))}) while finishing "
                              "the run: the results file was written")
        return bool(late)

    def _write_outputs(self, interrupted: bool) -> dict[str, Any]:
        """Results JSON (``interrupted``: workloads are missing) and fleet report."""
        from .report import results as results_io

        doc: dict[str, Any] = results_io.document(self.board.name, self.created,
                                                  self.environment(), self.results,
                                                  interrupted)
        if self.settings.results is not None:
            results_io.write_json_atomic(self.settings.results, doc)
        if self.settings.report_dir is not None:
            from .report import run_in_fleet

            self.notes.append(run_in_fleet.write(self.settings.report_dir, doc,
                                                 self.settings.baselines, self.profiles()))
        return doc

    def _save(self, doc: dict[str, Any], interrupted: bool) -> None:
        from . import run_baseline

        self.saved = run_baseline.save(self.settings, self.board.name, self.results,
                                       self.created, doc["environment"], interrupted)
        if any(line.startswith("baseline saved") for line in self.saved):
            self.saved.append(self._boots_note(doc["environment"]))

    def _boots_note(self, environment: dict[str, Any]) -> str:
        """How many boots the saved metrics' baselines now have (recommend three)."""
        from .judge.saving import savable
        from .judge.verdict import boots_note

        saved, _ = savable(self.results, self.settings.accept)
        return boots_note(self.baseline, saved, environment.get("boot_id"))


def _placeholder() -> Verdict:
    from .model import Verdict

    return Verdict("no-baseline", "not judged yet")


SESSION_KEY = pytest.StashKey[Session]()


def get_session(config: pytest.Config) -> Session:
    try:
        return config.stash[SESSION_KEY]
    except KeyError:
        raise SbcBenchError("pytest-sbcbench is not configured in this session") from None
