"""CPU topology and caches: SMT siblings, clusters, the last-level cache."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cpufreq import policies, read_cpu_list
from .sysroot import CPU_DIR, Sysroot

SIZE = re.compile(r"^(\d+)\s*([KMG]?)", re.IGNORECASE)


def parse_size(text: str) -> int | None:
    """sysfs cache sizes: ``32768K`` -> bytes."""
    match = SIZE.match(text.strip())
    if not match:
        return None
    return int(match.group(1)) * {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}[
        match.group(2).upper()]


@dataclass(frozen=True)
class Cache:
    level: int
    type: str
    size_bytes: int
    shared_cpus: tuple[int, ...]


def caches(sysroot: Sysroot, cpu: int = 0) -> list[Cache]:
    out = []
    base = f"{CPU_DIR}/cpu{cpu}/cache"
    for index in sysroot.listdir(base):
        if not index.startswith("index"):
            continue
        level = sysroot.read_int(f"{base}/{index}/level")
        size = parse_size(sysroot.read(f"{base}/{index}/size", default=""))
        if level is None or size is None:
            continue
        kind = sysroot.read(f"{base}/{index}/type", default="").strip()
        shared = read_cpu_list(sysroot, f"{base}/{index}/shared_cpu_list")
        out.append(Cache(level, kind, size, shared))
    return out


def last_level_cache(sysroot: Sysroot) -> Cache | None:
    """The highest-level data/unified cache of any CPU (the largest at that level)."""
    cpus = [int(n[3:]) for n in sysroot.listdir(CPU_DIR) if re.fullmatch(r"cpu\d+", n)]
    found = [c for cpu in cpus for c in caches(sysroot, cpu) if c.type != "Instruction"]
    if not found:
        return None
    top = max(c.level for c in found)
    return max((c for c in found if c.level == top), key=lambda c: c.size_bytes)


def smt_groups(sysroot: Sysroot) -> list[tuple[int, ...]]:
    """Groups of logical CPUs that share one core (``thread_siblings_list``)."""
    groups = set()
    for name in sysroot.listdir(CPU_DIR):
        if re.fullmatch(r"cpu\d+", name):
            siblings = read_cpu_list(sysroot, f"{CPU_DIR}/{name}/topology/thread_siblings_list")
            if siblings:
                groups.add(siblings)
    return sorted(groups)


def describe_threads(sysroot: Sysroot, threads: int) -> str:
    """What the first ``threads`` CPUs are: separate cores, SMT siblings, or another cluster."""
    notes = []
    for group in smt_groups(sysroot):
        inside = [c for c in group if c < threads]
        if len(inside) > 1:
            notes.append(f"CPUs {','.join(map(str, inside))} are SMT siblings of one core")
    clusters = [p for p in policies(sysroot) if any(c < threads for c in p.cpus)]
    if len(clusters) > 1:
        parts = [f"{p.name} {p.max_khz // 1000 if p.max_khz else '?'} MHz" for p in clusters]
        notes.append("spans clusters: " + ", ".join(parts))
    return "; ".join(notes) or "separate cores, one cluster"
