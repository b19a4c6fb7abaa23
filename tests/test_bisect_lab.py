"""``sbcbench bisect`` on the QEMU lab: the build command installs a kernel by rewriting the
labgrid env file the suite boots from (scripts/lab_install_kernel.py), and a bisect over 16
commits finds the one that boots the A72 board with ``maxcpus=1``.

The install script is checked here on an env file written from fake paths (no emulator).  The
bisect itself needs the a72 board of ``scripts/qemu_lab.py build`` (``SBCBENCH_QEMU_ENV``) and
``SBCBENCH_QEMU_BISECT=1``: each boot is a fresh emulator run of openssl's thread scaling (63 s
a boot on the 2-core development machine at a load of 15-18) and the bisect takes 20 to 40 of
them, so ``.ci/lab`` runs it only when asked.  It needs two idle host cores: on that loaded
machine the ends could not be told apart after 12 boots each (25 minutes; docs/bisect.md)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pytest_sbcbench.run.bisect.suite import on_lab

REPO = Path(__file__).resolve().parent.parent
INSTALL = REPO / "scripts" / "lab_install_kernel.py"
BOOT_ARGS = "console=ttyAMA0 rdinit=/init"
ENV = {
    "targets": {"main": {"drivers": {
        "QEMUDriver": {"qemu_bin": "qemu", "machine": "virt", "cpu": "cortex-a72",
                       "memory": "512M", "kernel": "kernel-6.1", "boot_args": BOOT_ARGS,
                       "extra_args": "-smp 2"},
        "ShellDriver": {"prompt": "sbc-lab # ", "login_prompt": "login: ",
                        "username": "root"}}}},
    "images": {"kernel-6.1": "/nonexistent/kernel-6.1", "kernel-6.12": "/nonexistent/k612"},
    "tools": {"qemu": "/usr/bin/qemu-system-aarch64"},
}


def install(env: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(INSTALL), str(env), *args], capture_output=True,
                          text=True, check=False)


def test_the_install_script_sets_the_kernel_and_its_command_line(tmp_path: Path) -> None:
    env = tmp_path / "board.yaml"
    env.write_text(yaml.safe_dump(ENV))
    conf = tmp_path / "kernel.conf"
    conf.write_text(f"# the commit's kernel\nimage=kernel-6.12\nboot_args={BOOT_ARGS} "
                    "maxcpus=1\n")
    done = install(env, "--config", str(conf))
    assert done.returncode == 0, done.stderr
    qemu = yaml.safe_load(env.read_text())["targets"]["main"]["drivers"]["QEMUDriver"]
    assert qemu["kernel"] == "kernel-6.12" and qemu["boot_args"] == f"{BOOT_ARGS} maxcpus=1"
    assert qemu["extra_args"] == "-smp 2"  # the rest of the board is kept
    conf.write_text("boot_args=quiet\n")  # no image: this commit cannot boot
    assert install(env, "--config", str(conf)).returncode == 125
    bad = install(env, "--image", "kernel-9.9")
    assert bad.returncode == 2 and "kernel-9.9" in bad.stderr
    kernel = tmp_path / "Image"
    kernel.write_bytes(b"\0")
    assert install(env, "--kernel", str(kernel)).returncode == 0
    doc = yaml.safe_load(env.read_text())
    assert doc["images"]["installed"] == str(kernel)
    assert doc["targets"]["main"]["drivers"]["QEMUDriver"]["kernel"] == "installed"


def test_a_labgrid_suite_is_recognised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LG_ENV", raising=False)
    assert on_lab(["-p", "labgrid", "--lg-env", "e.yaml", "-k", "x"])
    assert on_lab(["-plabgrid", "--lg-env=e.yaml"])
    assert not on_lab(["--lg-env", "e.yaml"]) and not on_lab(["-p", "labgrid"])
    monkeypatch.setenv("LG_ENV", "e.yaml")
    assert on_lab(["-p", "labgrid"])


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.email=ci@example.org", "-c",
                           "user.name=ci", *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def lab_env() -> Path:
    value = os.environ.get("SBCBENCH_QEMU_ENV")
    if not value or not Path(value).is_file():
        pytest.skip("SBCBENCH_QEMU_ENV names no env file: the a72 board of scripts/qemu_lab.py")
    if not os.environ.get("SBCBENCH_QEMU_BISECT"):
        pytest.skip("a lab bisect takes 20-40 emulator boots: set SBCBENCH_QEMU_BISECT=1")
    pytest.importorskip("labgrid")
    doc = yaml.safe_load(Path(value).read_text())
    if shutil.which(doc["tools"]["qemu"]) is None or not Path(
            doc["images"]["kernel-6.1"]).exists():
        pytest.skip(f"{value}: qemu or the kernel-6.1 image is missing")
    return Path(value)


def test_bisect_on_the_a72_board_names_the_commit_that_set_maxcpus_1(tmp_path: Path) -> None:
    source = lab_env()
    board = tmp_path / "board.yaml"
    shutil.copy(source, board)
    culprit = random.Random(int(os.environ.get("SBCBENCH_QEMU_BISECT_SEED", "4"))).randint(1, 15)
    repo = tmp_path / "bsp"
    repo.mkdir()
    git(repo, "init", "-q")
    shas = []
    for i in range(16):
        args = BOOT_ARGS + (" maxcpus=1" if i >= culprit else "")
        (repo / "kernel.conf").write_text(f"image=kernel-6.1\nboot_args={args}\n")
        (repo / "n").write_text(f"{i}\n")
        git(repo, "add", "kernel.conf", "n")
        git(repo, "commit", "-q", "-m", f"bsp {i}")
        shas.append(git(repo, "rev-parse", "HEAD"))
    (tmp_path / "bl").mkdir()
    argv = [sys.executable, "-m", "pytest_sbcbench.cli", "bisect", "--repo", str(repo),
            "--good", shas[0], "--bad", shas[-1], "--metric", "threads=2", "--json",
            "--build", f"{sys.executable} {INSTALL} {board} --config kernel.conf", "--",
            "-p", "labgrid", "--lg-env", str(board),
            "benchmarks/test_scaling.py::test_openssl_scaling", "--sbc-quick",
            "--sbc-idle-wait", "0", "-p", "no:cacheprovider",
            "--sbc-baselines", str(tmp_path / "bl")]
    env = {k: v for k, v in os.environ.items() if k not in ("LG_ENV", "SBCBENCH_BOOT_ID")}
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True,
                          check=False, timeout=4 * 3600)
    print(done.stderr)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    doc = json.loads(done.stdout)
    assert doc["culprit"] == shas[culprit]
    assert "threads=2" in doc["metric"] and doc["effect"]["ci_pct"][1] < 0
