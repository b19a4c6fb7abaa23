"""Clean release builds of pinned trees: the seeds' standard workload, in two tiers.

- pinned: ballistics-engine at 2821bba, the tree the archived fleet was measured on
  (43 .rs files, 16,639 lines, 144 crates; no Cargo.lock at that commit, so dependencies resolve
  fresh and the lock's digest goes into the identity);
- head: b0cfcd4 (196 files, 155,867 lines), comparable only to itself;
- offline: a generated dependency-free crate with a fixed commit, so a fresh machine with no
  network always measures something real.

Without network the ballistics-engine tests skip and say how to provide a mirror
(``SBCBENCH_GIT_MIRROR``)."""

from __future__ import annotations

import pytest

from pytest_sbcbench.fixtures_compile import Checkout, CompileBench, cache_dir
from pytest_sbcbench.measure import offline_crate

pytestmark = pytest.mark.compile

BALLISTICS = "https://github.com/ajokela/ballistics-engine"
CARGO_BUILD = ["cargo", "build", "--release"]
CARGO_CLEAN = ["cargo", "clean"]


def test_offline_crate(request: pytest.FixtureRequest, pinned_checkout: Checkout,
                       compile_bench: CompileBench) -> None:
    repo = offline_crate.ensure_repo(cache_dir(request.config))
    tree = pinned_checkout(f"file://{repo}", offline_crate.SHA[:10],
                           expect=offline_crate.EXPECT)
    result = compile_bench(tree, build=[*CARGO_BUILD, "--offline"],
                           clean=CARGO_CLEAN)
    assert result.measurement.identity.as_dict()["commit"] == offline_crate.SHA


def test_ballistics_pinned(pinned_checkout: Checkout, compile_bench: CompileBench) -> None:
    tree = pinned_checkout(BALLISTICS, "2821bba",
                           expect={"files": 43, "loc": 16639, "crates": 144})
    compile_bench(tree, build=CARGO_BUILD, clean=CARGO_CLEAN)


def test_ballistics_head(pinned_checkout: Checkout, compile_bench: CompileBench) -> None:
    tree = pinned_checkout(BALLISTICS, "b0cfcd4", expect={"files": 196, "loc": 155867},
                           tier="head")
    compile_bench(tree, build=CARGO_BUILD, clean=CARGO_CLEAN)
