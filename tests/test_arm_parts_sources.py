"""The project's HiSilicon (0x48) and Phytium (0x70) part names against the two sources that
name them: util-linux's ``sys-utils/lscpu-arm.c`` (``hisi_part[]``, ``ft_part[]``) and the
kernel's ``arch/arm64/include/asm/cputype.h`` (``HISI_CPU_PART_*``), copies of which are under
``tests/data/arm_parts`` (each ``.source.txt`` names the commit); and real cpuinfo captures of a
Kunpeng 920 and two Phytium machines named by them."""

from __future__ import annotations

import re

import pytest

from helpers import CPUINFO, DATA
from pytest_sbcbench.platform.arm_parts import IMPLEMENTERS, PARTS, part_name, vendor
from pytest_sbcbench.platform.parse import cpu_model, infer_arch, parse_cpuinfo

SOURCES = DATA / "arm_parts"
LSCPU = (SOURCES / "util-linux_lscpu-arm.c_hisi-phytium-excerpt.txt").read_text()
CPUTYPE = (SOURCES / "linux_arch-arm64-include-asm-cputype.h_hisi-excerpt.txt").read_text()


def code(text: str, width: int) -> str:
    return f"0x{int(text, 16):0{width}x}"


def lscpu_table(name: str) -> dict[str, str]:
    """``{part: name}`` of one ``id_part`` array of lscpu-arm.c (its ``-1`` end mark left out)."""
    body = re.search(rf"static const struct id_part {name}\[\] = \{{(.*?)\}};", LSCPU, re.S)
    assert body is not None, f"{name}[] not in the lscpu excerpt"
    return {code(part, 3): label for part, label in
            re.findall(r'\{\s*(0x[0-9a-fA-F]+),\s*"([^"]+)"', body.group(1))}


def lscpu_implementers() -> dict[str, tuple[str, str]]:
    """``{implementer: (table, vendor)}`` of the implementer entries in the excerpt."""
    return {code(imp, 2): (table, who) for imp, table, who in
            re.findall(r'\{\s*(0x[0-9a-fA-F]+),\s*(\w+),\s*"([^"]+)"', LSCPU)}


def kernel_hisi() -> dict[str, str]:
    """``{part: name}`` of ``HISI_CPU_PART_<NAME> 0x...``."""
    return {code(part, 3): label for label, part in
            re.findall(r"#define HISI_CPU_PART_(\w+)\s+(0x[0-9A-Fa-f]+)", CPUTYPE)}


def test_the_excerpts_hold_what_they_claim() -> None:
    assert lscpu_implementers() == {"0x48": ("hisi_part", "HiSilicon"),
                                    "0x70": ("ft_part", "Phytium")}
    assert len(lscpu_table("hisi_part")) == 7 and len(lscpu_table("ft_part")) == 7
    assert kernel_hisi() == {"0xd01": "TSV110", "0xd02": "HIP09", "0xd06": "HIP12"}
    assert re.search(r"#define ARM_CPU_IMP_HISI\s+0x48", CPUTYPE)


@pytest.mark.parametrize("implementer", ["0x48", "0x70"])
def test_every_lscpu_part_is_named_as_lscpu_names_it(implementer: str) -> None:
    table, who = lscpu_implementers()[implementer]
    assert IMPLEMENTERS[implementer] == vendor(implementer) == who
    parts = lscpu_table(table)
    for part, label in parts.items():
        assert part_name(implementer, part).split(" (")[0] == label, part
    assert set(PARTS[implementer]) == set(parts)  # nothing of our own beside the sources


def test_every_kernel_hisilicon_part_carries_the_kernels_name() -> None:
    for part, label in kernel_hisi().items():
        assert part_name("0x48", part).endswith(f" ({label})"), part


def test_a_hisilicon_part_neither_source_names_keeps_its_number() -> None:
    """0xd42 is ARM's Cortex-A78AE; under HiSilicon's implementer neither lscpu nor the
    kernel names it, so it stays a number, never ARM's name."""
    assert part_name("0x41", "0xd42") == "Cortex-A78AE"
    assert part_name("0x48", "0xd42") == "part 0xd42"
    assert vendor("0x48") == "HiSilicon"


@pytest.mark.parametrize(("name", "model"), [
    ("arm64_hisilicon-kunpeng-920_huawei-cloud-kc1_kernel4.15.txt",
     "HiSilicon Kunpeng-920 (TSV110)"),
    ("arm64_phytium-ft2000_ftc662_first-block.txt", "Phytium FTC662"),
    ("arm64_phytium-ft1500a_ftc660_kylin-model-name.txt", "phytium FT1500a"),
])
def test_real_captures_are_named(name: str, model: str) -> None:
    """A Kunpeng 920 and an FT-2000 by their implementer and part; the Kylin kernel's own
    ``model name`` line (FT-1500A, part 0x660 = lscpu's FTC660) is the name it states."""
    info = parse_cpuinfo((CPUINFO / name).read_text())
    assert infer_arch(info) == "aarch64" and cpu_model(info) == model
