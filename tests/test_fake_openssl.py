"""The stand-in openssl (scripts/fake-openssl/openssl): real -mr format, chosen noise and boots."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_sbcbench.measure.openssl import parse_version
from pytest_sbcbench.measure.openssl_parse import parse_speed

FAKE = Path(__file__).parent.parent / "scripts" / "fake-openssl" / "openssl"
SPEED = ["speed", "-mr", "-seconds", "1"]


def fake(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SBCBENCH_FAKE_")}
    return subprocess.run([sys.executable, str(FAKE), *args], capture_output=True, text=True,
                          env={**clean, **env}, check=False, timeout=30)


def gcm(tmp_path: Path, runs: int, **env: str) -> list[float]:
    """Bytes/s of AES-128-GCM from ``runs`` invocations, read by the project's parser."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    state = str(tmp_path / "count")
    out = []
    for _ in range(runs):
        done = fake([*SPEED, "-evp", "aes-128-gcm", "-bytes", "16384"], SBCBENCH_FAKE_SEED="7",
                    SBCBENCH_FAKE_STATE=state, **env)
        assert done.returncode == 0, done.stderr
        value = parse_speed(done.stdout, "3.0.19").bytes_per_second("aes-128-gcm", 16384)
        assert value is not None
        out.append(value)
    return out


def test_version_banner_is_openssl_3() -> None:
    assert parse_version(fake(["version"]).stdout) == "3.0.19"


def test_output_is_the_real_mr_format() -> None:
    real = (Path(__file__).parent / "data" / "this_machine" /
            "openssl-3.0.19_mr_evp-aes-128-gcm_bytes16384.txt").read_text().splitlines()
    mine = fake([*SPEED, "-evp", "aes-128-gcm", "-bytes", "16384"]).stdout.splitlines()
    assert mine[0] == real[0] == "+H:16384"
    assert mine[1].rsplit(":", 1)[0] == real[1].rsplit(":", 1)[0] == "+F:25:AES-128-GCM"


def test_noise_and_boot_offset_follow_the_environment(tmp_path: Path) -> None:
    quiet = gcm(tmp_path / "a", 20, SBCBENCH_FAKE_CV="1.0", SBCBENCH_FAKE_BOOT_OFFSET="0")
    cv = statistics.stdev(quiet) / statistics.fmean(quiet)
    assert 0.005 < cv < 0.016  # 20 draws at CV 1% (seeded)
    assert gcm(tmp_path / "a2", 20, SBCBENCH_FAKE_CV="1.0", SBCBENCH_FAKE_BOOT_OFFSET="0") == quiet
    shifted = gcm(tmp_path / "b", 20, SBCBENCH_FAKE_CV="1.0", SBCBENCH_FAKE_BOOT_OFFSET="-4")
    assert statistics.fmean(shifted) / statistics.fmean(quiet) == pytest.approx(0.96, abs=1e-9)


def test_drift_is_fixed_per_boot_name_and_shift_per_algorithm(tmp_path: Path) -> None:
    one = gcm(tmp_path / "a", 2, SBCBENCH_FAKE_CV="0", SBCBENCH_FAKE_DRIFT="2",
              SBCBENCH_FAKE_BOOT="boot-1")
    again = gcm(tmp_path / "b", 1, SBCBENCH_FAKE_CV="0", SBCBENCH_FAKE_DRIFT="2",
                SBCBENCH_FAKE_BOOT="boot-1")
    other = gcm(tmp_path / "c", 1, SBCBENCH_FAKE_CV="0", SBCBENCH_FAKE_DRIFT="2",
                SBCBENCH_FAKE_BOOT="boot-2")
    assert one[0] == one[1] == again[0] != other[0]
    slower = gcm(tmp_path / "d", 1, SBCBENCH_FAKE_CV="0", SBCBENCH_FAKE_DRIFT="2",
                 SBCBENCH_FAKE_BOOT="boot-1", SBCBENCH_FAKE_SHIFT="-3",
                 SBCBENCH_FAKE_SHIFT_ALGS="aes-128-gcm")
    assert slower[0] / one[0] == pytest.approx(0.97)
    untouched = gcm(tmp_path / "e", 1, SBCBENCH_FAKE_CV="0", SBCBENCH_FAKE_DRIFT="2",
                    SBCBENCH_FAKE_BOOT="boot-1", SBCBENCH_FAKE_SHIFT="-3",
                    SBCBENCH_FAKE_SHIFT_ALGS="sha256")
    assert untouched == one[:1]


def test_multi_prints_children_and_their_total() -> None:
    out = fake([*SPEED, "-multi", "2", "-evp", "sha256", "-bytes", "16384"]).stdout
    report = parse_speed(out, "3.0.19")
    children = [float(line.split(":")[4].split()[0]) for line in out.splitlines()
                if line.startswith("Got: +F:")]
    assert len(children) == 2
    assert report.bytes_per_second("sha256", 16384) == pytest.approx(sum(children), abs=0.02)


def test_signatures_and_unknown_algorithms() -> None:
    report = parse_speed(fake([*SPEED, "rsa2048"]).stdout, "3.0.19")
    assert report.rates and report.rates[0].per_second > 1000
    bad = fake([*SPEED, "-evp", "no-such-cipher"])
    assert bad.returncode == 1 and "no-such-cipher" in bad.stderr and not bad.stdout
