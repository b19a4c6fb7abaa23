"""Fixtures for compile workloads: ``pinned_checkout`` and ``compile_bench`` (contract)."""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from .errors import SbcBenchError
from .fixtures import Bench
from .measure import timed_build as builds
from .measure.checkout import MIRROR_ENV, Tree, checkout, local_source, repo_name
from .measure.git import NetworkError
from .model import Identity, Measurement, Result
from .state import get_state

Checkout = Callable[..., Tree]
CompileBench = Callable[..., Result]


def cache_dir(config: pytest.Config) -> Path:
    return get_state(config).settings.cache_root


def network_reason(url: str, exc: NetworkError) -> str:
    name = repo_name(url)
    first = (exc.stderr.strip().splitlines() or ["no output"])[-1]
    return (f"cannot reach {url} ({first}). Provide a local mirror: clone it elsewhere and set "
            f"{MIRROR_ENV}=DIR where DIR holds {name} or {name}.git, or pass a local path or "
            "file:// URL")


@pytest.fixture
def pinned_checkout(request: pytest.FixtureRequest) -> Checkout:
    """``pinned_checkout(url, commit, expect={"files": .., "loc": .., "crates": ..},
    tier="pinned")``: a cached clone checked out detached at exactly one full SHA, with a
    verified fingerprint; skips with a reason when the remote cannot be reached."""
    cache = cache_dir(request.config)

    def pinned(url: str, commit: str, expect: Mapping[str, int] | None = None,
               tier: str = "pinned") -> Tree:
        if shutil.which("git") is None:
            pytest.skip("git not found on PATH: install it (apt-get install git)")
        try:
            return checkout(url, commit, cache, tier=tier, expect=expect,
                            cargo=shutil.which("cargo"))
        except NetworkError as exc:
            pytest.skip(network_reason(url, exc))
        except SbcBenchError as exc:
            pytest.fail(str(exc), pytrace=False)
    return pinned


def _lock_digest(tree: Tree) -> str | None:
    if tree.fingerprint.lockfile != "generated":
        return None
    return hashlib.sha256((tree.path / "Cargo.lock").read_bytes()).hexdigest()[:16]


def repository(url: str) -> str:
    """Remote URLs as given; local paths by name only, so a cache location is not identity
    (the full SHA and the fingerprint say which tree it is)."""
    if local_source(url) == url and not url.startswith("file://"):
        return url
    return "local:" + repo_name(url)


def identity(tree: Tree, build: Sequence[str], jobs: int | None) -> Identity:
    fp = tree.fingerprint
    return Identity.of(tool=Path(build[0]).name, repository=repository(tree.url),
                       commit=tree.sha,
                       tier=tree.tier, files=fp.files, loc=fp.loc, crates=fp.crates,
                       lockfile=fp.lockfile, lock_sha256=_lock_digest(tree),
                       toolchain=builds.toolchain(build), build=" ".join(build),
                       jobs=jobs if jobs is not None else "default")


def _benchmark(request: pytest.FixtureRequest) -> Any:
    """pytest-benchmark's fixture when that plugin is active and enabled, else None."""
    if not request.config.pluginmanager.hasplugin("benchmark"):
        return None
    fixture = request.getfixturevalue("benchmark")
    return None if getattr(fixture, "disabled", False) else fixture


@pytest.fixture
def compile_bench(request: pytest.FixtureRequest, sbcbench: Bench) -> CompileBench:
    """``compile_bench(tree, build=[...], clean=[...], runs=None, warmup=1, jobs=None,
    env=None)``: untimed warm-up builds, then timed clean builds; returns the judged result."""
    state = get_state(request.config)

    def bench(tree: Tree, build: Sequence[str], clean: Sequence[str], runs: int | None = None,
              warmup: int = 1, jobs: int | None = None,
              env: Mapping[str, str] | None = None) -> Result:
        if shutil.which(build[0]) is None:
            pytest.skip(f"{build[0]} not found on PATH: install it to run this build")
        argv = builds.with_jobs(build, jobs)
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        log = cache_dir(request.config) / "logs" / f"{tree.path.name}-{tree.sha[:12]}-{stamp}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        drop = None
        if state.settings.drop_caches:
            if os.geteuid() != 0:
                pytest.fail("--sbc-drop-caches needs root", pytrace=False)
            drop = state.settings.sysroot.drop_caches
        for _ in range(warmup):
            builds.run_logged(argv, tree.path, log, env, "warm-up build")
        prepare = builds.prepare_clean(clean, tree.path, log, env, drop)
        done: list[builds.BuildRun] = []
        count = runs if runs is not None else state.settings.runs_for()
        ident = identity(tree, build, jobs)

        def timed() -> None:
            done.append(builds.run_logged(argv, tree.path, log, env, "build"))
        fixture = _benchmark(request)
        if fixture is not None:
            fixture.extra_info.update(ident.as_dict())
            fixture.pedantic(timed, setup=prepare, rounds=count, iterations=1, warmup_rounds=0)
        else:
            for _ in range(count):
                prepare()
                timed()
        name = repo_name(tree.url)
        return sbcbench.record(Measurement(
            "build-time", "s", "lower", ident, tuple(r.wall_s for r in done),
            label=f"{name}@{tree.sha[:7]} {tree.tier}",
            details={"runs": [r.as_dict() for r in done], "log": str(log),
                     "warmup_builds": warmup}))
    return bench
