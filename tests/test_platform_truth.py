"""ISA and accelerators, kernel crypto, tool parsers and the physics gate, on real captures."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from helpers import CPUINFO, DATA, build_tree, star64_tree, write_files
from pytest_sbcbench.cli import main
from pytest_sbcbench.errors import ParseError
from pytest_sbcbench.judge import physics
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.measure.sysbench import cpu_argv, parse_sysbench
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.platform import kcrypto
from pytest_sbcbench.platform.board import builtin_profiles, merge
from pytest_sbcbench.platform.facts import platform_facts
from pytest_sbcbench.platform.isa import accel, features, parse_riscv_isa
from pytest_sbcbench.platform.mmc import parse_ios
from pytest_sbcbench.platform.parse import infer_arch, parse_cpuinfo
from pytest_sbcbench.platform.sysroot import Sysroot

BOARDS = merge(builtin_profiles())
NONE = {"aes": False, "sha1": False, "sha256": False, "sha512": False, "pmull": False}


def facts_of(prefix: str):  # type: ignore[no-untyped-def]
    (path,) = [p for p in CPUINFO.glob(f"{prefix}*.txt") if not p.name.endswith("source.txt")]
    info = parse_cpuinfo(path.read_text())
    found = features(info, infer_arch(info))
    return found, accel(found)


@pytest.mark.parametrize("prefix", ["riscv64_starfive-jh7110_u74_vendor",
                                    "riscv64_starfive-jh7110_u74_kernel6.5",
                                    "riscv64_milkv-mars", "riscv64_allwinner-d1"])
def test_baseline_riscv_has_no_vector_and_no_crypto(prefix: str) -> None:
    found, acc = facts_of(prefix)
    assert found.isa is not None and found.isa.base == "rv64"
    assert "v" not in found.isa.extensions and "v" not in found.names
    assert acc == {**NONE, "vector": False}


def test_star64_isa_string_is_parsed_not_substring_matched() -> None:
    isa = parse_riscv_isa("rv64imafdc")
    assert isa.base == "rv64" and isa.extensions == ("i", "m", "a", "f", "d", "c")
    assert "v" not in isa.extensions  # the "v" of "rv64" is the base, not an extension
    assert parse_riscv_isa("rv64gc").extensions[:7] == ("i", "m", "a", "f", "d", "zicsr",
                                                        "zifencei")
    assert parse_riscv_isa("RV64IMAFDCV_Zba_Zbb").extensions[-3:] == ("v", "zba", "zbb")


def test_spacemit_k1_has_vector_and_clmul_but_no_aes() -> None:
    found, acc = facts_of("riscv64_spacemit-k1-x60_bitbrick")
    assert {"v", "zbc", "zvkt", "zkt"} <= set(found.names)
    assert "zvkned" not in found.names
    assert acc["vector"] and acc["pmull"] and not acc["aes"] and not acc["sha256"]


def test_spacemit_k3_vector_crypto() -> None:
    found, acc = facts_of("riscv64_spacemit-k3")
    assert {"zvkned", "zvknha", "zvknhb", "zvkg", "zvksed", "zvksh", "h"} <= set(found.names)
    assert acc == {"aes": True, "sha1": False, "sha256": True, "sha512": True, "pmull": True,
                   "vector": True}


def test_thead_vector_071_is_not_rvv10() -> None:
    found, acc = facts_of("riscv64_thead-th1520")
    assert "v" in found.names and found.isa is not None and found.isa.vector_071
    assert acc["vector"] is False and "not RVV 1.0" in found.notes[0]


@pytest.mark.parametrize(("prefix", "expected"), [
    ("arm64_rpi5", {"aes": True, "sha1": True, "sha256": True, "sha512": False, "pmull": True,
                    "vector": True}),
    ("arm64_rk3588", {"aes": True, "sha1": True, "sha256": True, "sha512": False, "pmull": True,
                      "vector": True}),
    ("armv7_rpi2", {**NONE, "vector": True}),
    ("x86-64_intel-i5-12400", {"aes": True, "sha1": True, "sha256": True, "sha512": False,
                               "pmull": True, "vector": True}),
    ("x86-64_amd-ryzen5-3600", {"aes": True, "sha1": True, "sha256": True, "sha512": False,
                                "pmull": True, "vector": True}),
])
def test_arm_and_x86_accelerators(prefix: str, expected: dict[str, bool]) -> None:
    assert facts_of(prefix)[1] == expected


def test_rk3588_clusters(tmp_path: Path) -> None:
    tree = build_tree(tmp_path, CPUINFO / "arm64_rk3588_a55-a76_bsp5.10.66_features.txt")
    cpu = tmp_path / "sys/devices/system/cpu/cpufreq"
    write_files(cpu / "policy0", {"related_cpus": "0-3", "cpuinfo_max_freq": "1800000"})
    write_files(cpu / "policy4", {"related_cpus": "4-7", "cpuinfo_max_freq": "2400000"})
    facts = platform_facts(Sysroot(tree))
    assert [c["max_mhz"] for c in facts["clusters"]] == [1800.0, 2400.0]
    assert [c["cpus"] for c in facts["clusters"]] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_probe_star64_tree_json(star64: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--sysroot", str(star64), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"arch", "cpus", "cpu_model", "board_model", "features", "isa", "accel",
            "kernel_crypto", "max_mhz"} <= data.keys()
    assert data["isa"]["base"] == "rv64" and "v" not in data["isa"]["extensions"]
    assert not any(data["accel"].values())
    assert data["max_mhz"] == [1500.0] * 4


def crypto(name: str) -> list[kcrypto.KernelAlgorithm]:
    return kcrypto.parse_proc_crypto((DATA / name).read_text())


def test_h616_hardware_engine_and_priorities() -> None:
    algos = crypto("proc_crypto/arm64_allwinner-h616_bsp-kernel_ss-hw-engine.txt")
    assert len(algos) == 105
    engines = [a for a in algos if a.kind == "engine"]
    assert len(engines) == 44 and all(a.driver.startswith("ss-") for a in engines)
    cbc = next(a for a in algos if a.driver == "ss-cbc-aes")
    assert (cbc.name, cbc.priority, cbc.type, cbc.module) == ("cbc(aes)", 260, "ablkcipher",
                                                              "kernel")
    best = kcrypto.best(algos)
    assert best["cbc(aes)"].driver == "cbc-aes-ce" and best["cbc(aes)"].priority == 300
    assert best["cbc(aes)"].kind == "cpu" and best["sha256"].driver == "ss-sha256"


def test_armv8_ce_generic_board() -> None:
    algos = crypto("proc_crypto/arm64_armv8-ce_generic-board.txt")
    assert len(algos) == 90
    first = algos[0]
    assert (first.name, first.driver, first.module, first.priority, first.internal) == (
        "__ecb(aes)", "cryptd(__ecb-aes-ce)", "cryptd", 350, True)
    best = kcrypto.best(algos)
    assert best["cbc(aes)"].driver == "cbc-aes-ce" and best["gcm(aes)"].priority == 300
    assert best["sha256"].driver == "sha256-ce" and best["sha256"].priority == 200
    assert not [a for a in algos if a.kind == "engine"]


def engines(name: str) -> list[kcrypto.Engine]:
    return kcrypto.parse_openssl_engines((DATA / "openssl_engine" / name).read_text())


def test_openssl_engine_outputs() -> None:
    afalg = engines("openssl-1.1.1_openwrt-mips_engine-t-c_afalg.txt")
    assert [(e.id, e.available) for e in afalg] == [("dynamic", False), ("afalg", True)]
    assert afalg[1].ciphers == ("AES-128-CBC", "AES-192-CBC", "AES-256-CBC")
    assert kcrypto.userspace_path(afalg) == "engine afalg"
    rdrand = engines("openssl-1.x_x86-64_engine-t_rdrand.txt")
    assert [(e.id, e.available) for e in rdrand] == [("rdrand", True), ("dynamic", False)]
    assert kcrypto.userspace_path(rdrand) is None
    cryptodev = engines("openssl-1.0.x_dockstar-kirkwood-armv5_engine_cryptodev.txt")
    assert [e.id for e in cryptodev] == ["cryptodev", "dynamic"]
    assert kcrypto.userspace_path(cryptodev) == "engine cryptodev"


def test_jh7110_engine_is_stranded() -> None:
    algos = crypto("constructed/jh7110_proc_crypto_from-seed.txt")
    best = kcrypto.best(algos)
    assert best["rsa"].driver == "rsa-jh7110" and best["rsa"].priority == 3000
    only_dynamic = kcrypto.parse_openssl_engines("(dynamic) Dynamic engine loading support\n")
    finding = kcrypto.stranded(algos, only_dynamic)
    assert finding is not None and "stranded accelerator: 20 algorithms" in finding
    assert kcrypto.stranded(algos, engines("openssl-1.1.1_openwrt-mips_engine-t-c_afalg.txt")) \
        is None
    generic = crypto("proc_crypto/arm64_armv8-ce_generic-board.txt")
    assert kcrypto.stranded(generic, only_dynamic) is None


def test_probe_reports_the_stranded_engine(star64: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (star64 / "proc/crypto").write_text(
        (DATA / "constructed/jh7110_proc_crypto_from-seed.txt").read_text())
    captured = tmp_path / "engines.txt"
    captured.write_text("(dynamic) Dynamic engine loading support\n     [ unavailable ]\n")
    assert main(["probe", "--sysroot", str(star64), "--engines", str(captured), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["openssl_kernel_path"] is None and "stranded" in data["findings"][0]
    assert "rsa-jh7110" in data["kernel_crypto_engines"]


SYSBENCH = DATA / "sysbench"


@pytest.mark.parametrize(("name", "expected"), [
    ("sysbench-0.4.12_cpu_rpi-zero-armv6_1thread.txt",
     {"version": "0.4.12", "max_prime": 10000, "total_time_s": 374.2803, "events": 10000}),
    ("sysbench-0.4.12_cpu_x86-vps-web3_16threads_maxprime20000.txt",
     {"threads": 16, "total_time_s": 11.5526, "events": 10000}),
    ("sysbench-1.0.7_cpu_macbookpro_no-events-per-second-line.txt",
     {"total_time_s": 10.0009, "events": 4135}),
    ("sysbench-1.0.18_cpu_fitlet-minipc-x86_1thread.txt",
     {"events_per_second": 1178.88, "events": 11792}),
    ("sysbench-1.0.20_cpu_rpi4-cortex-a72_1thread.txt",
     {"events_per_second": 1488.30, "events": 14891}),
    ("sysbench-1.0.20_cpu_x86-native_maxprime200000_300s.txt",
     {"events_per_second": 23.12, "max_prime": 200000, "total_time_s": 300.0045,
      "events": 6935}),
    # 1.1: 'time elapsed:' under 'Throughput:'; pasted from 'CPU speed:' on, no banner
    ("sysbench-1.1.0-bbee5d5_cpu_ec2-x86-64_maxprime100000_events10000_no-banner.txt",
     {"version": None, "events_per_second": 45.36, "total_time_s": 220.4715, "events": 10000}),
    ("sysbench-1.1.0-bbee5d5_cpu_graviton2_maxprime100000_events10000_no-banner_annotated.txt",
     {"version": None, "events_per_second": 114.02, "total_time_s": 87.7069, "events": 10000}),
])
def test_sysbench_cpu(name: str, expected: dict[str, object]) -> None:
    result = parse_sysbench((SYSBENCH / name).read_text())
    assert result.test == "cpu"
    for key, value in expected.items():
        assert getattr(result, key) == (value if value is None else pytest.approx(value))


def test_sysbench_oltp_run_is_no_cpu_result() -> None:
    """sysbench 1.1's Throughput block of an OLTP run (SQL statistics) has events/s and time
    elapsed too: without a cpu or memory test in it, it is refused, not read as a cpu rate."""
    text = (SYSBENCH / "sysbench-1.1_oltp-read-only_ryzen5-5600x_clearlinux_sql-statistics"
                       ".txt").read_text()
    with pytest.raises(ParseError, match="no banner, and no cpu test"):
        parse_sysbench(text)


def test_sysbench_1_1_banner_is_still_read() -> None:
    """The 1.1 paste with the banner its note printed ('sysbench --version': 1.1.0-bbee5d5)."""
    text = (SYSBENCH / "sysbench-1.1.0-bbee5d5_cpu_ec2-x86-64_maxprime100000_events10000_"
                       "no-banner.txt").read_text()
    result = parse_sysbench("sysbench 1.1.0-bbee5d5\n\n" + text)
    assert (result.version, result.total_time_s) == ("1.1.0", 220.4715)


def test_sysbench_derived_rate_and_memory() -> None:
    macbook = parse_sysbench((SYSBENCH / "sysbench-1.0.7_cpu_macbookpro_no-events-per-second-"
                                         "line.txt").read_text())
    assert round(macbook.events_per_second or 0, 2) == 413.46
    old = parse_sysbench((SYSBENCH / "sysbench-0.4.12_memory_x86-vps-web3_1M-block_10G_write"
                                     ".txt").read_text())
    assert (old.test, old.block_bytes, old.events) == ("memory", 1024 * 1024, 10240)
    assert old.bytes_per_second == pytest.approx(3855.80 * 2**20)
    new = parse_sysbench((SYSBENCH / "sysbench-1.0.20_memory_x86-native_256threads_write.txt")
                         .read_text())
    assert (new.threads, new.block_bytes) == (256, 1024)
    assert new.bytes_per_second == pytest.approx(15701.95 * 2**20)


def test_sysbench_syntax_by_version() -> None:
    assert cpu_argv("0.4.12", 2, 20000, 10)[:3] == ["sysbench", "--test=cpu", "--num-threads=2"]
    assert cpu_argv("1.0.20", 2, 20000, 10)[:3] == ["sysbench", "cpu", "--threads=2"]


@pytest.mark.parametrize("text", [
    "",
    "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\n",  # 1.0 syntax on 0.4
    "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\nFATAL: unknown test 'cpux'\n",
    "Usage:\n  sysbench [options]... [testname] [command]\n",
])
def test_sysbench_without_a_result_is_an_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse_sysbench(text)


@pytest.mark.parametrize(("name", "clock", "width", "timing", "mb_s"), [
    ("th1520-licheepi4a_mmc1_microsd_sd-high-speed_tabs.txt", 50000000, 4, "sd high-speed",
     24.75),
    ("th1520-licheepi4a_mmc1_microsd_sd-uhs-sdr104_tabs.txt", 198000000, 4, "sd uhs SDR104",
     99.0),
    ("rockchip_mmc0_emmc_hs400-enhanced-strobe_spaces.txt", 200000000, 8,
     "mmc HS400 enhanced strobe", 400.0),
])
def test_mmc_ios(name: str, clock: int, width: int, timing: str, mb_s: float) -> None:
    ios = parse_ios((DATA / "mmc_ios" / name).read_text())
    assert (ios.clock_hz, ios.bus_width_bits, ios.timing) == (clock, width, timing)
    assert ios.limit_bytes_per_s / 1e6 == pytest.approx(mb_s)


def test_sd_high_speed_is_25_mb_s() -> None:
    seed = "clock:        50000000 Hz\nbus width:    2 (4 bits)\ntiming spec:  2 (sd high-speed)\n"
    assert parse_ios(seed).limit_bytes_per_s == 25e6
    with pytest.raises(ParseError, match="mmc ios"):
        parse_ios("clock: 5\n")


def results_file(tmp_path: Path, board: str, metrics: dict[str, float]) -> Path:
    entries = []
    for metric, value in metrics.items():
        m = Measurement(metric, "B/s", "higher", Identity.of(tool="sysbench"), (value,))
        entries.append(Result(f"t::{metric}", m, summarize(m.samples),
                              Verdict("no-baseline", "")).as_dict())
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"schema": "sbcbench-results/1", "board": board, "created": "x",
                                "environment": {}, "results": entries}))
    return path


def test_validate_rejects_the_seeds_impossible_numbers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = results_file(tmp_path, "macbookpro8-1", {"memory-read": 40.4e9,
                                                    "storage-read": 2.86e9,
                                                    "storage-write": 74.8e6})
    assert main(["validate", str(path), "--board", "macbookpro8-1"]) == 1
    out = capsys.readouterr().out
    assert "implausible  t::memory-read: memory-read 40,400.0 MB/s beats physics: a bug report, " \
           "not a result (limit 21,300.0 MB/s" in out
    assert "implausible  t::storage-read: storage-read 2,860.0 MB/s beats physics" in out
    assert "ok           t::storage-write" in out


def test_validate_accepts_plausible_numbers(tmp_path: Path) -> None:
    path = results_file(tmp_path, "star64", {"memory-read": 5488e6, "storage-read": 23.5e6})
    assert main(["validate", str(path), "--board", "star64"]) == 0
    assert main(["validate", str(path), "--board", "no-such-board"]) == 2


def test_sampled_clock_beyond_max_is_implausible() -> None:
    m = Measurement("sha512", "B/s", "higher", Identity.of(tool="openssl"), (63.5e6,))
    result = Result("t", m, summarize(m.samples), Verdict("no-baseline", ""),
                    {"clock_mhz": {"min": 1500.0, "median": 1500.0, "max": 2000.0}})
    verdict = physics.check(result, BOARDS["star64"])
    assert verdict is not None and "sampled clock 2000 MHz beats physics" in verdict.detail


def test_physics_failure_in_a_pytest_run(pytester: pytest.Pytester, tmp_path: Path) -> None:
    tree = build_tree(tmp_path / "mbp", DATA / "this_machine/cpuinfo_amd-epyc-vm.txt",
                      dmi_product="MacBookPro8,1")
    pytester.makepyfile("""
        from pytest_sbcbench.model import Identity, Measurement

        def test_sysbench_memory(sbcbench):
            sbcbench.record(Measurement("memory-read", "B/s", "higher",
                                        Identity.of(tool="sysbench", block_bytes=1048576),
                                        (40.4e9, 40.3e9)))
    """)
    result = pytester.runpytest("--sbc-sysroot", str(tree), "--board", "macbookpro8-1")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*implausible: memory-read 40,400.0 MB/s beats physics: a bug "
                                 "report, not a result*"])


def test_star64_platform_checks(pytester: pytest.Pytester, tmp_path: Path) -> None:
    (pytester.path / "benchmarks").mkdir()
    source = Path(__file__).parent.parent / "benchmarks" / "test_platform_facts.py"
    # another basename: tests/test_platform.py is already imported in this process
    (pytester.path / "benchmarks" / "test_board_checks.py").write_text(source.read_text())
    good = star64_tree(tmp_path / "good")
    pytester.runpytest("benchmarks", "--sbc-sysroot", str(good)).assert_outcomes(passed=4)
    bad = star64_tree(tmp_path / "bad")
    cpuinfo = (bad / "proc/cpuinfo").read_text().replace("rv64imafdc", "rv64imafdcv_zkne")
    (bad / "proc/cpuinfo").write_text(cpuinfo)
    (bad / "sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq").write_text("1200000\n")
    result = pytester.runpytest("benchmarks", "--sbc-sysroot", str(bad), "--board", "star64")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*star64 clusters should reach ?1500? MHz, cpufreq says ?1200.0?*",
                                 "*star64 unexpectedly reports: ?'v', 'zkne'?*"])


def test_storage_beyond_its_interface_is_implausible() -> None:
    m = Measurement("storage-read", "B/s", "higher", Identity.of(tool="sbcbench-storage"),
                    (30e6, 29e6))
    telemetry = {"interface_limit_bytes_per_s": 24.75e6, "interface": "mmc1 sd high-speed"}
    result = Result("t", m, summarize(m.samples), Verdict("no-baseline", ""), telemetry)
    verdict = physics.check(result, BOARDS["rpi5"])
    assert verdict is not None and "storage-read 30.00 MB/s beats physics" in verdict.detail
    assert "limit 24.75 MB/s: mmc1 sd high-speed" in verdict.detail
    slow = dataclasses.replace(result, measurement=dataclasses.replace(m, samples=(20e6,)))
    assert physics.check(slow, BOARDS["rpi5"]) is None


def cpuinfo_capture(prefix: str) -> Path:
    (path,) = [p for p in CPUINFO.glob(f"{prefix}*.txt") if not p.name.endswith("source.txt")]
    return path


# real captures (see each .source.txt) -> what `sbcbench probe --sysroot` must report
OLD_AND_NON_ARM = {
    "armv7_tegra3-nvidia-kayla": ("armv7l", 4, {"neon", "vfpv3", "tls"}, "arm", True, False),
    "armv7_exynos4412-odroid-u2": ("armv7l", 4, {"neon", "vfpv3", "swp"}, "arm", True, False),
    "armv7_nexus-s": ("armv7l", 1, {"neon", "thumbee"}, "arm", True, False),
    "armv6_rpi1-bcm2708": ("armv6l", 1, {"vfp", "java"}, "arm", False, False),
    "armv6_rpi-zero": ("armv6l", 1, {"vfp", "java"}, "arm", False, False),
    "arm64_hi6210sft": ("aarch64", 8, {"aes", "pmull", "sha2", "asimd"}, "arm", True, True),
    "arm64_allwinner-a64": ("aarch64", 4, {"aes", "pmull", "asimd"}, "arm", True, True),
    "arm64_allwinner-h5": ("aarch64", 4, {"aes", "sha2", "cpuid"}, "arm", True, True),
    "mips_qca956x": ("mips", 1, {"mips32r2", "mips16", "dsp2"}, "mips", False, False),
    "mips_ar7161": ("mips", 1, {"mips16"}, "mips", False, False),
    "mips64_sibyte-bcm1250": ("mips64", 1, {"mips64r2", "mdmx"}, "mips", False, False),
    "loongarch64_loongson-3a5000-hv": ("loongarch64", 4, {"lsx", "lasx", "crypto"}, "loongarch",
                                       True, False),
    "loongarch64_loongson-3a6000-hv": ("loongarch64", 8, {"lsx", "lasx", "lbt_arm"}, "loongarch",
                                       True, False),
}


@pytest.mark.parametrize("prefix", sorted(OLD_AND_NON_ARM))
def test_probe_cli_on_old_arm_mips_and_loongarch_trees(
        prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arch, cpus, must, family, vector, aes = OLD_AND_NON_ARM[prefix]
    tree = build_tree(tmp_path, cpuinfo_capture(prefix))
    assert main(["probe", "--sysroot", str(tree), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["arch"], data["cpus"], data["feature_family"]) == (arch, cpus, family)
    assert must <= set(data["features"])
    assert (data["accel"]["vector"], data["accel"]["aes"]) == (vector, aes)
    assert data["isa"] is None  # no RISC-V isa record for a MIPS or LoongArch isa line


def test_mips_and_loongarch_features_are_not_arms() -> None:
    """LoongArch lists ``crypto`` and ``crc32`` and MIPS has ``dsp``: none of it is ARM's AES."""
    for prefix in ("loongarch64_loongson-3a5000-hv", "mips_qca956x"):
        found, acc = facts_of(prefix)
        assert found.arch != "arm" and not acc["aes"] and not acc["sha256"]


def crypto_kinds(name: str) -> dict[str, str]:
    return {a.driver: a.kind for a in crypto(f"proc_crypto/{name}")}


def test_vendor_engines_are_engines() -> None:
    cesa = crypto_kinds("marvell-cesa_lkml-2025-05_marvell_cesa-module.txt")
    assert len(cesa) == 13 and cesa.pop("crc32c-generic") == "generic"
    assert set(cesa.values()) == {"engine"} and "mv-cbc-aes" in cesa
    mt7628 = crypto_kinds("mips_mt7628_openwrt_crypto_hw_mt7628_aes_excerpt.txt")
    assert mt7628 == {"cbc(aes-generic)": "generic", "ecb-aes-mt7628": "engine"}
    safexcel = crypto_kinds("arm64_mt7981b_openwrt_safexcel-eip97_excerpt.txt")
    assert safexcel == {"safexcel-rfc4309-ccm-aes": "engine",  # module crypto_safexcel
                        "safexcel-rfc4543-gcm-aes": "engine"}  # module kernel: name evidence
    eip93 = crypto_kinds("mips_mt7621_openwrt_eip93_authenc_excerpt.txt")
    assert set(eip93.values()) == {"engine"} and len(eip93) == 3


@pytest.mark.parametrize(("driver", "module", "kind"), [
    # driver names as the kernel registers them, seen in public logs and kernel sources
    ("ecb-aes-rk", "rk_crypto", "engine"),  # RK3288 kernelci boot log (TinkerBoard issue 39)
    ("rk2-sha512", "rk_crypto2", "engine"),  # RK35xx /proc/crypto grep (armbian/build 9796)
    ("authenc-hmac-md5-cbc-aes-caam", "caamalg", "engine"),  # i.MX6 dmesg (linux4kix issue 23)
    ("cbc-aes-sun8i-ce", "sun8i_ce", "engine"),  # selftest log quoted on linux-crypto by its author
    ("cbc-aes-sun8i-ce", "kernel", "engine"),  # built in: the driver name is the evidence
    ("mv-cbc-aes", "mv_cesa", "engine"),  # the pre-4.x drivers/crypto/mv_cesa.c
    ("cbc-aes-omap", "omap_aes_driver", "engine"), ("atmel-cbc-aes", "atmel_aes", "engine"),
    ("stm32-cbc-aes", "stm32_cryp", "engine"), ("cbc-aes-ccree", "ccree", "engine"),
    ("cbc-aes-gxl", "amlogic_gxl_crypto", "engine"), ("cbc-aes-qce", "qcrypto", "engine"),
    ("cbc-aes-sl3516", "sl3516_ce", "unknown"),  # a real engine no table here names
    ("cbc(aes-generic)", "cbc", "generic"), ("pkcs1pad(rsa-generic,sha256)", "kernel", "generic"),
    ("cryptd(__ecb-aes-ce)", "cryptd", "cpu"), ("xts-aes-aesni", "aesni_intel", "cpu"),
])
def test_kernel_crypto_classes(driver: str, module: str, kind: str) -> None:
    assert kcrypto.classify(driver, module) == kind


def test_mt7628_engine_is_stranded_through_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No MT7628 cpuinfo could be found, so the tree carries another OpenWrt MIPS router's
    (the GL-AR750S); the /proc/crypto is the MT7628's."""
    tree = build_tree(tmp_path / "root", cpuinfo_capture("mips_qca956x"))
    (tree / "proc/crypto").write_text(
        (DATA / "proc_crypto/mips_mt7628_openwrt_crypto_hw_mt7628_aes_excerpt.txt").read_text())
    engines = tmp_path / "engines.txt"
    engines.write_text("(dynamic) Dynamic engine loading support\n     [ unavailable ]\n")
    assert main(["probe", "--sysroot", str(tree), "--engines", str(engines), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["arch"] == "mips" and data["kernel_crypto_engines"] == ["ecb-aes-mt7628"]
    assert data["kernel_crypto_unknown"] == []
    assert "ecb-aes-mt7628" in data["findings"][0] and "stranded" in data["findings"][0]
