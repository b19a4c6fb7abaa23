"""What the sysroot says about the machine: arch, CPUs, model, board identification."""

from __future__ import annotations

import os
import platform as _stdlib_platform
from dataclasses import asdict, dataclass, fields
from typing import Any

from .freebsd.detect import freebsd_machine
from .freebsd.identity import identify
from .freebsd.machine import FreeBsd
from .host import read_cpu_times, read_meminfo
from .parse import (
    CpuInfo,
    cpu_model,
    infer_arch,
    parse_cpuinfo,
    parse_nul_strings,
    parse_os_release,
)
from .sysroot import Sysroot


@dataclass(frozen=True)
class Probe:
    arch: str
    cpus: int
    cpu_model: str
    board_model: str | None
    compatible: tuple[str, ...]
    dmi_product: str | None
    dmi_vendor: str | None
    kernel: str
    os: str
    max_mhz: tuple[float | None, ...]

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["compatible"] = list(self.compatible)
        data["max_mhz"] = list(self.max_mhz)
        return data


def _board_model(sysroot: Sysroot, machine_model: str | None) -> str | None:
    raw = sysroot.device_tree("model")
    if raw:
        names = parse_nul_strings(raw)
        if names:
            return names[0]
    return sysroot.dmi("product_name") or machine_model


def max_mhz(sysroot: Sysroot, cpus: int) -> tuple[float | None, ...]:
    """Per-CPU maximum clock from cpufreq (kHz files), None where cpufreq is absent."""
    out: list[float | None] = []
    for cpu in range(cpus):
        text = sysroot.cpu_attr(cpu, "cpufreq/cpuinfo_max_freq")
        out.append(int(text) / 1000.0 if text and text.isdigit() else None)
    return tuple(out)


def check_later_reads(sysroot: Sysroot, cpus: int) -> None:
    """Read what the run reads after the probe (stat, meminfo, the boot id, uptime, each CPU's
    governor): a garbage file, a FIFO or a link out of a captured tree is a
    :class:`..errors.SysrootError` naming it now, before any benchmark runs."""
    read_cpu_times(sysroot)
    read_meminfo(sysroot)
    sysroot.boot_id()
    sysroot.uptime_s()
    for cpu in range(cpus):
        sysroot.cpu_attr(cpu, "cpufreq/scaling_governor")


def freebsd_probe(machine: FreeBsd) -> Probe:
    """The probe of a FreeBSD machine or capture, from sysctl, the boot messages, uname and
    kenv (:func:`.freebsd.identity.identify`)."""
    ident = identify(machine)
    return Probe(**{f.name: getattr(ident, f.name) for f in fields(Probe)})


def probe(sysroot: Sysroot, info: CpuInfo | None = None) -> Probe:
    """Read the machine's identification through ``sysroot`` (``info``: cpuinfo already parsed).

    On a captured tree the architecture comes from cpuinfo (evidence and precedence:
    :func:`.parse.infer_arch`); on the host, from ``uname``.  The files the samplers and the
    results' environment read later are read here too (:func:`check_later_reads`), so a
    broken one stops the run at start-up naming the file, never mid-run or while the results
    are written.  A FreeBSD capture, or this machine on FreeBSD, is probed by
    :func:`freebsd_probe`.
    """
    machine = freebsd_machine(sysroot) if info is None else None
    if machine is not None:
        return freebsd_probe(machine)
    info = info if info is not None else parse_cpuinfo(sysroot.cpuinfo())
    check_later_reads(sysroot, len(info.processors))
    arch = _stdlib_platform.machine() if sysroot.is_host else infer_arch(info)
    compatible = tuple(parse_nul_strings(sysroot.device_tree("compatible") or ""))
    release = parse_os_release(sysroot.os_release())
    kernel = sysroot.kernel_release() or (os.uname().release if sysroot.is_host else "")
    cpus = len(info.processors)
    return Probe(
        arch=arch,
        cpus=cpus,
        cpu_model=cpu_model(info),
        board_model=_board_model(sysroot, info.machine.get("model")),
        compatible=compatible,
        dmi_product=sysroot.dmi("product_name"),
        dmi_vendor=sysroot.dmi("sys_vendor"),
        kernel=kernel,
        os=release.get("PRETTY_NAME", release.get("NAME", "")),
        max_mhz=max_mhz(sysroot, cpus),
    )
