"""The environment block of a results file: what the numbers were measured on."""

from __future__ import annotations

import platform as _stdlib_platform
from typing import Any

from .. import __version__
from .parse import parse_meminfo
from .probe import Probe
from .sysroot import Sysroot


def governors(sysroot: Sysroot, cpus: int) -> dict[str, str]:
    """cpufreq governor per CPU, for the CPUs that have cpufreq."""
    out: dict[str, str] = {}
    for cpu in range(cpus):
        governor = sysroot.cpu_attr(cpu, "cpufreq/scaling_governor")
        if governor:
            out[f"cpu{cpu}"] = governor
    return out


def memory_total(sysroot: Sysroot) -> int | None:
    text = sysroot.meminfo(default="")
    if not text:
        return None
    return parse_meminfo(text).get("MemTotal")


def environment(sysroot: Sysroot, probe: Probe, **tools: str | None) -> dict[str, Any]:
    """Arch, kernel, OS, CPU, governor, tool versions (``openssl=...``) and python."""
    govs = governors(sysroot, probe.cpus)
    distinct = sorted(set(govs.values()))
    env: dict[str, Any] = {
        "arch": probe.arch,
        "kernel": probe.kernel,
        "os": probe.os,
        "cpu_model": probe.cpu_model,
        "cpus": probe.cpus,
        "board_model": probe.board_model,
        "memory_bytes": memory_total(sysroot),
        "governor": distinct[0] if len(distinct) == 1 else (",".join(distinct) or None),
        "python": _stdlib_platform.python_version(),
        "sbcbench": __version__,
        "sysroot": None if sysroot.is_host else str(sysroot.root),
    }
    env.update(tools)
    return env
