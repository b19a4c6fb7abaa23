"""What a block device is attached through: an mmc bus mode, a SATA link, a spinning disk."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError
from .mmc import parse_ios
from .sysroot import ATA_LINK_DIR, BLOCK_DIR, MMC_DEBUG_DIR, Sysroot


@dataclass(frozen=True)
class Interface:
    device: str
    kind: str
    limit_bytes_per_s: float | None
    rotational: bool | None
    detail: str


def base_device(name: str) -> str:
    """``mmcblk0p2`` -> ``mmcblk0``, ``sda3`` -> ``sda``, ``nvme0n1p1`` -> ``nvme0n1``; a whole
    disk (``mmcblk0``, ``nvme0n1``, ``sda``) is its own base."""
    name = name.rsplit("/", 1)[-1]
    for pattern in (r"(mmcblk\d+)(?:p\d+)?", r"(nvme\d+n\d+)(?:p\d+)?", r"([a-z]+)\d+"):
        match = re.fullmatch(pattern, name)
        if match:
            return match.group(1)
    return name


def sata_bytes_per_s(spd: str) -> float | None:
    """``6.0 Gbps`` -> 600 MB/s (8b/10b line coding)."""
    match = re.match(r"([\d.]+)\s*Gbps", spd.strip())
    return float(match.group(1)) * 1e9 * 8 / 10 / 8 if match else None


def interface(sysroot: Sysroot, device: str) -> Interface:
    dev = base_device(device)
    rot = sysroot.read_int(f"{BLOCK_DIR}/{dev}/queue/rotational")
    rotational = None if rot is None else bool(rot)
    target = sysroot.resolve(f"{BLOCK_DIR}/{dev}/device") or ""
    mmc = re.search(r"/(mmc\d+)/mmc\d+:", "/" + target)
    if mmc:
        text = sysroot.read(f"{MMC_DEBUG_DIR}/{mmc.group(1)}/ios", default="")
        try:
            ios = parse_ios(text)
            return Interface(dev, "mmc", ios.limit_bytes_per_s, False,
                             f"{mmc.group(1)} {ios.timing}, {ios.bus_width_bits} bits at "
                             f"{(ios.actual_clock_hz or ios.clock_hz) / 1e6:.1f} MHz")
        except ParseError:
            return Interface(dev, "mmc", None, False, f"{mmc.group(1)}: ios not readable "
                             "(debugfs not mounted or not root)")
    ata = re.search(r"/ata(\d+)/", "/" + target)
    if ata:
        spd = sysroot.read(f"{ATA_LINK_DIR}/link{ata.group(1)}/sata_spd", default="")
        limit = sata_bytes_per_s(spd)
        disk = "rotational disk" if rotational else "SSD"
        return Interface(dev, "sata", limit, rotational, f"SATA {spd.strip() or '?'}, {disk}")
    return Interface(dev, "other", None, rotational,
                     "rotational" if rotational else "no interface limit known")
