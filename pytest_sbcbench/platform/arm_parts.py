"""ARM ``CPU implementer`` / ``CPU part`` codes to names.

A part number means nothing without its implementer: 0xd01 is ARM's Cortex-A32 but HiSilicon's
TSV110, and Apple (implementer 0x61) numbers its cores from 0x022. Values follow the Linux
kernel's ``arch/arm64/include/asm/cputype.h`` (checked against the whole list as Steffen Eiden's
linux-s390 patch moving it to ``include/arch/arm64/asm/cputype-defs.h`` quotes it, which has
QCOM_CPU_PART_ORYON_X1 0x001), util-linux's ``sys-utils/lscpu-arm.c`` and ARM's technical
reference manuals.  HiSilicon (0x48) and Phytium (0x70) follow lscpu, with the kernel's name of
a HiSilicon part beside lscpu's (``Kunpeng-920 (TSV110)``): tests/test_arm_parts_sources.py
compares them with copies of both sources."""

from __future__ import annotations

IMPLEMENTERS: dict[str, str] = {
    "0x41": "ARM", "0x42": "Broadcom", "0x43": "Cavium", "0x46": "Fujitsu", "0x48": "HiSilicon",
    "0x4e": "NVIDIA", "0x50": "APM", "0x51": "Qualcomm", "0x53": "Samsung", "0x56": "Marvell",
    "0x61": "Apple", "0x69": "Intel", "0x6d": "Microsoft", "0x70": "Phytium", "0xc0": "Ampere",
}

PARTS: dict[str, dict[str, str]] = {
    "0x41": {
        "0xb02": "ARM11-MPCore", "0xb36": "ARM1136", "0xb56": "ARM1156", "0xb76": "ARM1176",
        "0xc05": "Cortex-A5", "0xc07": "Cortex-A7", "0xc08": "Cortex-A8", "0xc09": "Cortex-A9",
        "0xc0d": "Cortex-A12", "0xc0e": "Cortex-A17", "0xc0f": "Cortex-A15",
        "0xd01": "Cortex-A32", "0xd02": "Cortex-A34", "0xd03": "Cortex-A53", "0xd04": "Cortex-A35",
        "0xd05": "Cortex-A55", "0xd07": "Cortex-A57", "0xd08": "Cortex-A72", "0xd09": "Cortex-A73",
        "0xd0a": "Cortex-A75", "0xd0b": "Cortex-A76", "0xd0c": "Neoverse-N1",
        "0xd0d": "Cortex-A77", "0xd0e": "Cortex-A76AE", "0xd40": "Neoverse-V1",
        "0xd41": "Cortex-A78", "0xd42": "Cortex-A78AE", "0xd44": "Cortex-X1",
        "0xd46": "Cortex-A510", "0xd47": "Cortex-A710", "0xd48": "Cortex-X2",
        "0xd49": "Neoverse-N2", "0xd4b": "Cortex-A78C", "0xd4c": "Cortex-X1C",
        "0xd4d": "Cortex-A715", "0xd4e": "Cortex-X3", "0xd4f": "Neoverse-V2",
        "0xd80": "Cortex-A520", "0xd81": "Cortex-A720", "0xd82": "Cortex-X4",
        "0xd83": "Neoverse-V3AE", "0xd84": "Neoverse-V3", "0xd85": "Cortex-X925",
        "0xd87": "Cortex-A725", "0xd89": "Cortex-A720AE", "0xd8b": "C1-Pro",
        "0xd8e": "Neoverse-N3",
    },
    "0x42": {"0x100": "Brahma-B53", "0x516": "Vulcan"},
    "0x43": {"0x0a1": "ThunderX", "0x0a2": "ThunderX-81xx", "0x0a3": "ThunderX-83xx",
             "0x0af": "ThunderX2", "0x0b1": "OcteonTX2-98xx", "0x0b2": "OcteonTX2-96xx",
             "0x0b3": "OcteonTX2-95xx", "0x0b4": "OcteonTX2-95xxN", "0x0b5": "OcteonTX2-95xxMM",
             "0x0b6": "OcteonTX2-95xxO"},
    "0x46": {"0x001": "A64FX"},
    "0x4e": {"0x000": "Denver", "0x003": "Denver2", "0x004": "Carmel", "0x010": "Olympus"},
    "0x50": {"0x000": "X-Gene"},
    # 0x001: the kernel's QCOM_CPU_PART_ORYON_X1 (Snapdragon X Elite X1E); the Snapdragon 8
    # Elite (SM8750) reports 0x51/0x001 as well (sbc-bench's results/cpuinfo captures), so the
    # name is the family's
    "0x51": {"0x001": "Oryon", "0x00f": "Scorpion", "0x02d": "Scorpion", "0x04d": "Krait",
             "0x06f": "Krait", "0x201": "Kryo", "0x205": "Kryo", "0x211": "Kryo",
             "0x800": "Kryo-2xx-Gold", "0x801": "Kryo-2xx-Silver", "0x802": "Kryo-3xx-Gold",
             "0x803": "Kryo-3xx-Silver", "0x804": "Kryo-4xx-Gold", "0x805": "Kryo-4xx-Silver",
             "0xc00": "Falkor"},
    # util-linux lscpu's names (sys-utils/lscpu-arm.c hisi_part[]), the kernel's (cputype.h
    # HISI_CPU_PART_*) beside them where it has its own; 0xd40/0xd41 are lscpu's ("HiSilicon
    # uses this ID though advertises A76/A77"); any other part (0xd42 ...) keeps its number
    "0x48": {"0xd01": "Kunpeng-920 (TSV110)", "0xd02": "Kunpeng-920 (HIP09)",
             "0xd03": "Kunpeng-920", "0xd06": "Kunpeng-950 (HIP12)", "0xd22": "Kunpeng-920",
             "0xd40": "Cortex-A76", "0xd41": "Cortex-A77"},
    # lscpu's ft_part[]; the kernel names no Phytium part
    "0x70": {"0x303": "FTC310", "0x660": "FTC660", "0x661": "FTC661", "0x662": "FTC662",
             "0x663": "FTC663", "0x664": "FTC664", "0x862": "FTC862"},
    "0x61": {"0x022": "M1-Icestorm", "0x023": "M1-Firestorm", "0x024": "M1-Pro-Icestorm",
             "0x025": "M1-Pro-Firestorm", "0x028": "M1-Max-Icestorm",
             "0x029": "M1-Max-Firestorm", "0x032": "M2-Blizzard", "0x033": "M2-Avalanche",
             "0x034": "M2-Pro-Blizzard", "0x035": "M2-Pro-Avalanche",
             "0x038": "M2-Max-Blizzard", "0x039": "M2-Max-Avalanche"},
    "0x56": {"0x131": "Feroceon-88FR131"},
    "0x6d": {"0xd49": "Azure-Cobalt-100"},
    "0xc0": {"0xac3": "Ampere-1", "0xac4": "Ampere-1A"},
}


def _code(text: str, width: int) -> str:
    """``0x0D0B`` -> ``0xd0b`` (``width`` hex digits); text that is not hex is kept lower-cased."""
    try:
        return f"0x{int(text, 16):0{width}x}"
    except ValueError:
        return text.strip().lower()


def part_name(implementer: str, part: str) -> str:
    """``(0x41, 0xd0b)`` -> ``Cortex-A76``; an unknown code keeps its number, never a guess."""
    code = _code(part, 3)
    return PARTS.get(_code(implementer, 2), {}).get(code, f"part {code or '?'}")


def vendor(implementer: str) -> str:
    """``0x41`` -> ``ARM``; an unknown implementer keeps its number."""
    impl = _code(implementer, 2)
    return IMPLEMENTERS.get(impl, f"implementer {impl or '?'}")
