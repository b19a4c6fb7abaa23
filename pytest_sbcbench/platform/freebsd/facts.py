"""What ``sbcbench probe`` reports about a FreeBSD machine beyond the probe: the ISA features,
accelerators, the clock each CPU delivers and the temperatures now, the kernel's crypto
drivers, and which of the machine's sources answered.

The keys the Linux probe has keep their names and meaning (``features``, ``isa``, ``accel``,
``accel_from``, ``clusters``, ``kernel_crypto`` ...); FreeBSD adds ``os_family``,
``machine_arch``, ``cur_mhz`` (the delivered clock per logical CPU, None where the machine does
not say), ``cpu_temp_c`` (per logical CPU), ``temps_c`` (every sensor by name), ``tsc_mhz`` (the
clock the kernel measured at boot, x86), ``root_mount``, ``sources`` (which of sysctl, the boot
messages, uname and kenv answered) and ``missing_sources`` (why the others did not)."""

from __future__ import annotations

from typing import Any

from ..isa import accel, accel_sources
from .features import boot_features
from .identity import FreeBsdIdentity, max_clocks
from .machine import FreeBsd
from .sensors import celsius, clocks, sensors

# Kernel crypto drivers FreeBSD attaches: CPU instructions, hardware engines, software.
CPU_CRYPTO = ("aesni", "armv8crypto", "ossl", "padlock", "via", "blake2")
ENGINE_CRYPTO = ("ccr", "ccp", "safexcel", "qat", "hifn", "glxsb", "ubsec", "sec")


def _kind(driver: str) -> str:
    base = driver.rstrip("0123456789")
    if base in CPU_CRYPTO:
        return "cpu"
    if base in ENGINE_CRYPTO:
        return "engine"
    return "generic" if base == "cryptosoft" else "unknown"


def kernel_crypto(machine: FreeBsd) -> list[dict[str, Any]]:
    """``aesni0: <AES-CBC,AES-CCM,AES-GCM,AES-ICM,AES-XTS>``: one entry per algorithm a crypto
    driver announced at boot, shaped as the Linux probe's entries."""
    out = []
    for driver, algorithms in sorted(machine.boot().crypto_drivers.items()):
        module = driver.rstrip("0123456789")
        for name in algorithms or ("(none announced)",):
            out.append({"name": name, "driver": driver, "module": module, "priority": None,
                        "type": "cipher", "kind": _kind(driver)})
    return out


def freebsd_facts(machine: FreeBsd, ident: FreeBsdIdentity) -> dict[str, Any]:
    """The keys :func:`..facts.platform_facts` adds to the probe's, for a FreeBSD machine."""
    found = boot_features(machine.boot(), ident.arch)
    entries = machine.sysctl_all()
    clock = clocks(entries, ident.cpus)
    by_cpu = dict(zip(sorted(clock.oids), clock.read(entries), strict=True))
    temps = {s.name: celsius(s, entries) for s in sensors(entries)}
    crypto = kernel_crypto(machine)
    maximum = [m for m in max_clocks(machine, ident.cpus) if m is not None]
    boot = machine.boot()
    return {
        "os_family": "FreeBSD",
        "machine_arch": ident.machine_arch,
        "features": list(found.names),
        "feature_family": found.arch,
        "isa": None,
        "accel": accel(found),
        "accel_from": accel_sources(found),
        "notes": ([] if found.names else
                  ["no CPU feature lines in the boot messages (a partial dmesg.boot)"]),
        "clusters": ([{"policy": "dev.cpu", "cpus": sorted(clock.oids),
                       "max_mhz": max(maximum) if maximum else None, "governor": None}]
                     if clock.oids else []),
        "cur_mhz": [by_cpu.get(cpu) for cpu in range(ident.cpus)],
        "cpu_temp_c": [temps.get(f"cpu{cpu}") for cpu in range(ident.cpus)],
        "temps_c": temps,
        "tsc_mhz": boot.tsc_mhz,
        "root_mount": boot.root,
        "kernel_crypto": crypto,
        "kernel_crypto_engines": sorted({c["driver"] for c in crypto if c["kind"] == "engine"}),
        "kernel_crypto_unknown": sorted({c["driver"] for c in crypto
                                         if c["kind"] == "unknown"}),
        "openssl_kernel_path": None,
        "findings": [],
        "sources": {"sysctl": bool(entries), "dmesg_boot": bool(boot.release or boot.cpu_model),
                    "uname": machine.uname() is not None, "kenv": bool(machine.kenv())},
        "missing_sources": dict(machine.missing),
    }
