"""``sbcbench fleet run``: one pytest per labgrid place, the places reserved through labgrid's
coordinator (its own reservations, driven with ``labgrid-client``), run in parallel, released
on every path.

Per ``--places`` item (``KEY=VALUE[,KEY=VALUE...]``, one place each) a thread reserves
(``labgrid-client reserve --shell TAGS``), waits for the allocation (``labgrid-client wait``,
at most the reserve timeout), acquires the place through the token (``-p +TOKEN acquire``), runs
``python -m pytest -p labgrid --lg-env ENV PYTEST_ARGS`` with ``LG_PLACE=+TOKEN`` and
``LG_TOKEN`` set (the env file names its place as ``!template '$LG_PLACE'``; with a history
URL, ``SBCBENCH_HISTORY`` too, so every place writes to one history), its output in
``LOGS/<place>.log`` as it comes (a progress line once the place's pytest has started and
once it has collected), and always releases the place and cancels the reservation.  Every child
runs in its own session, so the terminal's Ctrl-C reaches only the fleet, which sends each
command still running one SIGINT (pytest then writes what it has and exits 2) and still runs
the releases."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..errors import SbcBenchError
from .fleet_exit import CANNOT_GATE, UNUSABLE, described, fleet_code, place_code

CLIENT_TIMEOUT_S = 60.0  # one labgrid-client call other than the wait
RELAY_GRACE_S = 10.0  # for the output pipe after pytest exited (a process it left holds it)
SUMMARY = re.compile(r"^=+ (.+?) =+$")
STARTED = "test session starts"
COLLECTED = re.compile(r"^(collected \d+ items?\b.*|\d+ workers \[\d+ items?\])$")


class FleetError(SbcBenchError):
    """The fleet cannot start (no labgrid-client, no environment file)."""


def client_tool() -> str:
    """``labgrid-client`` beside this Python (a venv), else on PATH."""
    beside = Path(sys.executable).parent / "labgrid-client"
    found = str(beside) if beside.exists() else shutil.which("labgrid-client")
    if found is None:
        raise FleetError("labgrid-client not found: pip install 'pytest-sbcbench[labgrid]'")
    return found


@dataclass
class FleetPlan:
    """What ``sbcbench fleet run`` was asked (the CLI's parse of its options)."""

    places: list[str]
    lg_env: Path
    coordinator: str
    pytest_args: list[str]
    logs: Path
    reserve_timeout: float
    history: str | None = None  # SBCBENCH_HISTORY for every place's pytest


@dataclass
class PlaceRun:
    """One ``--places`` item: its reservation, its place and how its pytest ended."""

    tags: str
    token: str | None = None
    place: str | None = None
    acquired: bool = False
    returncode: int | None = None
    code: int = UNUSABLE
    why: str = ""
    log: Path | None = None
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return f"place {self.place} [{self.tags}]" if self.place else f"[{self.tags}]"


@dataclass
class Fleet:
    """The running fleet: every child process alive right now (to interrupt them), and the
    progress lines' writer."""

    plan: FleetPlan
    say: Callable[[str], None]
    tool: str = ""
    stopping: threading.Event = field(default_factory=threading.Event)
    _live: set[subprocess.Popen[str]] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, args: Sequence[str], place: str | None = None,
             timeout: float = CLIENT_TIMEOUT_S, interruptible: bool = True
             ) -> subprocess.CompletedProcess[str]:
        """``labgrid-client -x COORDINATOR [-p PLACE] ARGS``; a timeout kills it and raises
        :class:`subprocess.TimeoutExpired`.  Not ``interruptible`` (the releases), an interrupt
        never reaches it."""
        argv = [self.tool, "-x", self.plan.coordinator, *(["-p", place] if place else []),
                *args]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True,
                                start_new_session=True)
        with self._tracked(proc) if interruptible else contextlib.nullcontext():
            try:
                out, _ = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                raise
        return subprocess.CompletedProcess(argv, proc.returncode, out, "")

    def _tracked(self, proc: subprocess.Popen[str]) -> _Tracked:
        return _Tracked(self, proc)

    def interrupt(self) -> None:
        """One SIGINT to every child still running (each in its own session: the terminal's
        Ctrl-C reached only the fleet)."""
        self.stopping.set()
        with self._lock:
            for proc in list(self._live):
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)


class _Tracked:
    def __init__(self, fleet: Fleet, proc: subprocess.Popen[str]) -> None:
        self.fleet, self.proc = fleet, proc

    def __enter__(self) -> None:
        """Tracked from now on; one started after the interrupt gets its SIGINT here."""
        with self.fleet._lock:
            self.fleet._live.add(self.proc)
        if self.fleet.stopping.is_set() and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)

    def __exit__(self, *exc: object) -> None:
        with self.fleet._lock:
            self.fleet._live.discard(self.proc)


def _failed(what: str, done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return f"labgrid-client {what} exited {done.returncode}: " \
           f"{lines[-1] if lines else 'no output'}"


def _reserve(fleet: Fleet, run: PlaceRun) -> bool:
    """Reserve by tags, wait for the allocation (at most the reserve timeout), acquire."""
    done = fleet.call(["reserve", "--shell", *run.tags.split(",")])
    run.token = next((line.split("=", 1)[1].strip() for line in done.stdout.splitlines()
                      if line.startswith("export LG_TOKEN=")), None)
    if done.returncode != 0 or not run.token:
        run.code, run.why = CANNOT_GATE, f"not reserved: {_failed('reserve', done)}"
        return False
    fleet.say(f"{run.name}: reservation {run.token} waiting for a place")
    try:
        waited = fleet.call(["wait", run.token], timeout=fleet.plan.reserve_timeout)
    except subprocess.TimeoutExpired:
        run.code = CANNOT_GATE
        run.why = (f"not reserved within {fleet.plan.reserve_timeout:g} s: no place tagged "
                   f"{run.tags} came free")
        return False
    if waited.returncode != 0 or fleet.stopping.is_set():
        run.why = "interrupted while waiting for a place" if fleet.stopping.is_set() else \
            f"not reserved: {_failed('wait', waited)}"
        run.code = UNUSABLE if fleet.stopping.is_set() else CANNOT_GATE
        return False
    shown = fleet.call(["show"], place=f"+{run.token}")
    run.place = next((m.group(1) for m in re.finditer(r"^Place '([^']+)':", shown.stdout, re.M)),
                     None)
    got = fleet.call(["acquire"], place=f"+{run.token}")
    run.acquired = got.returncode == 0
    if not run.acquired or run.place is None:
        run.code = CANNOT_GATE
        run.why = f"not acquired: {_failed('acquire', got)}" if not run.acquired else \
            f"reserved, but no place named: {_failed('show', shown)}"
        return False
    fleet.say(f"{run.name}: reserved and acquired (token {run.token})")
    return True


def _relay(fleet: Fleet, run: PlaceRun, out: IO[str], log: IO[str]) -> None:
    """The place's pytest output into its log line by line as it comes; a progress line once
    pytest's session has started and once it has collected (pytest prints neither under
    ``-q``); the last summary line (``=== 1 passed in 3.2s ===``) becomes the place's why."""
    with log:
        for line in out:
            log.write(line)
            log.flush()
            text = line.rstrip("\n")
            summary = SUMMARY.match(text)
            if summary and summary.group(1) == STARTED:
                fleet.say(f"{run.name}: pytest started")
            elif summary:
                run.why = summary.group(1)
            elif COLLECTED.match(text):
                fleet.say(f"{run.name}: pytest {text}")


def _pytest(fleet: Fleet, run: PlaceRun) -> None:
    """The suite on the acquired place; its exit status and pytest's summary line."""
    plan = fleet.plan
    assert run.place is not None and run.token is not None
    plan.logs.mkdir(parents=True, exist_ok=True)
    run.log = plan.logs / f"{run.place}.log"
    argv = [sys.executable, "-m", "pytest", "-p", "labgrid", "--lg-env", str(plan.lg_env),
            *plan.pytest_args]
    env = {**os.environ, "LG_PLACE": f"+{run.token}", "LG_TOKEN": run.token,
           "LG_COORDINATOR": plan.coordinator, "PYTHONUNBUFFERED": "1"}
    if plan.history:
        env["SBCBENCH_HISTORY"] = plan.history
    fleet.say(f"{run.name}: running pytest, output in {run.log}")
    started = time.monotonic()
    log = run.log.open("w")  # closed by the relay at the output's end
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True, env=env,
                                errors="replace", start_new_session=True)
    except BaseException:
        log.close()
        raise
    assert proc.stdout is not None
    relay = threading.Thread(target=_relay, args=(fleet, run, proc.stdout, log),
                             name=f"fleet-log-{run.place}", daemon=True)
    relay.start()
    with fleet._tracked(proc):
        run.returncode = proc.wait()
    relay.join(RELAY_GRACE_S)
    if relay.is_alive():
        fleet.say(f"{run.name}: pytest exited but a process it started still holds its "
                  f"output; {run.log} may miss that process's lines")
    run.seconds = time.monotonic() - started
    run.code = place_code(run.returncode)
    if not run.why and run.returncode < 0:
        run.why = f"pytest ended by signal {-run.returncode}"
    fleet.say(f"{run.name}: pytest exited {run.returncode} after {run.seconds:.0f} s")


def _release(fleet: Fleet, run: PlaceRun) -> None:
    """Release the place and cancel the reservation; a failure is said, never raised."""
    steps = ([(["release"], f"+{run.token}")] if run.acquired else []) + \
        ([(["cancel-reservation", run.token], None)] if run.token else [])
    for args, place in steps:
        try:
            done = fleet.call(args, place=place, interruptible=False)
        except subprocess.TimeoutExpired:
            fleet.say(f"{run.name}: labgrid-client {args[0]} timed out: release it by hand")
            continue
        if done.returncode != 0:
            fleet.say(f"{run.name}: {_failed(args[0], done)}: release it by hand")
    if run.token:
        fleet.say(f"{run.name}: released")


def _one(fleet: Fleet, run: PlaceRun, done: threading.Event) -> None:
    try:
        if not fleet.stopping.is_set() and _reserve(fleet, run) and not fleet.stopping.is_set():
            _pytest(fleet, run)
    except Exception as exc:  # one place's trouble is its own line, never the fleet's crash
        run.code, run.why = UNUSABLE, f"{type(exc).__name__}: {exc}"
    finally:
        try:
            _release(fleet, run)
        finally:
            done.set()
    if fleet.stopping.is_set() and run.returncode is None and not run.why:
        run.code, run.why = UNUSABLE, "interrupted before it ran"


def run_fleet(plan: FleetPlan, say: Callable[[str], None]) -> tuple[list[PlaceRun], bool]:
    """Every place's run, in parallel; whether the fleet was interrupted (Ctrl-C).

    The main thread waits on one event per place, not on ``Thread.join``: a join interrupted
    by Ctrl-C marks its thread finished while it still runs (Python 3.11's threading), and the
    releases would be cut off at exit."""
    fleet = Fleet(plan, say, client_tool())
    runs = [PlaceRun(tags) for tags in plan.places]
    finished = [threading.Event() for _ in runs]
    threads = [threading.Thread(target=_one, args=(fleet, run, done), name=f"fleet-{i}")
               for i, (run, done) in enumerate(zip(runs, finished, strict=True))]
    for thread in threads:
        thread.start()
    interrupted = False
    while True:
        try:
            for done in finished:
                done.wait()
            break
        except KeyboardInterrupt:
            interrupted = True
            say("interrupted: stopping every place's run, then releasing the places")
            fleet.interrupt()
    for thread in threads:
        thread.join()
    return runs, interrupted


def tally(runs: Sequence[PlaceRun], interrupted: bool) -> tuple[str, int]:
    """One line per place, then the fleet line; the fleet's exit code."""
    lines = []
    for run in runs:
        shown = f"{run.name}: {described(run.code)}"
        shown += f": {run.why}" if run.why else ""
        shown += f"; log {run.log}" if run.log else ""
        lines.append(shown)
    code = UNUSABLE if interrupted else fleet_code(run.code for run in runs)
    codes = ", ".join(str(run.code) for run in runs)
    count = f"{len(runs)} place{'' if len(runs) == 1 else 's'}"
    lines.append(f"fleet: {count}, {described(code)}"
                 + (" (interrupted)" if interrupted else f" (worst of {codes}; "
                    "order 2 > 1 > 4 > 6 > 0)"))
    return "\n".join(lines) + "\n", code
