"""What happens around each benchmark test: idle gate, sampler, telemetry, verdict.

The plugin's hooks call :func:`begin` before a test's call phase and :func:`end` after it;
results a test recorded are finalised here, in the pytest hook flow, so each test passes or
fails on its own."""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import Any

import pytest

from .errors import SbcBenchWarning
from .judge import physics, validity
from .judge import telemetry as telemetry_mod
from .judge.verdict import judge
from .measure import realclock
from .measure.idle import wait_for_idle
from .measure.sampler import Sampler, Trace
from .measure.syschecks import run_system_checks
from .model import Result, Verdict
from .report import trace as trace_out
from .report.progress import StatusLine, open_terminal
from .state import RunState

WORKLOAD_MARKERS = ("crypto", "compile", "scaling", "memory", "storage")


@dataclass
class Run:
    """What runs beside one workload test's call phase."""

    sampler: Sampler
    status: StatusLine | None
    gate: validity.Finding | None


def is_workload(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(name) for name in WORKLOAD_MARKERS)


def session_start(state: RunState) -> None:
    """Once, before the first workload: system checks and the real-clock check."""
    if state.started:
        return
    state.started = True
    if not state.settings.sysroot.is_host:
        state.notes.append("system checks and real-clock check skipped: --sbc-sysroot is a "
                           "captured tree, not this machine")
        return
    state.system_checks = run_system_checks()
    if state.system_checks.on_battery:
        state.session_findings.append(validity.Finding("power-supply", "running on battery"))
    check_real_clock(state, "before")


def check_real_clock(state: RunState, when: str) -> None:
    try:
        readings = realclock.check_clusters(state.settings.sysroot, state.settings.cache_root)
    except Exception as exc:  # a diagnostic: report why, keep benchmarking
        state.notes.append(f"real-clock check {when} unavailable: {exc}")
        return
    state.real_clock[when] = readings
    for r in readings:
        if r.mismatch_pct is not None and abs(r.mismatch_pct) > realclock.MISMATCH_PCT:
            state.session_findings.append(validity.Finding(
                "real-clock", f"cpu{r.cpu} {when}: measured {r.measured_mhz:.0f} MHz but "
                              f"cpufreq says {r.cpufreq_mhz:.0f} MHz ({r.mismatch_pct:+.1f}%)"))


def begin(item: pytest.Item, state: RunState, reporter: Any) -> Run:
    session_start(state)
    settings = state.settings
    _, gate = wait_for_idle(2.0 if settings.quick else 10.0)
    status = None
    if reporter is not None and reporter.verbosity >= 0 and reporter.isatty:
        if state.terminal is None:
            state.terminal = open_terminal()
        if state.terminal is not None:
            status = StatusLine(state.terminal, item.name, live=True)
    sampler = Sampler(settings.sysroot, settings.interval,
                      on_sample=status.update if status else None)
    for name, reason in sampler.unavailable.items():
        state.unavailable.setdefault(name, reason)
    sampler.start()
    return Run(sampler, status, gate)


def end(item: pytest.Item, state: RunState, run: Run | None, failed: bool) -> None:
    """Stop sampling (workload tests), finalise the test's results, and fail the test on a
    failing verdict unless it already failed on its own."""
    trace = None
    extra: list[validity.Finding] = []
    if run is not None:
        trace = run.sampler.stop()
        if run.status is not None:
            reporter = item.config.pluginmanager.get_plugin("terminalreporter")
            writer = getattr(reporter, "_tw", None)
            run.status.close(getattr(writer, "width_of_current_line", None))
        extra = [*state.session_findings, *([run.gate] if run.gate else [])]
    message = finalize(item, state, trace, extra)
    if message and not failed:
        pytest.fail(message, pytrace=False)


def finalize(item: pytest.Item, state: RunState, trace: Trace | None,
             extra: list[validity.Finding]) -> str | None:
    """Attach telemetry and findings to the test's pending results and publish them.

    Returns the failure message when a verdict fails the test (invalid, regression,
    incomparable)."""
    pending = state.pending.pop(item.nodeid, [])
    telemetry: dict[str, Any] = {}
    found: list[validity.Finding] = list(extra)
    if trace is not None:
        telemetry = telemetry_mod.summarize_trace(trace)
        found = validity.findings(trace, telemetry, extra)
        telemetry.update(validity.throttling(found))
        _write_trace(state, item.nodeid, trace)
    telemetry["findings"] = [f.as_dict() for f in found]
    failures = []
    for result in pending:
        with_telemetry = dataclasses.replace(result, telemetry=telemetry)
        verdict = verdict_for(state, with_telemetry, found)
        message = failure_message(state, verdict, found)
        if message:
            failures.append(message)
        merged = {**telemetry, **result.measurement.details}
        publish(item.config, state, dataclasses.replace(result, telemetry=merged,
                                                         verdict=verdict))
    for f in found:
        state.findings.append((item.nodeid, f))
    if found and pending and not state.settings.strict:
        warn_findings(found)
    return "\n".join(failures) or None


def verdict_for(state: RunState, result: Result, found: list[validity.Finding]) -> Verdict:
    """Implausible when a number beats physics; invalid under --sbc-strict when anything was
    found; else the baseline gate's verdict."""
    implausible = physics.check(result, state.board)
    if implausible is not None:
        return implausible
    if found and state.settings.strict:
        return Verdict("invalid", "; ".join(f.detail for f in found))
    machine = {"cpu_model": state.probe.cpu_model, "cpus": state.probe.cpus}
    return judge(result, state.baseline, state.board.name, machine)


def failure_message(state: RunState, verdict: Verdict,
                    found: list[validity.Finding]) -> str | None:
    if verdict.status == "implausible":
        return f"implausible: {verdict.detail}"
    if verdict.status == "invalid":
        return f"invalid run (--sbc-strict): {verdict.detail}"
    if verdict.status == "regression":
        noisy = [f.kind for f in found if f.kind in validity.HOST_NOISE]
        hint = (f" (this run had {', '.join(noisy)}: rerun on a quiet machine before "
                "believing it)") if noisy else ""
        return f"regression: {verdict.detail}{hint}"
    if verdict.status == "incomparable" and not state.settings.allow_incomparable:
        return f"incomparable (--sbc-allow-incomparable to pass): {verdict.detail}"
    return None


def warn_findings(found: list[validity.Finding]) -> None:
    """Findings are warnings, even under ``filterwarnings = error``: ``--sbc-strict`` is the
    switch that makes them fail a test."""
    with warnings.catch_warnings():
        warnings.simplefilter("default", SbcBenchWarning)
        for f in found:
            warnings.warn(SbcBenchWarning(f"{f.kind}: {f.detail}"), stacklevel=1)


def publish(config: pytest.Config, state: RunState, result: Result) -> None:
    state.results.append(result)
    config.hook.pytest_sbcbench_result(config=config, result=result)


def _write_trace(state: RunState, nodeid: str, trace: Trace) -> None:
    folder = state.settings.trace_dir
    if folder is None:
        return
    name = trace_out.safe_name(nodeid)
    trace_out.write_csv(trace, folder / f"{name}.csv")
    trace_out.write_png(trace, folder / f"{name}.png", nodeid)
