"""ZFS and the storage workload: the ARC is not the page cache.

Dropping the page cache (or ``fadvise(DONTNEED)``) leaves ZFS's ARC full, and reads through it
measure memory, not the disk; ``O_DIRECT`` goes through the ARC too before OpenZFS 2.3.  The
read-back of a test file measures the disk only when the ARC keeps no data of the dataset
(``primarycache=metadata`` or ``none``) or when the file is far larger than the ARC can grow
(twice ``kstat.zfs.misc.arcstats.c_max``: a sequential read of it evicts what it would hit).
Anything else is refused, saying why and how to make a dataset that works.

``zfs get`` and ``sysctl`` run through the executor seam; their outputs are parsed by pure
functions here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from ..executor import Executor
from .sysctl import parse_sysctl, whole

ARC_NAMES = ("kstat.zfs.misc.arcstats.c_max", "vfs.zfs.arc.max", "vfs.zfs.arc_max")
ARC_MARGIN = 2  # a file this many times the ARC's ceiling cannot be read back from it
NO_DATA_CACHING = ("metadata", "none")
TIMEOUT_S = 60.0
K = TypeVar("K")


def parse_zfs_get(text: str) -> dict[tuple[str, str], str]:
    """``zfs get`` output (``NAME PROPERTY VALUE SOURCE`` aligned columns, or ``-H`` tab-separated
    rows) -> {(dataset, property): value}.  Values may contain spaces (``creation  Fri May 15
    4:00 2020``): aligned columns are cut at the header's column starts."""
    lines = [line for line in text.splitlines() if line.strip()]
    out: dict[tuple[str, str], str] = {}
    if not lines:
        return out
    header = lines[0]
    cols = [header.find(word) for word in ("PROPERTY", "VALUE", "SOURCE")]
    aligned = header.split()[:1] == ["NAME"] and all(c > 0 for c in cols)
    for line in lines[1 if aligned else 0:]:
        if "\t" in line:
            fields = line.split("\t")
        elif aligned:
            fields = [line[:cols[0]], line[cols[0]:cols[1]], line[cols[1]:cols[2]]]
        else:
            fields = line.split()
        if len(fields) >= 3 and fields[0].strip() and fields[1].strip():
            out[(fields[0].strip(), fields[1].strip())] = fields[2].strip()
    return out


def arc_ceiling(entries: Mapping[str, str]) -> int | None:
    """The most the ARC may hold, in bytes: ``kstat.zfs.misc.arcstats.c_max``, else a limit the
    administrator set (``vfs.zfs.arc.max``, legacy ``vfs.zfs.arc_max``); ``0`` there means "not
    set", not a zero ARC.  None when nothing says."""
    for name in ARC_NAMES:
        value = whole(entries.get(name))
        if value is not None and value > 0:
            return value
    return None


@dataclass(frozen=True)
class ArcDecision:
    """Whether the storage workload's read-back can be the disk on this ZFS dataset: ``method``
    says how it is (for the results), ``refusal`` why it cannot."""

    dataset: str
    primarycache: str | None
    arc_max: int | None
    method: str | None
    refusal: str | None


def decide(dataset: str, primarycache: str | None, arc_max: int | None,
           size: int) -> ArcDecision:
    """The decision for a test file of ``size`` bytes (pure)."""
    if primarycache in NO_DATA_CACHING:
        return ArcDecision(dataset, primarycache, arc_max,
                           f"zfs primarycache={primarycache} (the ARC keeps no file data)", None)
    if arc_max is not None and size >= ARC_MARGIN * arc_max:
        return ArcDecision(dataset, primarycache, arc_max,
                           f"zfs test file {size / arc_max:.1f}x the ARC ceiling", None)
    ceiling = (f"the ARC may hold {arc_max / 2**30:.1f} GiB" if arc_max is not None else
               "its ceiling is unknown (vfs.zfs.arc.max 0 means not set)")
    pool = dataset.split("/")[0]
    why = (f"ZFS dataset {dataset} caches file data in the ARC (primarycache="
           f"{primarycache or 'unknown'}), which dropping the page cache does not empty, and "
           f"{ceiling}: a {size / 2**20:.0f} MiB test file would be read back from memory. "
           f"Create a dataset that caches metadata only, `zfs create -o primarycache=metadata "
           f"{pool}/sbcbench`, and point --sbc-storage-path at its mountpoint")
    return ArcDecision(dataset, primarycache, arc_max, None, why)


def arc_cache_defeat(executor: Executor, dataset: str, size: int,
                     timeout: float = TIMEOUT_S) -> ArcDecision:
    """Ask the machine (``zfs get primarycache``, ``sysctl`` of the ARC's ceiling) and decide."""
    return decide(dataset, _ask(executor, ["zfs", "get", "primarycache", dataset], timeout,
                                parse_zfs_get).get((dataset, "primarycache")),
                  arc_ceiling(_ask(executor, ["sysctl", "-i", *ARC_NAMES], timeout,
                                   parse_sysctl)), size)


def _ask(executor: Executor, argv: list[str], timeout: float,
         parse: Callable[[str], Mapping[K, str]]) -> Mapping[K, str]:
    """``argv``'s output parsed; empty when the command is missing or fails."""
    try:
        done = executor.run(argv, timeout)
    except OSError:
        return {}
    return parse(done.stdout) if done.returncode == 0 else {}
