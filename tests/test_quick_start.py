"""README's "Quick start", as a new user runs it: its commands, read from README.md (so the
test and the README cannot drift), in order, on this machine, in a copy of the repository."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO
from pytest_sbcbench.run.suite import RESULTS

# what the commands need from the repository: the suite's modules, the pytest settings, the
# board profiles
COPIED = ("benchmarks", "baselines", "conftest.py", "pyproject.toml")


def quick_start(readme: str) -> list[list[str]]:
    """The commands of the first code block under ``## Quick start`` (comments dropped)."""
    section = readme[readme.index("## Quick start\n"):]
    section = section[:section.index("\n## ", 1)]
    commands, started = [], False
    for line in section.splitlines():
        if line.startswith("    "):
            started = True
            commands.append(shlex.split(line, comments=True))
        elif started and line.strip():
            break
    return [c for c in commands if c]


def argv(command: list[str]) -> list[str]:
    """The installed ``sbcbench`` and ``pytest`` of this interpreter (no virtualenv needed)."""
    tools = {"sbcbench": [sys.executable, "-m", "pytest_sbcbench.cli"],
             "pytest": [sys.executable, "-m", "pytest"]}
    assert command[0] in tools, f"the quick start runs {command[0]}, not sbcbench or pytest"
    return [*tools[command[0]], *command[1:]]


def written(command: list[str]) -> list[str]:
    """The files a quick-start command writes that a later one may name."""
    files = [command[i + 1] for i, a in enumerate(command[:-1]) if a == "--sbc-results"]
    if command[:2] == ["sbcbench", "run"] and not files:
        files.append(RESULTS)
    return files


COMMANDS = quick_start((REPO / "README.md").read_text())


def test_the_quick_start_chains_on_any_machine() -> None:
    """No step names another board (``--board star64`` exits 4 elsewhere), everything stays
    quick and crypto-only, and ``compare`` names only files the steps before it wrote."""
    assert [c[:2] for c in COMMANDS] == [["sbcbench", "list"], ["sbcbench", "run"],
                                         ["pytest", "benchmarks/"], ["sbcbench", "compare"]]
    before: list[str] = []
    for command in COMMANDS:
        assert "--board" not in command
        if command[:2] != ["sbcbench", "list"]:
            assert {"-m", "crypto", "--sbc-quick"} <= set(command) or command[1] == "compare"
        if command[1] == "compare":
            named = [a for a in command[2:] if not a.startswith("-")]
            assert named and all(name in before for name in named), (named, before)
        before += written(command)


@pytest.mark.e2e
def test_the_quick_start_runs_in_order_and_each_command_succeeds(tmp_path: Path) -> None:
    for name in COPIED:
        source = REPO / name
        if name == "baselines":  # the profiles only: no baseline saved in this checkout
            for folder in ("boards", "published"):
                shutil.copytree(source / folder, tmp_path / name / folder)
        elif source.is_dir():
            shutil.copytree(source, tmp_path / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    for command in COMMANDS:
        done = subprocess.run(argv(command), cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=1800)
        shown = f"$ {shlex.join(command)}\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
        # compare is the gate's judge and exits with its codes: 6 (undecided) is what one boot
        # a side usually gives, 0 when every metric decided; 1 (a regression) or 2/4 (the
        # files did not chain) fail the quick start
        assert done.returncode in ((0, 6) if command[1] == "compare" else (0,)), shown
        for name in written(command):
            assert (tmp_path / name).is_file(), shown
            said = [line.removeprefix("results JSON: ") for line in done.stdout.splitlines()
                    if line.startswith("results JSON: ")]
            assert [Path(p).name for p in said] == [name], shown  # where its results went
