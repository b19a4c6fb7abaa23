"""cpufreq policies, clocks, governors and devfreq, read through a Sysroot.

Clusters are the cpufreq policies: the CPUs that share one clock."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import SysrootError
from .sysroot import CPU_DIR, DEVFREQ_DIR, POLICY_DIR, Sysroot

MAX_CPUS = 1 << 16  # Linux's NR_CPUS is at most 8192; a list naming more is not the kernel's
CPU_RANGE = re.compile(r"(\d{1,9})(?:-(\d{1,9}))?")


@dataclass(frozen=True)
class Policy:
    name: str
    cpus: tuple[int, ...]
    max_khz: int | None
    governor: str | None


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """``0-3,6`` -> (0, 1, 2, 3, 6); the kernel's cpu list format (empty text: no CPUs).

    A part that is no number or ascending range (``0-3,a``, ``3-1``), or a CPU at or beyond
    65536 (``0-99999999`` would expand to 10^8 numbers), is a :class:`ValueError` saying
    which part: bounded before anything is expanded."""
    out: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        match = CPU_RANGE.fullmatch(part)
        if match is None:
            raise ValueError(f"{part[:40]!r} is not a CPU number or range")
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if last < first:
            raise ValueError(f"{part!r} is a descending range")
        if last >= MAX_CPUS or len(out) + last - first >= MAX_CPUS:
            raise ValueError(f"{part!r} names more than the {MAX_CPUS} CPUs a kernel can have")
        out.extend(range(first, last + 1))
    return tuple(out)


def read_cpu_list(sysroot: Sysroot, rel: str) -> tuple[int, ...]:
    """The CPU list in ``rel`` (empty when absent); a list the kernel would never print is a
    :class:`SysrootError` naming the file."""
    text = sysroot.read(rel, default="")
    try:
        return parse_cpu_list(text)
    except ValueError as exc:
        raise SysrootError(sysroot.path(rel), f"not a CPU list: {exc}") from exc


def parse_time_in_state(text: str) -> dict[int, int]:
    """``stats/time_in_state``: kHz -> time in 10 ms units."""
    out: dict[int, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            out[int(parts[0])] = int(parts[1])
    return out


def _cpu_ids(sysroot: Sysroot) -> list[int]:
    return sorted(int(n[3:]) for n in sysroot.listdir(CPU_DIR) if n[3:].isdigit()
                  and n.startswith("cpu"))


def policies(sysroot: Sysroot) -> list[Policy]:
    """The cpufreq policies; per-CPU cpufreq directories when there is no policy directory."""
    found = []
    for name in sysroot.listdir(POLICY_DIR):
        if not name.startswith("policy"):
            continue
        base = f"{POLICY_DIR}/{name}"
        cpus = (read_cpu_list(sysroot, f"{base}/related_cpus")
                or read_cpu_list(sysroot, f"{base}/affected_cpus"))
        found.append(Policy(name, cpus, sysroot.read_int(f"{base}/cpuinfo_max_freq"),
                            sysroot.read(f"{base}/scaling_governor", default="").strip() or None))
    if found:
        return found
    for cpu in _cpu_ids(sysroot):
        max_khz = sysroot.read_int(f"{CPU_DIR}/cpu{cpu}/cpufreq/cpuinfo_max_freq")
        if max_khz is not None:
            governor = sysroot.cpu_attr(cpu, "cpufreq/scaling_governor")
            found.append(Policy(f"cpu{cpu}", (cpu,), max_khz, governor))
    return found


def missing_reason(sysroot: Sysroot) -> str:
    """Why clocks cannot be sampled when :func:`policies` found none."""
    return (f"no cpufreq under {sysroot.path(CPU_DIR)} (a VM, or no cpufreq driver): "
            "clocks are not sampled")


def current_khz(sysroot: Sysroot, cpu: int) -> int | None:
    """``cpuinfo_cur_freq`` (what the hardware reports) when readable, else ``scaling_cur_freq``."""
    base = f"{CPU_DIR}/cpu{cpu}/cpufreq"
    value = sysroot.read_int(f"{base}/cpuinfo_cur_freq")
    return value if value is not None else sysroot.read_int(f"{base}/scaling_cur_freq")


def time_in_state(sysroot: Sysroot, cpu: int) -> dict[int, int]:
    return parse_time_in_state(
        sysroot.read(f"{CPU_DIR}/cpu{cpu}/cpufreq/stats/time_in_state", default=""))


def governor_files(sysroot: Sysroot) -> dict[str, str]:
    """Every cpufreq and devfreq governor file (relative path) and its current value."""
    out: dict[str, str] = {}
    for policy in sysroot.listdir(POLICY_DIR):
        rel = f"{POLICY_DIR}/{policy}/scaling_governor"
        if sysroot.exists(rel):
            out[rel] = sysroot.read(rel).strip()
    if not out:
        for cpu in _cpu_ids(sysroot):
            rel = f"{CPU_DIR}/cpu{cpu}/cpufreq/scaling_governor"
            if sysroot.exists(rel):
                out[rel] = sysroot.read(rel).strip()
    for device in sysroot.listdir(DEVFREQ_DIR):
        rel = f"{DEVFREQ_DIR}/{device}/governor"
        if sysroot.exists(rel):
            out[rel] = sysroot.read(rel).strip()
    return out
