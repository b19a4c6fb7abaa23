"""Issue 24, truth classes 1, 2 and 6: the ARM architecture and CPU name a cpuinfo capture
states, read as the kernel writes them (captures: see each ``.source.txt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import CPUINFO, build_tree
from pytest_sbcbench.platform.arm_parts import part_name, vendor
from pytest_sbcbench.platform.parse import cpu_model, infer_arch, parse_cpuinfo
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot

ORIN = CPUINFO / "arm64_nvidia-jetson-agx-orin_l4t-5.10.65_model-name-v8l.txt"
S905W = CPUINFO / "arm64_amlogic-s905w_armbian-flippy-5.4.172_model-name-v8l.txt"
X1E = CPUINFO / "arm64_qualcomm-x1e001de_oryon_kernel6.14.txt"
KIRKWOOD_2631 = CPUINFO / "armv5_marvell-kirkwood-88f6281_feroceon_kernel2.6.31.txt"
KIRKWOOD_346 = CPUINFO / "armv5_marvell-kirkwood-88f6281_feroceon_kernel3.4.6_processor-name.txt"


def test_jetson_orin_v8l_model_name_over_64_bit_features_is_aarch64_cortex_a78ae() -> None:
    """L4T prints ``ARMv8 Processor rev 1 (v8l)`` in all 12 blocks of a 64-bit kernel; the
    Features line is the arm64 list and ``CPU architecture`` is 8."""
    info = parse_cpuinfo(ORIN.read_text())
    assert len(info.processors) == 12
    assert {cpu["model name"] for cpu in info.processors} == {"ARMv8 Processor rev 1 (v8l)"}
    assert infer_arch(info) == "aarch64"
    assert cpu_model(info) == "ARM Cortex-A78AE"


def test_amlogic_armbian_v8l_model_name_is_aarch64_cortex_a53() -> None:
    info = parse_cpuinfo(S905W.read_text())
    assert infer_arch(info) == "aarch64" and cpu_model(info) == "ARM Cortex-A53"


def test_v8l_over_the_32_bit_features_list_stays_armv8l() -> None:
    """What an arm64 kernel shows a 32-bit (PER_LINUX32) reader: ``(v8l)`` and the compat
    hwcaps; ``uname -m`` there is armv8l. The Orin capture with its Features line replaced by
    the compat names the same kernel gives such a reader."""
    compat = "half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt lpae evtstrm aes"
    lines = [f"Features\t: {compat}" if line.startswith("Features") else line
             for line in ORIN.read_text().splitlines()]
    assert infer_arch(parse_cpuinfo("\n".join(lines))) == "armv8l"


def test_probe_of_a_captured_orin_tree(tmp_path: Path) -> None:
    root = build_tree(tmp_path / "orin", ORIN)
    found = probe(Sysroot(root))
    assert (found.arch, found.cpus, found.cpu_model) == ("aarch64", 12, "ARM Cortex-A78AE")


def test_snapdragon_x_elite_is_named_oryon() -> None:
    info = parse_cpuinfo(X1E.read_text())
    assert len(info.processors) == 12 and infer_arch(info) == "aarch64"
    assert cpu_model(info) == "Qualcomm Oryon"
    assert (vendor("0x51"), part_name("0x51", "0x001")) == ("Qualcomm", "Oryon")


@pytest.mark.parametrize(("implementer", "part", "name"), [
    # arch/arm64/include/asm/cputype.h entries the table lacked before issue 24
    ("0x41", "0xd4c", "Cortex-X1C"), ("0x41", "0xd89", "Cortex-A720AE"),
    ("0x41", "0xd8b", "C1-Pro"), ("0x4e", "0x010", "Olympus"), ("0x46", "0x001", "A64FX"),
    ("0x48", "0xd02", "Kunpeng-920 (HIP09)"), ("0x6d", "0xd49", "Azure-Cobalt-100"),
    ("0x61", "0x039", "M2-Max-Avalanche"), ("0x43", "0x0af", "ThunderX2"),
])
def test_kernel_part_table_entries(implementer: str, part: str, name: str) -> None:
    assert part_name(implementer, part) == name


@pytest.mark.parametrize("path", [KIRKWOOD_2631, KIRKWOOD_346])
def test_kirkwood_feroceon_is_armv5tel_as_uname_says(path: Path) -> None:
    """``(v5l)`` is the ELF platform; ``uname -m`` is the proc_info's arch_name ``armv5te``
    plus the endianness (arch/arm/mm/proc-feroceon.S), which ``CPU architecture: 5TE``
    states. The 3.4.6 vendor kernel names the CPU on a ``Processor name :`` line."""
    info = parse_cpuinfo(path.read_text())
    assert len(info.processors) == 1
    assert info.first("cpu architecture") == "5TE"
    assert infer_arch(info) == "armv5tel"
    assert cpu_model(info).startswith("Feroceon 88F")


def test_without_a_model_name_a_5te_core_is_still_armv5tel() -> None:
    text = "\n".join(line for line in KIRKWOOD_2631.read_text().splitlines()
                     if not line.startswith("Processor"))
    assert infer_arch(parse_cpuinfo(text)) == "armv5tel"
