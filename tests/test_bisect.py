"""``sbcbench bisect`` end to end on a synthetic repository: real git, real pytest runs.

A 16-commit repository whose every commit holds ``slowdown``, the change to sha512 throughput
in percent: 0 before the culprit (picked at random, seeded), a 5-10% drop from it on.  The build
command installs it (copies it where the stand-in openssl, ``scripts/fake-openssl/openssl``,
reads it through a small wrapper), so each pytest run of ``benchmarks/test_crypto.py -k sha512``
measures whatever commit was built last, as a board measures the kernel installed.  Each run is
one boot by name (``SBCBENCH_BOOT_ID``, which the bisect makes distinct per run, drives the
stand-in's per-boot drift).  No QEMU: the lab variant is tests/test_bisect_lab.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_sbcbench.judge import history

REPO = Path(__file__).resolve().parent.parent
FAKE_OPENSSL = REPO / "scripts" / "fake-openssl" / "openssl"
COMMITS = 16
SUITE = ["benchmarks", "-k", "test_digest and sha512", "--sbc-quick", "--sbc-runs", "3",
         "--sbc-idle-wait", "0", "--sbc-interval", "0.2", "-p", "no:cacheprovider"]
WRAPPER = """#!/bin/sh
SBCBENCH_FAKE_SHIFT=$(cat {installed}) SBCBENCH_FAKE_SHIFT_ALGS=sha512 \\
SBCBENCH_FAKE_BOOT="$SBCBENCH_BOOT_ID" exec {python} {fake} "$@"
"""


@dataclass(frozen=True)
class Lab:
    repo: Path
    work: Path
    installed: Path
    shas: list[str]
    culprit: int
    env: dict[str, str]

    def bisect(self, *args: str, build: str | None = None) -> subprocess.CompletedProcess[str]:
        build_args = ["--build", build or f"cp slowdown {self.installed}"]
        argv = [sys.executable, "-m", "pytest_sbcbench.cli", "bisect", "--repo", str(self.repo),
                *args]
        if "--resume" not in args:
            argv += ["--good", self.shas[0], "--bad", self.shas[-1], *build_args, "--",
                     *SUITE, "--sbc-baselines", str(self.work / "bl")]
        return subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True,
                              text=True, check=False, timeout=3600)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.email=ci@example.org", "-c",
                           "user.name=ci", *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def make_repo(repo: Path, culprit: int, slowdown: float) -> list[str]:
    """``COMMITS`` commits; commit ``culprit`` (1-based from the good end, 0) on are slower."""
    repo.mkdir()
    git(repo, "init", "-q")
    shas = []
    for i in range(COMMITS):
        (repo / "slowdown").write_text(f"{-slowdown if i >= culprit else 0}\n")
        (repo / "n").write_text(f"{i}\n")
        git(repo, "add", "slowdown", "n")
        git(repo, "commit", "-q", "-m", f"commit {i}" + (" (the culprit)" * (i == culprit)))
        shas.append(git(repo, "rev-parse", "HEAD"))
    return shas


@pytest.fixture
def lab(tmp_path: Path) -> Callable[[int], Lab]:
    def make(seed: int) -> Lab:
        rng = random.Random(seed)
        culprit, slowdown = rng.randint(1, COMMITS - 1), round(rng.uniform(5.0, 10.0), 1)
        shas = make_repo(tmp_path / "repo", culprit, slowdown)
        work = tmp_path / "work"
        (work / "benchmarks").mkdir(parents=True)
        (work / "bl").mkdir()
        (work / "pytest.ini").write_text("[pytest]\n")
        (work / "benchmarks" / "test_crypto.py").write_text(
            (REPO / "benchmarks" / "test_crypto.py").read_text())
        installed = tmp_path / "installed-slowdown"
        installed.write_text("0\n")
        wrapper = tmp_path / "bin" / "openssl"
        wrapper.parent.mkdir()
        wrapper.write_text(WRAPPER.format(installed=installed, python=sys.executable,
                                          fake=FAKE_OPENSSL))
        wrapper.chmod(0o755)
        env = {**os.environ, "SBCBENCH_OPENSSL": str(wrapper), "SBCBENCH_BOOT_ID": "ci",
               "SBCBENCH_FAKE_CV": "0.5", "SBCBENCH_FAKE_DRIFT": "0.3",
               "SBCBENCH_FAKE_SEED": str(seed),
               "SBCBENCH_FAKE_STATE": str(tmp_path / "fake-openssl.count")}
        for name in ("LG_ENV", "SBCBENCH_FAKE_SHIFT", "SBCBENCH_FAKE_BOOT_OFFSET"):
            env.pop(name, None)
        return Lab(tmp_path / "repo", work, installed, shas, culprit, env)
    return make


def result(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def test_bisect_names_the_commit_that_slowed_sha512(lab: Callable[[int], Lab]) -> None:
    """The culprit named is the planted one, its drop measured against its parent with an
    interval excluding zero; every boot went to the history under its commit's label; git's own
    bisect log is kept and the repository is given back (bisect reset)."""
    world = lab(30)
    done = world.bisect("--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = result(done)
    assert doc["culprit"] == world.shas[world.culprit], (world.culprit, doc["steps"])
    assert doc["subject"] == f"commit {world.culprit} (the culprit)"
    assert doc["metric"].startswith("sha512 threads=1")
    low, high = doc["effect"]["ci_pct"]
    assert low < doc["effect"]["change_pct"] < high < 0
    assert doc["boots"] >= 2 * 3 + len(doc["steps"]) and doc["wall_s"] > 0
    assert all(s["verdict"] in ("good", "bad", "skip") for s in doc["steps"])
    log = Path(doc["git_bisect_log_file"]).read_text()
    assert log == doc["git_bisect_log"] and f"# first bad commit: [{doc['culprit']}]" in log
    assert "git bisect start" in log
    labels = {g.label for g in history.summary(world.work / "bl" / history.FILE_NAME)}
    assert git(world.repo, "rev-parse", "--short=12", doc["culprit"]) in labels
    assert git(world.repo, "rev-parse", "--short=12", world.shas[0]) in labels
    assert subprocess.run(["git", "-C", str(world.repo), "bisect", "log"],
                          capture_output=True, check=False).returncode != 0  # reset
    assert "bisect: the ends differ on sha512" in done.stderr


def test_resume_after_ctrl_c_mid_step_names_the_same_commit(lab: Callable[[int], Lab]) -> None:
    """The build command of the 8th build (step 2: the ends take 6, interleaved) sends SIGINT
    to the bisect: it exits 2, keeps its state, and ``--resume`` replays the recorded boots and
    continues to the planted culprit, measuring no recorded boot again."""
    world = lab(31)
    counter = world.work / "builds"
    build = (f"cp slowdown {world.installed}; n=$(( $(cat {counter} 2>/dev/null || echo 0) "
             f"+ 1 )); echo $n > {counter}; if [ $n = 8 ]; then kill -INT $PPID; fi")
    stopped = world.bisect("--json", build=build)
    assert stopped.returncode == 2, stopped.stdout + stopped.stderr
    assert result(stopped)["status"] == "interrupted"
    state = json.loads((world.repo / ".git" / "sbcbench-bisect" / "state.json").read_text())
    assert state["status"] == "interrupted"
    recorded = sum(len(v) for v in state["boots"].values())
    assert recorded >= 7  # the ends and step 1
    resumed = world.bisect("--resume", "--json")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    doc = result(resumed)
    assert doc["culprit"] == world.shas[world.culprit], (world.culprit, doc["steps"])
    runs = json.loads((world.repo / ".git" / "sbcbench-bisect" / "state.json").read_text())
    assert runs["runs"] == doc["boots"]  # one pytest run per boot, none repeated
    assert doc["boots"] > recorded


def test_a_failed_build_stops_naming_the_commit_and_its_last_lines(
        lab: Callable[[int], Lab]) -> None:
    """Exit 3, the commit and the build's last lines named, no pytest run; the state says
    stopped, so --resume would build it again."""
    world = lab(32)
    done = world.bisect(build="echo 'cc1: out of memory' >&2; exit 1")
    assert done.returncode == 3, done.stdout + done.stderr
    assert world.shas[0] in done.stdout and "cc1: out of memory" in done.stdout
    assert "exited 1" in done.stdout
    state = json.loads((world.repo / ".git" / "sbcbench-bisect" / "state.json").read_text())
    assert state["status"] == "stopped" and state["runs"] == 0
    again = world.bisect()
    assert again.returncode == 2 and "--resume" in again.stderr  # no second bisect over it


def test_unusable_arguments_exit_2(lab: Callable[[int], Lab]) -> None:
    world = lab(33)
    base = [sys.executable, "-m", "pytest_sbcbench.cli", "bisect"]
    missing = subprocess.run([*base, "--repo", str(world.repo)], capture_output=True,
                             text=True, check=False)
    assert missing.returncode == 2 and "--good, --bad, --build, -- PYTEST_ARGS" in \
        missing.stderr
    nothing = subprocess.run([*base, "--resume", "--repo", str(world.repo)],
                             capture_output=True, text=True, check=False)
    assert nothing.returncode == 2 and "no bisect to resume" in nothing.stderr
    backwards = subprocess.run([*base, "--repo", str(world.repo), "--good", world.shas[-1],
                                "--bad", world.shas[0], "--build", "true", "--", "-k", "x"],
                               capture_output=True, text=True, check=False)
    assert backwards.returncode == 2 and "is not an ancestor" in backwards.stderr
    unknown = subprocess.run([*base, "--repo", str(world.repo), "--good", "v0.0-nope",
                              "--bad", world.shas[0], "--build", "true", "--", "-k", "x"],
                             capture_output=True, text=True, check=False)
    assert unknown.returncode == 2 and "--good v0.0-nope: no such commit" in unknown.stderr
