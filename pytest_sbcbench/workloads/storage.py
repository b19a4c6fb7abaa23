"""Sequential storage write and read that cannot be the page cache, judged against the interface
the platform reports (mmc bus mode and clock, SATA link speed) and the board's limits.  One
timed run is one write-then-read of the test file (a sample of each of its two metrics).  On
ZFS the page cache is not the cache that matters: the ARC is, and a dataset whose ARC would
serve the read-back is refused with the reason (:mod:`..platform.freebsd.zfs`)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import SbcBenchError
from ..model import Identity, Measurement
from ..platform.executor import default_executor
from ..platform.freebsd.system import host_is_freebsd
from ..workload import BaseWorkload, Context, Plan, TimedRun

if TYPE_CHECKING:
    from ..measure.storage import StorageThroughput, Target
    from ..platform.executor import Executor
    from ..platform.freebsd.zfs import ArcDecision
    from ..platform.host import Host
    from ..settings import Settings

MIB = 1024 * 1024


def size_bytes(quick: bool) -> int:
    """The test file: 256 MiB with ``--sbc-quick``, else 1 GiB."""
    return (256 if quick else 1024) * MIB


def check_given_path(settings: Settings, host: Host | None = None) -> None:
    """An explicitly given ``--sbc-storage-path`` that cannot hold the test (a RAM filesystem,
    no room) is a :class:`SbcBenchError` at start-up (the plugin makes it a
    usage error, exit 4): a skip would keep CI green on a misconfiguration.  The default (the
    current directory) is not checked here: there the storage test skips with the reason."""
    given = settings.storage_path
    if given is None:
        return
    from ..measure import storage

    if not given.is_dir():
        return  # said with the other output locations (fileio.validate_outputs)
    try:
        where = storage.target(given, host=host)
        storage.check(where, size_bytes(settings.quick))
        refusal = zfs_refusal(where, size_bytes(settings.quick), default_executor())
        if refusal is not None:
            raise SbcBenchError(refusal)
    except SbcBenchError as exc:
        raise SbcBenchError(f"--sbc-storage-path {given}: {exc}") from exc


def zfs_decision(where: Target, size: int, executor: Executor) -> ArcDecision | None:
    """On ZFS, whether the read-back can be the disk rather than the ARC (None off ZFS):
    :func:`..platform.freebsd.zfs.arc_cache_defeat` asks the dataset holding ``where``."""
    if where.fstype != "zfs":
        return None
    from ..platform.freebsd.zfs import arc_cache_defeat

    return arc_cache_defeat(executor, where.device, size)


def zfs_refusal(where: Target, size: int, executor: Executor) -> str | None:
    """Why a test file of ``size`` bytes in ``where`` would be read back from ZFS's ARC."""
    decision = zfs_decision(where, size, executor)
    return decision.refusal if decision is not None else None


class Sequential(BaseWorkload):
    name = "storage-sequential"
    markers = ("storage",)
    description = "sequential storage throughput"
    test = "test_sequential"

    @property
    def param(self) -> str:
        return ""

    def size(self, ctx: Context) -> int:
        return size_bytes(ctx.quick)

    def where(self, ctx: Context) -> Target:
        """The test directory's filesystem: on a remote board the board's own (resolved,
        mounted and sized there: :func:`..measure.board_storage.board_directory`), else this
        host's."""
        from ..measure import storage

        if "target" not in ctx.scratch:
            if ctx.executor.is_local:
                ctx.scratch["target"] = storage.target(
                    ctx.settings.storage_path or Path.cwd(), host=ctx.host)
            else:
                from ..measure.board_storage import board_directory

                found_on_board = board_directory(ctx.executor, board_path(ctx.settings))
                ctx.scratch["target"] = found_on_board.target
                ctx.scratch["free"] = found_on_board.free_bytes
        found: Target = ctx.scratch["target"]
        return found

    def available(self, ctx: Context) -> str | None:
        """A RAM filesystem or a disk without room skips with the reason; on a remote board an
        explicitly given ``--sbc-storage-path`` that is missing or unfit there is an error of
        the test (as it is a usage error at start-up here): a skip would keep CI green on a
        misconfiguration.  Only those refusals skip: a board that fails to say where the
        directory is (an ssh drop, an unreadable mount table, a ``df`` it cannot parse) fails
        the test loudly, never a green skip."""
        from ..measure import storage

        given_on_board = not ctx.executor.is_local and ctx.settings.storage_path is not None
        try:
            where = self.where(ctx)
        except SbcBenchError as exc:
            if given_on_board:
                raise self.given_path_error(ctx, exc) from exc
            raise
        try:
            storage.check(where, self.size(ctx), ctx.scratch.get("free"))
            decision = self.zfs(ctx)
            if decision is not None and decision.refusal is not None:
                raise SbcBenchError(decision.refusal)
        except SbcBenchError as exc:
            if given_on_board:
                raise self.given_path_error(ctx, exc) from exc
            return str(exc)
        return None

    def zfs(self, ctx: Context) -> ArcDecision | None:
        """The ARC's verdict for the test directory's dataset, asked once (None off ZFS)."""
        if "zfs" not in ctx.scratch:
            ctx.scratch["zfs"] = zfs_decision(self.where(ctx), self.size(ctx), ctx.executor)
        decision: ArcDecision | None = ctx.scratch["zfs"]
        return decision

    def given_path_error(self, ctx: Context, exc: SbcBenchError) -> SbcBenchError:
        """``exc`` naming the ``--sbc-storage-path`` given and the board it names a path on."""
        return SbcBenchError(f"--sbc-storage-path {ctx.settings.storage_path} on the board "
                             f"({ctx.executor.name}): {exc}")

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=20, quick_seconds=5)

    def identity(self, ctx: Context) -> Identity:
        from ..measure.storage import BLOCK

        where = self.where(ctx)
        return Identity.of(tool="sbcbench-storage", size_bytes=self.size(ctx),
                           block_bytes=BLOCK, fstype=where.fstype, device=where.device)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure import storage

        if not ctx.executor.is_local:
            from ..measure.board_storage import write_then_read

            run = write_then_read(ctx.executor, self.where(ctx), self.size(ctx))
            return _timed_run(run, self.zfs(ctx))
        settings = ctx.settings
        drop = settings.sysroot.drop_caches if os.geteuid() == 0 and settings.sysroot.is_host \
            and not host_is_freebsd() else None
        return _timed_run(storage.write_then_read(self.where(ctx), self.size(ctx), drop),
                          self.zfs(ctx))

    def finish(self, ctx: Context, measurements: list[Measurement]) -> list[Measurement]:
        """The interface ceiling travels in the details, where the physics gate reads it."""
        from ..platform.blockdev import interface

        where = self.where(ctx)
        details: dict[str, Any] = {"device": where.device, "mountpoint": where.mountpoint}
        iface = interface(ctx.sysroot, where.device)
        details.update(interface=iface.detail, rotational=iface.rotational)
        if iface.limit_bytes_per_s:
            details["interface_limit_bytes_per_s"] = iface.limit_bytes_per_s
        return [dataclasses.replace(m, details={**m.details, **details}) for m in measurements]


def _timed_run(run: StorageThroughput, zfs: ArcDecision | None = None) -> TimedRun:
    """The run's two metrics; on ZFS the method says how the ARC was kept out of the read."""
    method = f"{run.method}; {zfs.method}" if zfs is not None and zfs.method else run.method
    extra = {"method": method}
    return TimedRun(
        TimedRun.of("storage-write", "B/s", "higher", run.write_bytes_per_s, extra).measurements
        + TimedRun.of("storage-read", "B/s", "higher", run.read_bytes_per_s, extra).measurements)


def board_path(settings: Settings) -> str:
    """The test directory on a remote board: ``--sbc-storage-path`` names a board path
    there; without it the board's home directory (``.``: where its commands start)."""
    return str(settings.storage_path) if settings.storage_path is not None else "."


WORKLOADS = [Sequential()]
