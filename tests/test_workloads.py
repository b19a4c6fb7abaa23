"""Scaling, memory and storage workloads: topology, cache-resident refusal, storage cleanup."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import DATA, write_files
from pytest_sbcbench.errors import SbcBenchError, ToolError
from pytest_sbcbench.measure import scaling, storage, stream
from pytest_sbcbench.measure.openssl import OpensslTool
from pytest_sbcbench.measure.sysbench import parse_sysbench
from pytest_sbcbench.platform.blockdev import base_device, interface, sata_bytes_per_s
from pytest_sbcbench.platform.sysroot import Sysroot
from pytest_sbcbench.platform.topology import (
    describe_threads,
    last_level_cache,
    parse_size,
    smt_groups,
)


def cpu_tree(root: Path, siblings: dict[int, str], policies: dict[str, tuple[str, int]]) -> Path:
    cpu = root / "sys/devices/system/cpu"
    for n, sibs in siblings.items():
        write_files(cpu / f"cpu{n}/topology", {"thread_siblings_list": sibs})
    for name, (cpus, khz) in policies.items():
        write_files(cpu / "cpufreq" / name, {"related_cpus": cpus, "cpuinfo_max_freq": str(khz)})
    return root


def test_smt_siblings_like_the_macbook(tmp_path: Path) -> None:
    """i5-2435M: 2 cores, 4 threads; CPUs 0,2 and 1,3 share a core."""
    tree = Sysroot(cpu_tree(tmp_path, {0: "0,2", 1: "1,3", 2: "0,2", 3: "1,3"},
                            {"policy0": ("0-3", 2800000)}))
    assert smt_groups(tree) == [(0, 2), (1, 3)]
    assert describe_threads(tree, 2) == "separate cores, one cluster"
    assert "CPUs 0,2 are SMT siblings of one core" in describe_threads(tree, 4)


def test_big_little_clusters(tmp_path: Path) -> None:
    tree = Sysroot(cpu_tree(tmp_path, {n: str(n) for n in range(8)},
                            {"policy0": ("0-3", 1800000), "policy4": ("4-7", 2400000)}))
    assert describe_threads(tree, 4) == "separate cores, one cluster"
    assert describe_threads(tree, 8) == "spans clusters: policy0 1800 MHz, policy4 2400 MHz"


def test_cache_topology_and_the_cache_resident_trap(tmp_path: Path) -> None:
    base = tmp_path / "sys/devices/system/cpu/cpu0/cache"
    write_files(base / "index0", {"level": "1", "type": "Data", "size": "32K"})
    write_files(base / "index2", {"level": "2", "type": "Unified", "size": "2048K",
                                  "shared_cpu_list": "0-3"})
    llc = last_level_cache(Sysroot(tmp_path))
    assert llc is not None and (llc.level, llc.size_bytes) == (2, 2 * 2**20)
    assert stream.plan(llc.size_bytes).buffer_bytes == 8 * 2**20
    with pytest.raises(SbcBenchError, match=r"would be cache-resident.*refused, not reported"):
        stream.plan(llc.size_bytes, requested=1 * 2**20)  # sysbench's 1 MB block
    assert stream.plan(None).llc_source.startswith("assumed")
    assert parse_size("32768K") == 32 * 2**20 and parse_size("junk") is None


@pytest.mark.parametrize("capture", ["sysbench-1.0.20_cpu_rpi4-cortex-a72_1thread.txt",
                                     "sysbench-1.0.20_memory_x86-native_256threads_write.txt"])
def test_sysbench_zero_or_wrong_result_is_a_broken_tool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capture: str) -> None:
    """A stand-in sysbench replays a real capture, its rate zeroed (or another test's output):
    a zero is a broken tool, never a sample."""
    output = tmp_path / "out.txt"
    output.write_text((DATA / "sysbench" / capture).read_text()
                      .replace("events per second:  1488.30", "events per second:  0.00"))
    stand_in = tmp_path / "sysbench"
    stand_in.write_text(f"#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'sysbench 1.0.20'; "
                        f"else cat {output}; fi\n")
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(ToolError, match="sysbench cpu reported"):
        scaling.sysbench_cpu(1, 1, 1)


def test_thread_counts_and_efficiency() -> None:
    assert scaling.thread_counts(1) == [1]
    assert scaling.thread_counts(2) == [1, 2]
    assert scaling.thread_counts(6) == [1, 2, 4, 6]
    eff = scaling.efficiency({1: 246.96, 2: 494.19, 4: 970.90})  # the Star64's sysbench
    assert round(eff[2] * 2, 2) == 2.00 and round(eff[4] * 4, 2) == 3.93


def test_sysbench_version_aware_outputs() -> None:
    new = parse_sysbench((DATA / "this_machine/sysbench-1.0.20_cpu_1thread_maxprime20000.txt")
                         .read_text())
    assert new.version == "1.0.20" and (new.events_per_second or 0) > 0
    old = parse_sysbench((DATA / "sysbench/sysbench-0.4.12_cpu_x86-vps-web3_16threads_"
                                 "maxprime20000.txt").read_text())
    assert old.version == "0.4.12" and old.threads == 16


def test_stress_ng_metrics_line() -> None:
    text = (DATA / "this_machine/stress-ng-0.15.06_cpu2_matrixprod_metrics-brief.txt").read_text()
    assert scaling.parse_stress_ng(text, ["stress-ng"]) == 1675.66
    with pytest.raises(ToolError, match="no cpu metrics line"):
        scaling.parse_stress_ng("stress-ng: info: nothing\n", ["stress-ng"])


def test_block_devices(tmp_path: Path) -> None:
    assert [base_device(d) for d in ("/dev/mmcblk0p2", "sda3", "nvme0n1p1", "vda")] == \
        ["mmcblk0", "sda", "nvme0n1", "vda"]
    assert sata_bytes_per_s("6.0 Gbps") == 600e6
    host = tmp_path / "sys/devices/platform/soc/16010000.mmc/mmc_host/mmc1/mmc1:aaaa/block"
    host.mkdir(parents=True)
    (tmp_path / "sys/block/mmcblk0").mkdir(parents=True)
    (tmp_path / "sys/block/mmcblk0/device").symlink_to(host.parent)
    write_files(tmp_path / "sys/block/mmcblk0/queue", {"rotational": "0"})
    ios = (DATA / "mmc_ios/th1520-licheepi4a_mmc1_microsd_sd-high-speed_tabs.txt").read_text()
    write_files(tmp_path / "sys/kernel/debug/mmc1", {"ios": ios})
    iface = interface(Sysroot(tmp_path), "/dev/mmcblk0p2")
    assert iface.kind == "mmc" and iface.limit_bytes_per_s == pytest.approx(24.75e6)
    assert "sd high-speed" in iface.detail


def test_storage_file_is_removed_even_on_failure(tmp_path: Path) -> None:
    where = storage.target(tmp_path)

    def boom() -> None:
        raise KeyboardInterrupt  # Ctrl-C while the page cache is dropped
    with pytest.raises(KeyboardInterrupt):
        storage.write_then_read(where, 4 * storage.BLOCK, drop_caches=boom)
    assert list(tmp_path.iterdir()) == []
    result = storage.write_then_read(where, 4 * storage.BLOCK)
    assert result.write_bytes_per_s > 0 and result.read_bytes_per_s > 0
    assert list(tmp_path.iterdir()) == []


def test_tmpfs_and_full_disks_are_refused(tmp_path: Path) -> None:
    ram = storage.Target(tmp_path, "/dev/shm", "tmpfs", "tmpfs")
    with pytest.raises(SbcBenchError, match="keeps files in RAM"):
        storage.check(ram, 1)
    disk = storage.Target(tmp_path, "/", "/dev/vda", "ext4")
    with pytest.raises(SbcBenchError, match="MiB free; the storage test needs"):
        storage.check(disk, shutil.disk_usage(tmp_path).free * 2)


def test_workloads_end_to_end(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                              copy_benchmarks: Callable[..., None]) -> None:
    copy_benchmarks("test_scaling.py", "test_memory.py", "test_storage.py")
    monkeypatch.chdir(pytester.path)
    out = pytester.path / "r.json"
    result = pytester.runpytest("benchmarks", "-m", "scaling or memory or storage",
                                "--sbc-quick", "--sbc-idle-wait", "0", "--sbc-results", str(out),
                                "-k",
                                "openssl or stream or sequential")
    result.assert_outcomes(passed=3)
    results = json.loads(out.read_text())["results"]
    threads = sorted(r["identity"]["threads"] for r in results
                     if r["metric"] == "scaling-openssl-sha256")
    assert threads[:2] == ([1, 2] if len(os.sched_getaffinity(0)) > 1 else [1])
    assert all("efficiency" in r["telemetry"] for r in results if r["metric"].startswith("scal"))
    memory = next(r for r in results if r["metric"] == "memory-read")
    assert memory["identity"]["buffer_bytes"] >= 4 * memory["identity"]["llc_bytes"]
    assert {r["metric"] for r in results} >= {"storage-read", "storage-write"}
    assert not list(pytester.path.glob(".sbcbench-storage-*"))
    result.stdout.fnmatch_lines(["*scaling: openssl sha256 x1: 1.00x over one thread*"])


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (apt-get install gcc)")
def test_stream_build_records_the_compiler_that_built_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real compiler's version line is in the identity, and a compiler that reports
    another version builds (and is named by) another binary, never the cached one."""
    real = shutil.which("cc")
    assert real is not None
    monkeypatch.setenv("CC", real)
    kernel = stream.build(tmp_path)
    version = subprocess.run([real, "--version"], capture_output=True, text=True, check=True)
    assert kernel.compiler_version == version.stdout.splitlines()[0].strip()
    assert (kernel.compiler, kernel.flags) == ("cc", ("-O3",)) and kernel.path.exists()
    assert stream.build(tmp_path) == kernel  # cached
    upgraded = tmp_path / "bin" / "cc"
    upgraded.parent.mkdir()
    upgraded.write_text(f"#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'cc (Stand-in) 99.1'; "
                        f"else exec {real} \"$@\"; fi\n")
    upgraded.chmod(0o755)
    monkeypatch.setenv("CC", str(upgraded))
    rebuilt = stream.build(tmp_path)
    assert rebuilt.compiler_version == "cc (Stand-in) 99.1" and rebuilt.path != kernel.path


def test_scaling_times_one_thread_by_the_wall_clock_as_multi_does(tmp_path: Path) -> None:
    """``openssl speed`` divides a lone process's work by its user CPU time and a ``-multi``
    total by wall time: on a busy board (here, under load: 1.27 GB/s by CPU time, 0.56 GB/s
    by the wall) the 1-thread figure kept its speed while the N-thread totals lost theirs.
    The 1-thread run asks for ``-elapsed``; the identity names the clock."""
    log = tmp_path / "argv"
    wrapper = tmp_path / "openssl"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {shutil.which("openssl")} "$@"\n')
    wrapper.chmod(0o755)
    tool = OpensslTool(str(wrapper), "3.0.0", "OpenSSL 3.0.0")
    one, two = scaling.openssl_multi(tool, 1, 1, 1), scaling.openssl_multi(tool, 2, 1, 1)
    first, second = log.read_text().splitlines()
    assert "-elapsed" in first.split() and "-multi" not in first.split()
    assert second.split()[1:3] == ["-multi", "2"] and "-elapsed" not in second.split()
    assert one.identity.as_dict()["clock"] == two.identity.as_dict()["clock"] == "wall"
    assert one.samples[0] > 0 and two.samples[0] > 0
