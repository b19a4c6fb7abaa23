"""Issue 28 on the QEMU lab: a misspelled ``--sbc-baselines`` in gate mode fails before the
board is powered.  The board is the env file ``SBCBENCH_QEMU_ENV`` names (as in
tests/test_labgrid_qemu.py, which skips the same way); its QEMU is wrapped by a script that
leaves a mark when labgrid starts it, so "never powered" is what the run did, not a guess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from test_labgrid_qemu import REPO, qemu_env


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
