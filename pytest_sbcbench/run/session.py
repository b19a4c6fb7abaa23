"""One pytest run (kept in ``config.stash``): a facade over objects with one job each: the
frozen :class:`~.target.RunTarget` (built here or returned by the lab) and its
:class:`~.target.BoardLookup`, the :class:`~.preflight.Preflight` checks, the
:class:`~.recorder.Recorder` (plans, run loop, the boot's results) and the
:class:`~.outputs.Outputs`; each test asks once for its :class:`~.trial.Trial`
(:meth:`Session.trial`).  Inert until a benchmark is collected (or an sbcbench option is
given); everything heavy is imported on first use, so a project that merely has the plugin
installed pays for none of it."""

from __future__ import annotations

import datetime as _dt
import functools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import SysrootError
from .outputs import Outputs, boot_results_path
from .preflight import Preflight
from .recorder import Recorder
from .target import BoardLookup, RunTarget, local

if TYPE_CHECKING:
    from ..judge.baseline import Baseline
    from ..judge.closing import Closing
    from ..platform.board import BoardProfile
    from ..settings import Settings
    from ..workload import Context, Workload
    from ..workloads import Registry
    from .boot import RunBoot
    from .lab import LabRun
    from .trial import Trial


class Session:
    """The run: what it measures (``target``, ``lookup``), its checks (``preflight``), its
    measurements (``recorder``), its files (``outputs``); ``clock`` times the sampler.  Only
    this module writes a session's attributes (``tests/test_layers.py`` checks it)."""

    def __init__(self, settings: Settings, hook_profiles: Callable[[], list[BoardProfile]],
                 registry: Callable[[], Registry], lab: LabRun | None = None) -> None:
        self._settings = settings
        self._target: RunTarget | None = None
        self._registry_factory = registry
        self.lab = lab  # a labgrid board (--lg-env): attached on activation
        self.lookup = BoardLookup(lambda: self.settings, hook_profiles)
        self.preflight = Preflight()
        self.recorder = Recorder(self.preflight.notes)
        self.outputs = Outputs(_now())
        self.baseline: Baseline | None = None
        self.clock: Callable[[], float] = time.monotonic
        self.active = False
        self.boot = 1  # of --sbc-boots
        self.tests: list[str] = []  # the selected benchmarks' node ids
        self.closing: Closing | None = None
        self.between_boots = False  # a boot written, the next not begun (a reboot failed)

    @property
    def settings(self) -> Settings:
        return self._target.settings if self._target is not None else self._settings

    @property
    def target(self) -> RunTarget:
        """Where the run measures: this machine until the lab returns the board's target."""
        if self._target is None:
            self._target = local(self._settings)
        return self._target

    @target.setter
    def target(self, target: RunTarget) -> None:
        self._target = target

    @functools.cached_property
    def registry(self) -> Registry:  # every workload of this run, built on first use
        return self._registry_factory()

    @property
    def board(self) -> BoardProfile:
        return self.lookup.board

    @property
    def notes(self) -> list[str]:  # the run's notes, for the summary
        return self.preflight.notes

    def activate(self) -> None:
        """Once: outputs checked, the lab's board attached, the board resolved, its baseline
        loaded, governors taken.  A mismatch or an unreadable tree stops the run; a host
        without /proc only defers (nothing that needs the board may run there)."""
        if self.active:
            return
        self.active = True
        from . import baseline_io

        self.preflight.check_outputs(self.settings, self.target.host, on_board=bool(self.lab))
        if self.lab is not None:
            from .lab import attach_board

            self.target = attach_board(self.lab, self.target, self.lookup)
            self.notes.append(self.lab.note)
        try:
            board = self.board
        except SysrootError:
            if self.settings.board is not None or self.settings.sysroot_given:
                raise
            return
        self.baseline = baseline_io.load_for_run(self.settings, board.name)
        self.preflight.take_governors(self.target)

    def install(self, boot: RunBoot) -> None:
        """The boot :mod:`.boot_cycle` planned: where it measures, its board and baseline, and
        what the recorder judges its tests against (handed over once, here)."""
        self.boot, self.tests, self.between_boots = boot.number, list(boot.tests), False
        self.target, self.lookup, self.baseline = boot.target, boot.lookup, boot.baseline
        if boot.against is not None:
            self.recorder.begin(boot.against, boot.far_boot)

    def end_boot(self) -> None:
        """This boot is written; until the next is installed nothing writes it again."""
        self.recorder.new_boot()
        self.outputs = Outputs(_now(), failed=self.outputs.failed)
        self.between_boots = True

    def trial(self, test: str, workload: Workload | None = None) -> Trial:
        """What ``test`` is recorded, watched and judged through, asked once at its set-up:
        the recorder (handed what it judges against at :meth:`install`, else
        :func:`.boot.alone`), the board and target, the checks and lab its watch starts with,
        and the context of ``workload`` (the test's registered one).  A board that cannot be
        resolved raises :class:`..errors.SbcBenchError` with the reason."""
        from .trial import Trial

        return Trial(test, self._begun(), self.target, self.preflight, self.lab, self.clock,
                     self.board, workload)

    def _begun(self) -> Recorder:
        if self.recorder.against is None:
            from .boot import alone

            self.recorder.begin(alone(self.board, self.baseline, self.lookup.machine,
                                      self.settings.strict, self.registry.limits()))
        return self.recorder

    def context(self, workload: Workload) -> Context:
        return self.recorder.context(self.target, workload)

    def finish(self, collected: bool, interrupted: bool) -> bool:
        """Results JSON, fleet report, baseline: only for an active run that has something.
        An interrupt during the real-clock check after the run skips the rest of the check;
        during the writes it is held until they are done (the baseline is then not saved).
        Returns True when such a late interrupt arrived: the run exits as interrupted."""
        if not self.active or not (self.recorder.results or collected) or self.between_boots:
            return False
        from ..platform.interrupts import deferred, signal_name

        late: list[str] = []
        if not interrupted:
            try:
                self.preflight.after(self.target)
            except KeyboardInterrupt as exc:
                late.append(str(exc) or "SIGINT")
        with deferred() as held:
            self.closing = self._begun().close()
            self.notes.extend(self.outputs.write_boot(
                self.target, self.lookup, self.preflight, self.recorder, self.lab,
                # without a lab a run is one boot of its label (recorded by hand): its last
                boot_results_path(self.settings, self.boot, True if self.lab is None else None),
                interrupted,
                lambda: interrupted or bool(late or held.received)))
        late += [signal_name(s) for s in held.received]
        if late:
            self.notes.append(f"interrupted ({', '.join(dict.fromkeys(late))}) while finishing "
                              "the run: the results file was written")
        return bool(late)

    def close(self) -> list[str]:
        """At unconfigure: governors back, lab closed; what failed to close."""
        failures = self.preflight.last_restore()
        if self.lab is not None:
            failures += filter(None, [self.lab.close()])
        return failures


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
