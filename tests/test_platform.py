"""Sysroot, kernel-file parsers, probe and board detection on real captured files."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from helpers import CPUINFO, DATA, REPO, RK3588_CPUINFO, RPI5_CPUINFO, build_tree
from pytest_sbcbench.errors import BoardError, ParseError, SchemaError, SysrootError
from pytest_sbcbench.platform import board as boards
from pytest_sbcbench.platform.parse import (
    cpu_model,
    infer_arch,
    parse_cpuinfo,
    parse_meminfo,
    parse_nul_strings,
    parse_os_release,
)
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot

PACKAGE = REPO / "pytest_sbcbench"

# file stem prefix -> (arch, cpus, model substring) as the captures' sources state them
CPUINFO_FACTS = {
    "riscv64_starfive-jh7110_u74_kernel6.5": ("riscv64", 4, "sifive,u74-mc"),
    "riscv64_starfive-jh7110_u74_vendor": ("riscv64", 4, None),
    "riscv64_milkv-mars": ("riscv64", 4, None),
    "riscv64_spacemit-k1-x60_kernel6.1.15": ("riscv64", 8, "Spacemit(R) X60"),
    "riscv64_spacemit-k1-x60_bitbrick": ("riscv64", 8, None),
    "riscv64_spacemit-k3": ("riscv64", 16, None),
    "riscv64_thead-th1520": ("riscv64", 4, None),
    "riscv64_allwinner-d1": ("riscv64", 1, "thead,c906"),
    "arm64_rpi5": ("aarch64", 4, "ARM Cortex-A76"),
    "arm64_rk3588": ("aarch64", 8, "ARM Cortex-A55+Cortex-A76"),
    "armv7_rpi2": ("armv7l", 4, "ARM Cortex-A7"),
    "armv7_allwinner-h3": ("armv7l", 4, None),
    "x86-64_intel-i5-12400": ("x86_64", 12, "12th Gen Intel(R) Core(TM) i5-12400"),
    "x86-64_amd-ryzen5-3600": ("x86_64", 12, None),
    # old and non-ARM layouts (issue 11): see each capture's .source.txt
    "armv7_exynos4412-odroid-u2": ("armv7l", 4, "ARM Cortex-A9"),
    "armv7_tegra3-nvidia-kayla": ("armv7l", 4, "ARM Cortex-A9"),
    "armv7_nexus-s": ("armv7l", 1, "ARM Cortex-A8"),
    "armv6_rpi1-bcm2708": ("armv6l", 1, "ARM ARM1176"),
    "armv6_rpi-zero": ("armv6l", 1, "ARM ARM1176"),
    "arm64_hi6210sft": ("aarch64", 8, "ARM Cortex-A53"),
    "arm64_allwinner-a64": ("aarch64", 4, "ARM Cortex-A53"),
    "arm64_allwinner-h5": ("aarch64", 4, "ARM Cortex-A53"),
    # issue 24: a (v8l) model name over arm64 Features, Oryon, Kirkwood (see test_cpuinfo_names)
    "arm64_nvidia-jetson-agx-orin": ("aarch64", 12, "ARM Cortex-A78AE"),
    "arm64_amlogic-s905w": ("aarch64", 4, "ARM Cortex-A53"),
    "arm64_qualcomm-x1e001de": ("aarch64", 12, "Qualcomm Oryon"),
    "arm64_qualcomm-sm8750": ("aarch64", 8, "Qualcomm Oryon"),
    "armv5_marvell-kirkwood-88f6281_feroceon_kernel2.6.31": (
        "armv5tel", 1, "Feroceon 88FR131 rev 1 (v5l)"),
    "armv5_marvell-kirkwood-88f6281_feroceon_kernel3.4.6": (
        "armv5tel", 1, "Feroceon 88F6281 rev 1 (v5l) @ 1.2 GHz"),
    "mips_qca956x": ("mips", 1, "MIPS 74Kc V5.0"),
    "mips_ar7161": ("mips", 1, "MIPS 24Kc V7.4"),
    "mips64_sibyte-bcm1250": ("mips64", 1, "SiByte SB1 V0.2  FPU V0.2"),
    "loongarch64_loongson-3a5000-hv": ("loongarch64", 4, "Loongson-3A5000-HV"),
    "loongarch64_loongson-3a6000-hv": ("loongarch64", 8, "Loongson-3A6000-HV"),
    # issue 32: HiSilicon and Phytium parts (tests/test_arm_parts_sources.py)
    "arm64_hisilicon-kunpeng-920": ("aarch64", 1, "HiSilicon Kunpeng-920 (TSV110)"),
    "arm64_phytium-ft2000": ("aarch64", 1, "Phytium FTC662"),
    "arm64_phytium-ft1500a": ("aarch64", 1, "phytium FT1500a"),
    # the QEMU lab boards of scripts/qemu_lab.py (issue 21), captured over labgrid
    "arm64_qemu-virt_cortex-a72": ("aarch64", 2, "ARM Cortex-A72"),
    "arm64_qemu-virt_cortex-a53": ("aarch64", 2, "ARM Cortex-A53"),
    "riscv64_qemu-virt_rv64imafdc": ("riscv64", 2, None),
    "riscv64_qemu-virt_rv64-v-zkne-zknh": ("riscv64", 2, None),
}


def capture(prefix: str) -> Path:
    (found,) = [p for p in CPUINFO.glob(f"{prefix}*.txt") if not p.name.endswith(".source.txt")]
    return found


def test_every_cpuinfo_capture_is_covered() -> None:
    files = [p for p in CPUINFO.glob("*.txt") if not p.name.endswith(".source.txt")]
    assert len(files) == len(CPUINFO_FACTS)


@pytest.mark.parametrize("prefix", sorted(CPUINFO_FACTS))
def test_cpuinfo_captures(prefix: str) -> None:
    arch, cpus, model = CPUINFO_FACTS[prefix]
    info = parse_cpuinfo(capture(prefix).read_text())
    assert infer_arch(info) == arch
    assert len(info.processors) == cpus
    if model is not None:
        assert cpu_model(info) == model


def test_cpuinfo_without_processor_blocks_is_an_error() -> None:
    with pytest.raises(ParseError, match="cpuinfo"):
        parse_cpuinfo("garbage\n")
    with pytest.raises(ParseError, match="no CPU description"):
        parse_cpuinfo("Hardware\t: BCM2708\nRevision\t: 000e\n")


@pytest.mark.parametrize(("prefix", "hardware"), [("armv7_tegra3-nvidia-kayla", "cardhu"),
                                                  ("armv7_exynos4412-odroid-u2", "ODROIDU2")])
def test_old_smp_arm_shares_processor_name_and_features_with_every_cpu(
        prefix: str, hardware: str) -> None:
    """Tegra 3 (Kayla) and ODROID-U2: ``Processor :`` first, four BogoMIPS-only blocks, one
    Features block after the last CPU. Every CPU gets neon and part 0xc09: 4 of 4, not 3."""
    info = parse_cpuinfo(capture(prefix).read_text())
    assert [cpu["processor"] for cpu in info.processors] == ["0", "1", "2", "3"]
    assert all("neon" in cpu["features"].split() for cpu in info.processors)
    assert {cpu["cpu part"] for cpu in info.processors} == {"0xc09"}
    assert info.machine["hardware"] == hardware


@pytest.mark.parametrize(("prefix", "cpus"), [("arm64_hi6210sft", 8), ("arm64_allwinner-a64", 4)])
def test_arm64_310_processor_list_shares_the_fields_after_it(prefix: str, cpus: int) -> None:
    info = parse_cpuinfo(capture(prefix).read_text())
    assert [cpu["processor"] for cpu in info.processors] == [str(n) for n in range(cpus)]
    assert all(cpu["cpu architecture"] == "AArch64" and "aes" in cpu["features"].split()
               and cpu["cpu part"] == "0xd03" for cpu in info.processors)


def test_arm1176_is_armv6_although_cpu_architecture_says_7() -> None:
    for prefix in ("armv6_rpi1-bcm2708", "armv6_rpi-zero"):
        info = parse_cpuinfo(capture(prefix).read_text())
        assert info.first("cpu architecture") == "7" and infer_arch(info) == "armv6l"
    # without the model name, the ARM11 part number still says ARMv6
    text = capture("armv6_rpi1-bcm2708").read_text().replace("(v6l)", "")
    assert infer_arch(parse_cpuinfo(text)) == "armv6l"


def test_mips_isa_is_not_read_as_riscv() -> None:
    info = parse_cpuinfo(capture("mips_qca956x").read_text())
    assert info.first("isa") == "mips1 mips2 mips32r1 mips32r2" and infer_arch(info) == "mips"
    assert info.machine["system type"] == "Qualcomm Atheros QCA956X ver 1 rev 0"


@pytest.mark.parametrize(("implementer", "part", "name"), [
    ("0x41", "0xd80", "ARM Cortex-A520"), ("0x41", "0xd81", "ARM Cortex-A720"),
    ("0x61", "0x022", "Apple M1-Icestorm"), ("0x61", "0xd0b", "Apple part 0xd0b"),
    ("0x48", "0xd01", "HiSilicon Kunpeng-920 (TSV110)"), ("0x41", "0xD0B", "ARM Cortex-A76"),
])
def test_part_names_respect_the_implementer(implementer: str, part: str, name: str) -> None:
    """The RPi 5 capture with its implementer and part swapped: names follow both codes."""
    text = RPI5_CPUINFO.read_text().replace("0x41", implementer).replace("0xd0b", part)
    assert cpu_model(parse_cpuinfo(text)) == name


def test_this_machine_files() -> None:
    info = parse_cpuinfo((DATA / "this_machine/cpuinfo_amd-epyc-vm.txt").read_text())
    assert infer_arch(info) == "x86_64" and cpu_model(info) == "AMD EPYC"
    release = parse_os_release((DATA / "this_machine/os-release_debian12.txt").read_text())
    assert release["PRETTY_NAME"] == "Debian GNU/Linux 12 (bookworm)"
    mem = parse_meminfo((DATA / "this_machine/meminfo_head.txt").read_text())
    assert mem["MemTotal"] % 1024 == 0 and mem["MemTotal"] > 0


def test_device_tree_strings() -> None:
    assert parse_nul_strings("pine64,star64\0starfive,jh7110\0") == ["pine64,star64",
                                                                     "starfive,jh7110"]


def test_sysroot_required_and_optional_reads(tmp_path: Path) -> None:
    root = Sysroot(tmp_path)
    with pytest.raises(SysrootError) as err:
        root.cpuinfo()
    assert str(tmp_path / "proc/cpuinfo") in str(err.value)
    assert root.meminfo(default="") == ""
    assert root.device_tree("model") is None and root.dmi("product_name") is None
    assert not root.is_host and Sysroot().is_host


def test_probe_star64_tree(star64: Path) -> None:
    facts = probe(Sysroot(star64))
    assert (facts.arch, facts.cpus, facts.board_model) == ("riscv64", 4, "Pine64 Star64")
    assert facts.compatible == ("pine64,star64", "starfive,jh7110")
    assert facts.max_mhz == (1500.0,) * 4 and facts.kernel == "5.15.131"


def test_probe_uses_cpuinfo_model_line_when_no_device_tree(tmp_path: Path) -> None:
    facts = probe(Sysroot(build_tree(tmp_path, RPI5_CPUINFO)))
    assert facts.board_model == "Raspberry Pi 5 Model B Rev 1.0"


def test_builtin_profiles_cover_the_seed_fleet() -> None:
    names = {p.name for p in boards.builtin_profiles()}
    assert names == {"star64", "milkv-mars", "rpi5", "rpi-cm5", "nanopc-t6n", "orangepi5-max",
                     "orangepi-rv2", "horizon-x3-cm", "bananapi-cm5-pro", "lattepanda-iota",
                     "macbookpro8-1"}
    star64 = boards.merge(boards.builtin_profiles())["star64"]
    assert (star64.soc, star64.isa, star64.cores) == ("StarFive JH7110", "rv64imafdc", 4)
    t6n = boards.merge(boards.builtin_profiles())["nanopc-t6n"]
    assert sorted(c.max_mhz or 0 for c in t6n.clusters) == [1800, 2400]


def test_every_profile_file_is_valid_json_with_sources() -> None:
    for path in (REPO / "baselines/boards").glob("*.json"):
        data = json.loads(path.read_text())
        assert data["schema"] == "sbcbench-board/1" and data["facts"]["sources"], path.name
        assert path.stem == data["name"]


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"cpuinfo": RPI5_CPUINFO}, "rpi5"),
    ({"cpuinfo": RK3588_CPUINFO, "model": "FriendlyElec NanoPC-T6",
      "compatible": ["friendlyarm,nanopc-t6", "rockchip,rk3588"]}, "nanopc-t6n"),
    ({"cpuinfo": DATA / "this_machine/cpuinfo_amd-epyc-vm.txt",
      "dmi_product": "MacBookPro8,1"}, "macbookpro8-1"),
    ({"cpuinfo": DATA / "this_machine/cpuinfo_amd-epyc-vm.txt"}, "generic-x86_64"),
    ({"cpuinfo": RK3588_CPUINFO}, "generic-aarch64"),
])
def test_detection(tmp_path: Path, kwargs: dict[str, object], expected: str) -> None:
    facts = probe(Sysroot(build_tree(tmp_path, **kwargs)))  # type: ignore[arg-type]
    assert boards.detect(facts, boards.merge(boards.builtin_profiles())).name == expected


def test_star64_detected_and_requested(star64: Path) -> None:
    profiles = boards.merge(boards.builtin_profiles())
    facts = probe(Sysroot(star64))
    assert boards.resolve("star64", facts, profiles).name == "star64"
    assert boards.resolve(None, facts, profiles).name == "star64"


def test_mismatch_names_both_boards(tmp_path: Path) -> None:
    facts = probe(Sysroot(build_tree(tmp_path, DATA / "this_machine/cpuinfo_amd-epyc-vm.txt")))
    with pytest.raises(BoardError, match=r"--board star64 .*detected 'generic-x86_64'"):
        boards.resolve("star64", facts, boards.merge(boards.builtin_profiles()))
    with pytest.raises(BoardError, match="unknown board 'nosuch'"):
        boards.resolve("nosuch", facts, boards.merge(boards.builtin_profiles()))


@pytest.mark.parametrize("name", ["Star64", "../x", "a b", "star64!", ""])
def test_board_names_are_restricted(name: str) -> None:
    with pytest.raises(BoardError, match="lowercase letters"):
        boards.check_board_name(name)


def test_malformed_profiles_are_schema_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"schema": "sbcbench-board/9", "name": "x"}')
    with pytest.raises(SchemaError, match=r"bad\.json"):
        boards.load_profiles(tmp_path)
    (tmp_path / "bad.json").write_text('{"schema": "sbcbench-board/1", "name": "x"}')
    with pytest.raises(SchemaError, match="malformed"):
        boards.load_profiles(tmp_path)
    (tmp_path / "bad.json").write_text("{truncated")
    with pytest.raises(SchemaError, match="unreadable"):
        boards.load_profiles(tmp_path)


def test_no_kernel_paths_outside_sysroot() -> None:
    """Only platform/sysroot.py may name the /proc and /sys trees, as text anywhere (comments
    included) or as string constants that start a relative path into them."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix() == "platform/sysroot.py":
            continue
        text = path.read_text()
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(r"/(proc|sys)/", line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.match(r"^(proc|sys|dev)/", node.value):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}")
    assert offenders == []
