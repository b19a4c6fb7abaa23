"""Runs on a lab board through labgrid: the ``--lg-env`` branch of the session.

When labgrid's own pytest plugin holds an environment (``--lg-env env.yaml`` or ``LG_ENV``),
the run's commands go to that environment's target ``main`` through a
:class:`~..platform.labgrid_executor.LabgridExecutor`.  At activation the board's ``/proc`` and
``/sys`` are captured over the executor (``sh`` + ``tar`` on the board) and extracted into a
temporary directory: that tree is the run's sysroot and host, so probe, board detection, facts
and physics limits read the board, not the controller.  The place's ``board`` tag names the
board profile (and so the baseline) unless ``--board`` is given; the results environment
records the place, its tags, the board's kernel release and boot id and the env file's digest.

A target whose power is off (labgrid's ``QEMUDriver``, a board behind a ``PowerProtocol``) is
switched on and its shell waited for first; ``--sbc-lab-kernel KEY`` boots the QEMUDriver with
that key of the env's ``images:``.  :meth:`LabRun.reboot` power-cycles the board (or ``reboot``
over its shell), checks the new boot id and captures the board again
(:mod:`..platform.labgrid_power`).

Nothing here imports labgrid unless its plugin is loaded and has an environment.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BoardError, SbcBenchError
from ..platform.labgrid_env import named_env_file

if TYPE_CHECKING:
    import pytest

    from ..platform.board import BoardProfile
    from ..platform.host import Host
    from ..platform.labgrid_executor import LabgridExecutor
    from ..platform.labgrid_power import Reboot
    from ..platform.probe import Probe
    from ..platform.sysroot import Sysroot
    from .target import BoardLookup, RunTarget

ROLE = "main"
SKIPPED_CHECKS = ("system checks and real-clock check skipped: the board is remote ({name}); "
                  "they read the controller, not the board")


def from_config(config: pytest.Config) -> LabRun | None:
    """The lab run when labgrid's pytest plugin is loaded and has an environment, else None
    (then ``--sbc-lab-kernel`` is a usage error: no board to boot it on)."""
    kernel = config.getoption("sbc_lab_kernel", None)
    env = None
    if config.pluginmanager.get_plugin("labgrid") is not None:
        env = labgrid_environment(config)
    if env is None and kernel is not None:
        import pytest

        raise pytest.UsageError("--sbc-lab-kernel boots a labgrid board: it needs "
                                "-p labgrid --lg-env ENV")
    return LabRun(env, kernel=kernel) if env is not None else None


def labgrid_environment(config: pytest.Config) -> Any:
    """The ``Environment`` labgrid's plugin made in its ``pytest_configure``.  Both plugins'
    ``pytest_configure`` are ``trylast``, so when ours runs first the environment is made here
    from the same sources (``--lg-env``, else ``LG_ENV``; ``--lg-coordinator``): a run given an
    environment never silently measures the controller instead."""
    from labgrid.pytestplugin.hooks import LABGRID_ENV_KEY

    env = config.stash.get(LABGRID_ENV_KEY, None)
    if env is not None:
        return env
    path = named_env_file(config.option)
    if not path:
        return None
    from labgrid import Environment

    env = Environment(config_file=path)
    coordinator = getattr(config.option, "lg_coordinator", None)
    if coordinator:
        env.config.set_option("coordinator_address", coordinator)
    return env


def coordinator_place(target: Any, name: str | None) -> str | None:
    """The name of the place the target's ``RemotePlace`` resolved to at the coordinator:
    ``+`` (``LG_PLACE=+``, the place reserved under ``LG_TOKEN``) or a name pattern is not the
    place's name, and results of two places must be told apart.  ``name`` when it cannot be
    asked (no coordinator session)."""
    if name is None:
        return None
    for resource in getattr(target, "resources", []):
        if type(resource).__name__ != "RemotePlace":
            continue
        session = getattr(getattr(resource, "manager", None), "session", None)
        if session is None:
            return name
        from labgrid.remote.client import UserError

        try:  # the lookup labgrid's RemotePlaceManager made when the target was built
            return str(session.get_place(name).name)
        except UserError:  # the name resolves to no single place now
            return name
    return name


def board_for_place(tag: str, probe: Probe, profiles: Mapping[str, BoardProfile]
                    ) -> BoardProfile:
    """The profile the place's ``board`` tag names.  The board's own identity (device tree,
    DMI) must not contradict it; an unrecognised board (generic) takes the lab's word."""
    from ..platform.board import describe, detect

    detected = detect(probe, profiles)
    if detected.name == tag:
        return detected
    if tag not in profiles:
        raise BoardError(f"the labgrid place's tag board={tag} names no board profile; known: "
                         f"{', '.join(sorted(profiles))} (add <baselines>/boards/{tag}.json)")
    if not detected.generic:
        raise BoardError(f"the labgrid place's tag board={tag} contradicts the board itself: "
                         f"it identifies as {detected.name!r} ({describe(probe)})")
    return profiles[tag]


def attach_board(lab: LabRun, target: RunTarget, lookup: BoardLookup) -> RunTarget:
    """Point the run at the lab's board: the returned target runs there, and the place's
    ``board`` tag names the board profile unless ``--board`` was given.  labgrid's own errors
    (no such place, not acquired) become an :class:`SbcBenchError` naming labgrid.  What
    needs no board is checked first, before the board is powered (:func:`.gate.before_board`)."""
    from .gate import before_board

    before_board(target.settings)
    try:
        attached = lab.attach(target)
        tag = lab.tags.get("board")
        if target.settings.board is None and tag is not None:
            lookup.choose(board_for_place(tag, lookup.probe, lookup.profiles()))
    except SbcBenchError:
        raise
    except Exception as exc:
        raise SbcBenchError(f"labgrid: {type(exc).__name__}: {exc}") from exc
    return attached


class LabRun:
    """The labgrid environment of this run; :meth:`attach` connects and captures, once."""

    def __init__(self, env: Any, role: str = ROLE, kernel: str | None = None) -> None:
        self.env = env
        self.role = role
        self.kernel = kernel  # --sbc-lab-kernel: the images key the QEMUDriver boots
        self.reboots: list[Reboot] = []
        self.target: Any = None
        self.executor: LabgridExecutor | None = None
        self.tags: dict[str, str] = {}
        self.place: str | None = None
        self.sysroot: Sysroot | None = None
        self.note = ""
        self._tmp: Path | None = None

    @property
    def env_file(self) -> Path:
        return Path(self.env.config_file)

    def emulator_host(self) -> Host | None:
        """This controller when the board is an emulator it runs (labgrid's QEMUDriver starts
        it here): the board's speed is this machine's, so the run reads this machine too."""
        from ..platform.host import default_host
        from ..platform.labgrid_power import is_emulator, power_driver

        if self.target is None or not is_emulator(power_driver(self.target)):
            return None
        return default_host()

    def connect(self) -> LabgridExecutor:
        """The target's executor (labgrid activates SSHDriver, or the ShellDriver fallback on
        a serial console, on first use)."""
        from ..platform.labgrid_executor import LabgridExecutor, place_name, place_tags
        from ..platform.labgrid_power import select_kernel

        self.target = self.env.get_target(self.role)
        if self.target is None:
            raise SbcBenchError(f"labgrid environment {self.env_file} has no target "
                                f"{self.role!r}")
        self.tags = place_tags(self.target)
        self.place = coordinator_place(self.target, place_name(self.target))
        if self.kernel is not None:
            select_kernel(self.target, self.kernel)
        self.executor = LabgridExecutor(self.target)
        return self.executor

    def capture_board(self, executor: LabgridExecutor) -> Sysroot:
        """The board's files, captured over the executor and extracted into a temp dir."""
        from ..platform.capture import capture, extract
        from ..platform.sysroot import Sysroot

        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="sbcbench-board-"))
        boot = self._tmp / f"boot-{len(self.reboots)}"  # each boot its own tree
        boot.mkdir()
        done = capture(executor, boot / "board.tar.gz")
        self.sysroot = Sysroot(extract(done.path, boot / "root"))
        return self.sysroot

    def reboot(self, kernel: str | None = None) -> Sysroot:
        """Reboot the board (with ``kernel``: boot that images key), check its boot id changed
        and capture it again: the returned tree (also :attr:`sysroot`) is the new boot's."""
        from ..platform.labgrid_power import BoardPower

        if self.target is None or self.executor is None:
            raise SbcBenchError("labgrid: reboot before the board was attached")
        done = BoardPower(self.target, self.board_name()).reboot(kernel)
        self.reboots.append(done)
        return self.capture_board(self.executor)

    def board_name(self) -> str:
        """What errors call the board: its place, else the executor's target name."""
        return f"place {self.place}" if self.place else (
            self.executor.name if self.executor else self.role)

    def attach(self, target: RunTarget) -> RunTarget:
        """The run's target on the board: its executor, its captured sysroot and a host
        reading that tree (``note`` says which place and how)."""
        from ..platform.host import SysrootHost
        from ..platform.labgrid_power import power_note

        executor = self.connect()
        sysroot = self.capture_board(executor)
        settings = dataclasses.replace(target.settings, sysroot=sysroot, sysroot_given=True)
        tags = " ".join(f"{k}={v}" for k, v in sorted(self.tags.items())) or "none"
        self.note = (f"labgrid: place {self.place or '?'} (tags {tags}) through "
                     f"{executor.name}; /proc and /sys captured on the board"
                     f"{power_note(self.target)}")
        return target.replace(settings=settings, executor=executor, host=SysrootHost(sysroot))

    def skipped_checks(self) -> str:
        return SKIPPED_CHECKS.format(name=self.executor.name if self.executor else self.role)

    def environment(self) -> dict[str, Any]:
        """The results environment's ``lab`` block."""
        from ..platform.labgrid_executor import env_digest
        from ..platform.labgrid_power import lab_power
        from ..platform.sysroot import PROC, SYS

        def board_file(rel: str) -> str | None:
            text = self.sysroot.read(rel, default="") if self.sysroot else ""
            return text.strip() or None
        return {
            "executor": self.executor.name if self.executor else None,
            "place": self.place,
            "tags": dict(self.tags),
            "env_file": str(self.env_file),
            "env_digest": env_digest(self.env_file),
            "kernel_release": board_file(f"{PROC}/{SYS}/kernel/osrelease"),
            "boot_id": board_file(f"{PROC}/{SYS}/kernel/random/boot_id"),
            **lab_power(self.target),
            "reboots": [r.as_dict() for r in self.reboots],
        }

    def close(self) -> str | None:
        """Release the target's drivers and remove the captured tree.  A cleanup that fails
        (an emulator killed by the Ctrl-C that ended the run, a board gone) is one line
        returned, not an exception out of pytest's unconfigure (exit 1 with a traceback), and
        labgrid's own retry at exit, which would print its traceback, is cancelled."""
        try:
            if self.target is not None:
                self.target.cleanup()
        except Exception as exc:
            import atexit

            atexit.unregister(getattr(self.target, "_atexit_cleanup", lambda: None))
            return (f"labgrid: releasing {self.board_name()} failed ({type(exc).__name__}: "
                    f"{exc}); its drivers were left as they were")
        finally:
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
        return None


def after_reboot(lab: LabRun, target: RunTarget, lookup: BoardLookup
                 ) -> tuple[RunTarget, BoardLookup]:
    """Reboot the lab board (the run's ``--sbc-lab-kernel``, if any) and return the target on
    the new boot and a lookup that probes the new tree (CPUs online may differ: a BSP change)
    while judging as the same board."""
    from ..platform.host import SysrootHost
    from .target import BoardLookup

    board = lookup.board
    try:
        sysroot = lab.reboot(target.settings.lab_kernel)
    except SbcBenchError:
        raise
    except Exception as exc:
        raise SbcBenchError(f"labgrid: reboot of {lab.board_name()}: {type(exc).__name__}: "
                            f"{exc}") from exc
    settings = dataclasses.replace(target.settings, sysroot=sysroot, sysroot_given=True)
    moved = target.replace(settings=settings, host=SysrootHost(sysroot))
    fresh = BoardLookup(lambda: moved.settings, lookup.hook_profiles)
    fresh.choose(board)
    return moved, fresh
