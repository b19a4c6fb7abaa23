"""What one run measures: its settings, where its commands run (the executor), where its process
and system readings come from (the host), and the board it is judged as.

A :class:`RunTarget` is frozen: it is built for this machine (:func:`local`) or *returned* by
the lab (:meth:`pytest_sbcbench.run.lab.LabRun.attach`), never patched in place.  The board
(probe, profiles, resolution) is looked up lazily by :class:`BoardLookup`, because a host
without ``/proc`` must be able to start a run that never needs the board."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import SbcBenchError

if TYPE_CHECKING:
    from ..platform.board import BoardProfile
    from ..platform.executor import Executor
    from ..platform.host import Host
    from ..platform.probe import Probe
    from ..settings import Settings
    from ..workload import Context, Workload


@dataclass(frozen=True)
class RunTarget:
    """The settings, executor and host of one run; ``remote`` when the executor is a board's."""

    settings: Settings
    executor: Executor
    host: Host

    @property
    def remote(self) -> Executor | None:
        return None if self.executor.is_local else self.executor

    def context(self, workload: Workload, shared: dict[str, Any],
                tools: dict[str, str | None]) -> Context:
        """What ``workload`` sees on this target, with the boot's ``shared`` cache and the
        ``tools`` found (:class:`.recorder.Recorder` keeps both)."""
        from ..workload import Context

        return Context(self.settings, self.executor, self.host, shared, tools,
                       plan=workload.plan(self.settings))

    def replace(self, **changes: Any) -> RunTarget:
        """A copy with ``changes`` (tests hand a scripted host or executor this way)."""
        return dataclasses.replace(self, **changes)


def local(settings: Settings) -> RunTarget:
    """This machine, or a captured tree given as ``--sbc-sysroot`` (it replays hermetically:
    its readings come from the tree)."""
    from ..platform.executor import default_executor
    from ..platform.host import SysrootHost, default_host

    sysroot = settings.sysroot
    host = default_host() if sysroot.is_host else SysrootHost(sysroot)
    return RunTarget(settings, default_executor(), host)


class BoardLookup:
    """The board the run is judged as: probed from the target's sysroot, resolved against the
    built-in, ``<baselines>/boards`` and hook-contributed profiles; each step once."""

    def __init__(self, settings: Callable[[], Settings],
                 hook_profiles: Callable[[], list[BoardProfile]]) -> None:
        self._settings = settings
        self._hook_profiles = hook_profiles
        self._probe: Probe | None = None
        self._profiles: dict[str, BoardProfile] | None = None
        self._board: BoardProfile | None = None
        self._unresolved: SbcBenchError | None = None  # why it failed (asked again per test)

    @property
    def hook_profiles(self) -> Callable[[], list[BoardProfile]]:
        return self._hook_profiles

    @property
    def probe(self) -> Probe:
        if self._probe is None:
            from ..platform.probe import probe

            self._probe = probe(self._settings().sysroot)
        return self._probe

    def profiles(self) -> dict[str, BoardProfile]:
        """Built-in, then ``<baselines>/boards``, then hook-contributed profiles; under
        ``--sbc-verify-key`` each profile file in ``<baselines>/boards`` must carry a valid
        signature (it sets the physics gate's limits)."""
        if self._profiles is None:
            from ..judge.signing import signed_file_check
            from ..platform.board import known_profiles

            settings = self._settings()
            verify = (None if settings.verify_key is None
                      else signed_file_check(settings.verify_key, "board profile"))
            self._profiles = known_profiles(settings.baselines, self._hook_profiles(), verify)
        return self._profiles

    @property
    def resolved(self) -> bool:
        return self._board is not None

    @property
    def board(self) -> BoardProfile:
        """The board being judged; raises :class:`..errors.BoardError` on a mismatch (once:
        later asks raise the same reason without probing again)."""
        if self._board is None:
            if self._unresolved is not None:
                raise self._unresolved.with_traceback(None)
            from ..platform.board import resolve

            try:
                self._board = resolve(self._settings().board, self.probe, self.profiles())
            except SbcBenchError as exc:
                self._unresolved = exc
                raise
        return self._board

    def choose(self, board: BoardProfile) -> None:
        """The board another source named (a labgrid place's tag)."""
        self._board = board

    @property
    def machine(self) -> dict[str, Any]:
        """What a run records of its machine: the CPU model (a baseline must match it) and
        the CPUs online."""
        return {"cpu_model": self.probe.cpu_model, "cpus": self.probe.cpus}
