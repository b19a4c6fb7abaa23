"""Clean release builds of pinned trees: untimed warm-up builds, then one timed clean build per
timed run (one sample of the build time).  The registry holds the seeds' standard workload in
two tiers and an offline crate:

- pinned: ballistics-engine at 2821bba, the tree the archived fleet was measured on
  (43 .rs files, 16,639 lines, 144 crates; no Cargo.lock at that commit, so dependencies resolve
  fresh and the lock's digest goes into the identity);
- head: b0cfcd4 (196 files, 155,867 lines), comparable only to itself;
- offline: a generated dependency-free crate with a fixed commit, so a fresh machine with no
  network always measures something real.

Without network the ballistics-engine workloads skip and say how to provide a mirror
(``SBCBENCH_GIT_MIRROR``).  ``compile_bench`` runs any tree through the same class.

On a remote board (a labgrid target) the tree is still checked out and fingerprinted here, then
sent to the board and verified there (:mod:`..measure.board_tree`); the builds run on the board
and each timed one is timed there (:mod:`..measure.board_timing`)."""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import SbcBenchError
from ..model import Identity, Measurement
from ..workload import BaseWorkload, Context, Plan, TimedRun, Unavailable

if TYPE_CHECKING:
    from ..measure.board_tree import BoardTree
    from ..measure.checkout import Tree
    from ..measure.git import NetworkError
    from ..platform.executor import Executor
    from ..settings import Settings

BALLISTICS = "https://github.com/ajokela/ballistics-engine"
CARGO_BUILD = ("cargo", "build", "--release")
CARGO_CLEAN = ("cargo", "clean")


@dataclass(frozen=True)
class Source:
    """A tree to check out: ``url`` (or a function of the cache giving one), a commit, the
    fingerprint it must have, its tier."""

    url: str | Callable[[Path], str]
    commit: str
    expect: Mapping[str, int] | None = None
    tier: str = "pinned"

    def resolve_url(self, cache: Path) -> str:
        return self.url if isinstance(self.url, str) else self.url(cache)


def network_reason(url: str, exc: NetworkError) -> str:
    from ..measure.checkout import MIRROR_ENV, repo_name

    name = repo_name(url)
    first = (exc.stderr.strip().splitlines() or ["no output"])[-1]
    return (f"cannot reach {url} ({first}). Provide a local mirror: clone it elsewhere and set "
            f"{MIRROR_ENV}=DIR where DIR holds {name} or {name}.git, or pass a local path or "
            "file:// URL")


def check_out(source: Source, cache: Path) -> Tree:
    """The pinned tree, or :class:`Unavailable` when its remote cannot be reached.

    The clone lives in this machine's cache, so git and cargo are looked up here."""
    from ..measure.checkout import checkout
    from ..measure.git import NetworkError

    if shutil.which("git") is None:
        raise Unavailable("git not found on PATH: install it (apt-get install git)")
    url = source.resolve_url(cache)
    try:
        return checkout(url, source.commit, cache, tier=source.tier, expect=source.expect,
                        cargo=shutil.which("cargo"))
    except NetworkError as exc:
        raise Unavailable(network_reason(url, exc)) from exc


def repository(url: str) -> str:
    """Remote URLs as given; local paths by name only, so a cache location is not identity
    (the full SHA and the fingerprint say which tree it is)."""
    from ..measure.checkout import local_source, repo_name

    if local_source(url) == url and not url.startswith("file://"):
        return url
    return "local:" + repo_name(url)


def _lock_digest(tree: Tree) -> str | None:
    if tree.fingerprint.lockfile != "generated":
        return None
    return hashlib.sha256((tree.path / "Cargo.lock").read_bytes()).hexdigest()[:16]


def tree_identity(tree: Tree, build: Sequence[str], jobs: int | None, *,
                  executor: Executor | None = None) -> Identity:
    from ..measure import timed_build as builds

    fp = tree.fingerprint
    return Identity.of(tool=Path(build[0]).name, repository=repository(tree.url),
                       commit=tree.sha, tier=tree.tier, files=fp.files, loc=fp.loc,
                       crates=fp.crates, lockfile=fp.lockfile, lock_sha256=_lock_digest(tree),
                       toolchain=builds.toolchain(build, executor=executor),
                       build=" ".join(build),
                       jobs=jobs if jobs is not None else "default")


@dataclass
class BuildSpec:
    build: Sequence[str]
    clean: Sequence[str]
    warmup: int = 1
    jobs: int | None = None
    env: Mapping[str, str] | None = None
    runs: int | None = None
    expected_build_s: float = 60.0
    extra: dict[str, Any] = field(default_factory=dict)


class Build(BaseWorkload):
    """Timed clean builds of one tree (a :class:`Source` to check out, or a given tree).

    ``uses_pytest_benchmark``: the timed runs also go through pytest-benchmark's
    ``benchmark.pedantic`` when that plugin is active."""

    markers = ("compile",)
    description = "clean release builds of pinned source trees"
    uses_pytest_benchmark = True

    def __init__(self, name: str, test: str, spec: BuildSpec, source: Source | None = None,
                 tree: Tree | None = None) -> None:
        self.name = name
        self.test = test
        self.spec = spec
        self.source = source
        self.tree = tree

    @property
    def param(self) -> str:
        return ""

    def available(self, ctx: Context) -> str | None:
        from ..measure.tools import not_found, which

        if not ctx.executor.is_local:
            return self.board_reason(ctx)
        tool = self.spec.build[0]
        if which(tool, executor=ctx.executor) is None:
            return not_found(tool, "install it to run this build")
        if ctx.host.children_times() is None:
            return ("this host cannot account a build's CPU time (--sbc-sysroot is a captured "
                    "tree: builds need the live machine)")
        if self.source is not None and shutil.which("git") is None:
            return "git not found on PATH: install it (apt-get install git)"
        return None

    def board_reason(self, ctx: Context) -> str | None:
        """Why this build cannot run on the remote board: a tool missing there (the build
        tool; ``tar``, ``sha256sum``, ``find``, ``sort`` for the tree) or git here."""
        from ..measure.board_tree import BOARD_TOOLS, missing_tools

        missing = missing_tools(ctx.executor, (self.spec.build[0], *BOARD_TOOLS))
        if missing:
            return (f"{', '.join(missing)} not found on the board's PATH ({ctx.executor.name}):"
                    " install them in the board image (the build runs there; the tree is "
                    "unpacked with tar and verified with find, sort and sha256sum)")
        if self.source is not None and shutil.which("git") is None:
            return ("git not found on this controller's PATH (the tree is checked out here, "
                    "then sent to the board): install it (apt-get install git)")
        return None

    def plan(self, settings: Settings) -> Plan:
        runs = self.spec.runs
        one = self.spec.expected_build_s
        return Plan(runs=runs or 3, quick_runs=runs or 2, seconds=one, quick_seconds=one,
                    setup_s=one * (self.spec.warmup + 1), fixed=runs is not None)

    def prepare(self, ctx: Context) -> None:
        from ..measure import timed_build as builds

        tree = self.tree if self.tree is not None else check_out(self.source_or_fail(), ctx.cache)
        if not ctx.executor.is_local:
            self.prepare_board(ctx, tree)
            return
        if ctx.settings.drop_caches and os.geteuid() != 0:
            raise SbcBenchError("--sbc-drop-caches needs root")
        drop = ctx.sysroot.drop_caches if ctx.settings.drop_caches else None
        argv = builds.with_jobs(self.spec.build, self.spec.jobs)
        log = build_log(ctx, tree)
        for _ in range(self.spec.warmup):
            builds.run_logged(argv, tree.path, log, self.spec.env, "warm-up build",
                              executor=ctx.executor, host=ctx.host)
        ctx.scratch.update(tree=tree, argv=argv, log=log, clean=builds.prepare_clean(
            self.spec.clean, tree.path, log, self.spec.env, drop, executor=ctx.executor,
            host=ctx.host))

    def prepare_board(self, ctx: Context, tree: Tree) -> None:
        """The remote board's build: the tree checked out here is sent to a new directory on
        the board and verified there, then warmed up there (see :mod:`..measure.board_tree`)."""
        from ..measure import board_tree
        from ..measure import timed_build as builds
        from ..measure.checkout import repo_name

        if ctx.settings.drop_caches:
            raise SbcBenchError(f"--sbc-drop-caches is not supported on a remote board yet "
                                f"({ctx.executor.name}): drop the board's caches in its image")
        argv = builds.with_jobs(self.spec.build, self.spec.jobs)
        log = build_log(ctx, tree)
        base = board_tree.board_base(ctx.executor)
        board = board_tree.transfer(tree.path, ctx.executor, base,
                                    f"{repo_name(tree.url)}-{tree.sha[:12]}")
        try:
            for _ in range(self.spec.warmup):
                builds.run_on_board(argv, board.path, log, self.spec.env, "warm-up build",
                                    executor=ctx.executor)
        except BaseException as exc:
            board_tree.remove_after(exc, board, ctx.executor)
            raise
        ctx.scratch.update(tree=tree, argv=argv, log=log, board=board,
                           clean=builds.prepare_clean_on_board(
                               self.spec.clean, board.path, log, self.spec.env,
                               executor=ctx.executor))

    def source_or_fail(self) -> Source:
        if self.source is None:
            raise SbcBenchError(f"workload {self.name} has neither a source nor a tree")
        return self.source

    def identity(self, ctx: Context) -> Identity:
        return tree_identity(ctx.scratch["tree"], self.spec.build, self.spec.jobs,
                             executor=ctx.executor)

    def reset(self, ctx: Context) -> None:
        ctx.scratch["clean"]()

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure import timed_build as builds
        from ..measure.checkout import repo_name

        tree: Tree = ctx.scratch["tree"]
        run: builds.BuildRun | builds.BoardBuildRun
        if "board" in ctx.scratch:
            run = builds.timed_on_board(ctx.scratch["argv"], ctx.scratch["board"].path,
                                        ctx.scratch["log"], self.spec.env, "build",
                                        executor=ctx.executor)
        else:
            run = builds.run_logged(ctx.scratch["argv"], tree.path, ctx.scratch["log"],
                                    self.spec.env, "build", executor=ctx.executor,
                                    host=ctx.host)
        return TimedRun.of("build-time", "s", "lower", run.wall_s,
                         label=f"{repo_name(tree.url)}@{tree.sha[:7]} {tree.tier}",
                         details=run.as_dict())

    def finish(self, ctx: Context, measurements: list[Measurement]) -> list[Measurement]:
        import dataclasses

        extra: dict[str, Any] = {"log": str(ctx.scratch["log"]),
                                 "warmup_builds": self.spec.warmup}
        board = ctx.scratch.get("board")
        if board is not None:
            extra.update(board_dir=board.path, tree_sha256=board.digest.sha256,
                         tree_files=board.digest.files)
        return [dataclasses.replace(m, details={**m.details, **extra}) for m in measurements]

    def close(self, ctx: Context) -> None:
        """The board's run directory goes on every exit path, a failed build included."""
        board = ctx.scratch.pop("board", None)
        if board is not None:
            remove_board_dir(ctx, board)


def build_log(ctx: Context, tree: Tree) -> Path:
    """This run's build log in the controller's cache (a board's output is copied there)."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    log = ctx.cache / "logs" / f"{tree.path.name}-{tree.sha[:12]}-{stamp}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    return log


def remove_board_dir(ctx: Context, board: BoardTree) -> None:
    """Remove the run's directory on the board; a failure warns (the numbers stand)."""
    import warnings

    from ..errors import SbcBenchWarning
    from ..measure import board_tree

    try:
        board_tree.remove(board, ctx.executor)
    except SbcBenchError as exc:
        warnings.warn(SbcBenchWarning(f"the board build directory stays: {exc}"),
                      stacklevel=2)


def _offline_url(cache: Path) -> str:
    from ..measure import offline_crate

    return f"file://{offline_crate.ensure_repo(cache)}"


def _offline_source() -> Source:
    from ..measure.offline_crate import EXPECT, SHA

    return Source(_offline_url, SHA[:10], EXPECT)


WORKLOADS = [
    Build("compile-offline-crate", "test_offline_crate",
          BuildSpec([*CARGO_BUILD, "--offline"], list(CARGO_CLEAN), expected_build_s=10),
          _offline_source()),
    Build("compile-ballistics-pinned", "test_ballistics_pinned",
          BuildSpec(list(CARGO_BUILD), list(CARGO_CLEAN), expected_build_s=120),
          Source(BALLISTICS, "2821bba", {"files": 43, "loc": 16639, "crates": 144})),
    Build("compile-ballistics-head", "test_ballistics_head",
          BuildSpec(list(CARGO_BUILD), list(CARGO_CLEAN), expected_build_s=600),
          Source(BALLISTICS, "b0cfcd4", {"files": 196, "loc": 155867}, tier="head")),
]
