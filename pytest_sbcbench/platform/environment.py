"""The environment block of a results file: what the numbers were measured on."""

from __future__ import annotations

import os
import platform as _stdlib_platform
from collections.abc import Mapping
from typing import Any

from ..version import __version__
from .host import read_meminfo
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
    """``MemTotal`` in bytes, None when unknown; a broken meminfo is a
    :class:`..errors.SysrootError` naming it (the probe at start-up reads it first, so a run
    never meets it at the end)."""
    info = read_meminfo(sysroot)
    return None if info is None else info.get("MemTotal")


BOOT_ID_VARIABLE = "SBCBENCH_BOOT_ID"


def boot(sysroot: Sysroot, variables: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The boot a session ran in: ``boot_id`` (sessions of one boot are one replicate of the
    baseline), ``uptime_s`` and ``kernel_release``.

    ``SBCBENCH_BOOT_ID`` replaces the recorded boot id: for testing and simulation only (the
    stand-in openssl's simulated boots, scripts/suite_replay.py), never for real baselines."""
    env = os.environ if variables is None else variables
    override = env.get(BOOT_ID_VARIABLE, "").strip()
    return {"boot_id": override or sysroot.boot_id(),
            "boot_id_source": BOOT_ID_VARIABLE if override else "kernel",
            "uptime_s": sysroot.uptime_s(), "kernel_release": sysroot.kernel_release() or None}


def environment(sysroot: Sysroot, probe: Probe, **tools: str | None) -> dict[str, Any]:
    """Arch, kernel, OS, CPU, governor, the boot, tool versions (``openssl=...``) and python."""
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
    env.update(boot(sysroot))
    env.update(tools)
    return env
