"""Issue 28 on the QEMU lab: a misspelled ``--sbc-baselines`` in gate mode fails before the
board is powered.  The board is the env file ``SBCBENCH_QEMU_ENV`` names (as in
tests/test_labgrid_qemu.py, which skips the same way); its QEMU is wrapped by a script that
leaves a mark when labgrid starts it, so "never powered" is what the run did, not a guess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_labgrid_qemu import REPO, images, qemu_env


def test_a_misspelled_baselines_directory_fails_before_the_qemu_board_is_powered(
        tmp_path: Path) -> None:
    env = qemu_env()
    mark = tmp_path / "qemu-started"
    wrapper = tmp_path / "qemu"
    wrapper.write_text(f"#!/bin/sh\ntouch {mark}\nexec {env.config.get_tool('qemu')} \"$@\"\n")
    wrapper.chmod(0o755)
    config = yaml.safe_load(Path(env.config_file).read_text())
    config["tools"]["qemu"] = str(wrapper)
    env_file = tmp_path / "board.yaml"
    env_file.write_text(yaml.safe_dump(config))
    missing = tmp_path / "baselnes"
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "-p", "no:cacheprovider", "-p", "labgrid", "--lg-env", str(env_file),
            "--sbc-gate", "--sbc-baselines", str(missing)]
    keep = {k: v for k, v in os.environ.items()
            if k not in ("LG_ENV", "SBCBENCH_OPENSSL", "SBCBENCH_BOOT_ID")}
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=600,
                          check=False, env=keep)
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"the baselines directory {missing} does not exist" in done.stderr
    assert not mark.exists()  # labgrid never started the emulator
    assert "Traceback" not in done.stdout + done.stderr


def _board_run(env_file: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The quick sha256 digest through ``pytest -p labgrid --lg-env`` on the board."""
    argv = [sys.executable, "-m", "pytest", "benchmarks/test_crypto.py", "-k", "sha256",
            "--sbc-quick", "--sbc-idle-wait", "0", "-p", "no:cacheprovider", "-p", "labgrid",
            "--lg-env", str(env_file), "--sbc-baselines", str(tmp_path / "baselines"), *args]
    keep = {k: v for k, v in os.environ.items()
            if k not in ("LG_ENV", "SBCBENCH_OPENSSL", "SBCBENCH_BOOT_ID")}
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=900,
                          check=False, env=keep)


def test_a_label_s_boot_of_another_kernel_image_is_refused_on_the_qemu_board(
        tmp_path: Path) -> None:
    """Issue 28, item 4, with real boots: a label's first boot booted the env's kernel, its
    second another images key (``--sbc-lab-kernel``): under ``--sbc-gate`` the run exits 4
    naming the label and both images, and nothing is measured."""
    env = qemu_env()
    first = env.config.data["targets"]["main"]["drivers"]["QEMUDriver"]["kernel"]
    path = env.config.get_image_path
    others = [k for k in images(env) if path(k) != path(first)]
    if not others:
        pytest.skip(f"{env.config_file} has one kernel file: no other image to boot")
    other, env_file = others[0], Path(env.config_file)
    # accepted: an emulated board's boots carry their host's load and steal (quarantined else)
    saved = _board_run(env_file, tmp_path, "--sbc-save-baseline", "--sbc-accept", "test_digest")
    assert saved.returncode == 0, saved.stdout + saved.stderr
    one = _board_run(env_file, tmp_path, "--sbc-candidate", "img")
    assert one.returncode == 0, one.stdout + one.stderr
    results = tmp_path / "refused.json"
    refused = _board_run(env_file, tmp_path, "--sbc-gate", "--sbc-candidate", "img",
                         "--sbc-lab-kernel", other, "--sbc-results", str(results))
    text = refused.stdout + refused.stderr
    assert refused.returncode == 4, text
    assert "candidate 'img': this boot (" in refused.stderr
    assert f"kernel_image={other}" in refused.stderr and f"kernel_image={first}" in refused.stderr
    assert f"kernel_image {first} -> {other}" in refused.stderr
    assert "(--sbc-gate: nothing measured)" in refused.stderr and not results.exists()
