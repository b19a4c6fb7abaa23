"""Which FreeBSD machine this is: the probe's fields, from sysctl, the boot messages, uname and
kenv, in that order of trust.

``hw.model`` is the CPU on FreeBSD (``Intel(R) Core(TM) i5-2415M CPU @ 2.30GHz``, on arm64
``ARM Cortex-A53 r0p4``), sometimes padded with runs of spaces (``Intel(R) Xeon(R) CPU
X3220  @ 2.40GHz``); the machine's name is the SMBIOS product (``kenv smbios.system.product``),
the device tree's model (``hw.fdt.model``) or, on Apple hardware, the description the SMC
driver attaches (``asmc0: <Apple SMC MacBook Pro (early 2011, 13-inch)>``, which FreeBSD's
asmc driver gives the SMBIOS product ``MacBookPro8,1`` only)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .machine import FreeBsd
from .sysctl import top_mhz, whole
from .system import linux_arch


@dataclass(frozen=True)
class FreeBsdIdentity:
    """The probe's fields for a FreeBSD machine (the names :class:`..probe.Probe` uses)."""

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
    machine_arch: str | None


def squeeze(text: str | None) -> str:
    """Runs of white space as one space, ends stripped (``hw.model``'s padding)."""
    return re.sub(r"\s+", " ", text or "").strip()


def logical_cpus(machine: FreeBsd) -> int:
    """``hw.ncpu``, else ``kern.smp.cpus``, else the boot's ``Multiprocessor System Detected``,
    else the CPUs the boot identified; 1 when nothing says."""
    entries = machine.sysctl_all()
    boot = machine.boot()
    for value in (whole(entries.get("hw.ncpu")), whole(entries.get("kern.smp.cpus")),
                  boot.cpus, len(boot.cpu_models) or None):
        if value is not None and value > 0:
            return value
    return 1


def max_clocks(machine: FreeBsd, cpus: int) -> tuple[float | None, ...]:
    """Each CPU's highest clock: the top of ``dev.cpu.N.freq_levels`` (Intel's turbo marker,
    the first level one MHz above the second, is not a clock: the level below it is taken),
    else the boot's ``cpuN: Nominal frequency``; None where neither says."""
    entries = machine.sysctl_all()
    nominal = machine.boot().nominal_mhz
    out: list[float | None] = []
    for cpu in range(cpus):
        top = top_mhz(entries.get(f"dev.cpu.{cpu}.freq_levels"))
        out.append(top if top is not None else nominal.get(cpu))
    return tuple(out)


def identify(machine: FreeBsd) -> FreeBsdIdentity:
    entries = machine.sysctl_all()
    boot = machine.boot()
    uname = machine.uname()
    kenv = machine.kenv()
    machine_arch = (entries.get("hw.machine_arch") or entries.get("hw.machine")
                    or (uname.machine if uname else None) or boot.machine)
    release = (entries.get("kern.osrelease") or (uname.release if uname else None)
               or boot.release or "")
    ostype = entries.get("kern.ostype") or (uname.sysname if uname else None) or "FreeBSD"
    product = kenv.get("smbios.system.product") or None
    board = (squeeze(entries.get("hw.fdt.model")) or product
             or (f"Apple SMC {boot.smc_model}" if boot.smc_model else None))
    cpus = logical_cpus(machine)
    return FreeBsdIdentity(
        arch=linux_arch(machine_arch) or "unknown",
        cpus=cpus,
        cpu_model=squeeze(entries.get("hw.model")) or squeeze(boot.cpu_model) or "unknown",
        board_model=board,
        compatible=(),
        dmi_product=product,
        dmi_vendor=kenv.get("smbios.system.maker") or None,
        kernel=squeeze(release),
        os=squeeze(f"{ostype} {release}") if release else ostype,
        max_mhz=max_clocks(machine, cpus),
        machine_arch=machine_arch,
    )
