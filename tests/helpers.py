"""Helpers for the plugin's own tests: paths to real captures, skip marks, fake sysroot trees,
stand-in tools, a real CPU-busy child.  Imported as ``from helpers import ...`` (``tests/`` is
on ``sys.path``)."""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import psutil
import pytest

from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.settings import Settings

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent
CPUINFO = DATA / "proc_cpuinfo"
STAR64_CPUINFO = CPUINFO / "riscv64_starfive-jh7110_u74_vendor-kernel5.15_isa-ext-empty.txt"
RPI5_CPUINFO = CPUINFO / "arm64_rpi5_bcm2712_cortex-a76_features.txt"
RK3588_CPUINFO = CPUINFO / "arm64_rk3588_a55-a76_bsp5.10.66_features.txt"

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None,
                                   reason="openssl not on PATH (apt-get install openssl)")
TreeMaker = Callable[..., Path]
BUSY = "import time\nt = time.time()\nwhile time.time() - t < {s}: pass\n"


def burn(seconds: float) -> Burner:
    """A real CPU-bound process, one CPU busy for ``seconds``, outside this process's tree (its
    shell parent exits at once: it is another program on the host, as a sampler rooted at this
    process must see it, not part of the benchmark)."""
    started = subprocess.run(["sh", "-c", '"$0" -c "$1" >/dev/null 2>&1 & echo $!',
                              sys.executable, BUSY.format(s=seconds)],
                             capture_output=True, text=True, check=True)
    return Burner(int(started.stdout))


class Burner:
    """A :func:`burn` process, by pid (it is not this process's child)."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)

    def kill(self) -> None:
        with contextlib.suppress(psutil.NoSuchProcess):
            self.process.kill()

    def wait(self) -> None:
        """Until it is gone (reaped by whoever adopted it)."""
        with contextlib.suppress(psutil.NoSuchProcess):
            self.process.wait(timeout=60)


def build_tree(
    root: Path,
    cpuinfo: Path,
    model: str | None = None,
    compatible: Sequence[str] = (),
    dmi_product: str | None = None,
    max_khz: Mapping[int, int] | None = None,
    os_release: str = 'PRETTY_NAME="Test Linux 1.0"\n',
) -> Path:
    """A root file system layout with the files the platform layer reads."""
    (root / "proc/sys/kernel").mkdir(parents=True, exist_ok=True)
    (root / "proc/cpuinfo").write_text(cpuinfo.read_text())
    (root / "proc/sys/kernel/osrelease").write_text("5.15.131\n")
    (root / "proc/meminfo").write_text("MemTotal:        3987456 kB\nSwapTotal: 0 kB\n")
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc/os-release").write_text(os_release)
    dt = root / "sys/firmware/devicetree/base"
    if model is not None or compatible:
        dt.mkdir(parents=True, exist_ok=True)
    if model is not None:
        (dt / "model").write_bytes(model.encode() + b"\0")
    if compatible:
        (dt / "compatible").write_bytes(b"".join(c.encode() + b"\0" for c in compatible))
    if dmi_product is not None:
        dmi = root / "sys/class/dmi/id"
        dmi.mkdir(parents=True, exist_ok=True)
        (dmi / "product_name").write_text(dmi_product + "\n")
    for cpu, khz in (max_khz or {}).items():
        freq = root / f"sys/devices/system/cpu/cpu{cpu}/cpufreq"
        freq.mkdir(parents=True, exist_ok=True)
        (freq / "cpuinfo_max_freq").write_text(f"{khz}\n")
    return root


def star64_tree(root: Path, cur_khz: int = 1500000, governor: str = "performance",
                temp_mc: int = 56900) -> Path:
    """A Star64 as the seeds describe it: one cpufreq policy of four U74 at 1.5 GHz, a CPU
    thermal zone, 4 GB RAM and an 8 GB swapfile. The device-tree strings are those of the
    mainline Linux ``jh7110-pine64-star64.dts``; the cpuinfo is a real JH7110 capture; the
    sysfs layout follows the kernel's cpufreq and thermal ABI documentation."""
    build_tree(root, STAR64_CPUINFO, model="Pine64 Star64",
               compatible=["pine64,star64", "starfive,jh7110"],
               max_khz={c: 1500000 for c in range(4)})
    policy = root / "sys/devices/system/cpu/cpufreq/policy0"
    write_files(policy, {"related_cpus": "0 1 2 3", "affected_cpus": "0 1 2 3",
                         "cpuinfo_max_freq": "1500000", "scaling_governor": governor})
    for cpu in range(4):
        write_files(root / f"sys/devices/system/cpu/cpu{cpu}/cpufreq",
                    {"scaling_cur_freq": str(cur_khz), "scaling_governor": governor})
    write_files(root / "sys/class/thermal/thermal_zone0",
                {"type": "cpu-thermal", "temp": str(temp_mc), "trip_point_0_temp": "85000",
                 "trip_point_0_type": "passive", "trip_point_1_temp": "100000",
                 "trip_point_1_type": "critical"})
    write_files(root / "proc", {"meminfo": "MemTotal: 3987456 kB\nMemAvailable: 3000000 kB\n"
                                           "SwapTotal: 8388604 kB\nSwapFree: 8388604 kB\n"})
    return root


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text + "\n")


# What Python prints of a list, dict, None or a bool: never in text meant for a person.
RAW = ("[", "]", "{", "}", "None", "True", "False")


def replaying_openssl(folder: Path, speed: str, version: str) -> str:
    """A stand-in ``openssl`` made in ``folder``: ``openssl version`` prints ``version``, any
    other command the ``-mr`` output ``speed``."""
    folder.mkdir(exist_ok=True)
    (folder / "version.out").write_text(version + "\n")
    (folder / "openssl.out").write_text(speed)
    path = folder / "openssl"
    path.write_text(f"#!/bin/sh\nif [ \"$1\" = version ]; then cat '{folder}/version.out'; "
                    f"else cat '{folder}/openssl.out'; fi\n")
    path.chmod(0o755)
    return str(path)


# One saved crypto result, as the baseline tests save it (identity: openssl 3.0.19 aes-128-gcm)
AES_TEST = "benchmarks/test_crypto.py::test_cipher[aes-128-gcm]"
AES_IDENTITY = Identity.of(tool="openssl", version="3.0.19", algorithm="aes-128-gcm",
                           block_bytes=16384, threads=1, seconds=1)


def aes_result(samples: tuple[float, ...], identity: Identity = AES_IDENTITY) -> Result:
    """``AES_TEST``'s aes-128-gcm result of ``samples`` (B/s), not judged yet."""
    m = Measurement("aes-128-gcm", "B/s", "higher", identity, samples)
    return Result(AES_TEST, m, summarize(samples), Verdict("no-baseline", ""))


def listing_settings(sysroot: Path, quick: bool) -> Settings:
    """Settings as a plain ``pytest`` run would have them, for availability and plans."""
    return Settings(board=None, baselines=Path("baselines"), save_baseline=False, results=None,
                    sysroot=Sysroot(sysroot), sysroot_given=sysroot != Path("/"), quick=quick,
                    runs=None, interval=1.0, strict=False, performance=False, trace_dir=None,
                    cache=None, drop_caches=False, allow_incomparable=False, verify_key=None,
                    report_dir=None)


def cli(*argv: str) -> tuple[int, str]:
    """``sbcbench ARGV...`` in this process: its exit code and what it printed."""
    from pytest_sbcbench.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()
