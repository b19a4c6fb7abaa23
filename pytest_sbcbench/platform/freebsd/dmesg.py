"""FreeBSD boot messages (``/var/run/dmesg.boot``), parsed: pure ``str -> value`` functions.

Traps of real files: the kernel's message buffer survives a warm reboot, so ``dmesg.boot`` can
hold the tail of earlier sessions and several boots, each with its CPU block: only the text
after the last ``---<<BOOT>>---`` describes the running kernel.  On arm64 the CPU
identification is printed when the other CPUs are released, late in the boot, and other
devices' messages interleave with it on the same lines
(``pass0: 600.000MB/s transfers Instruction Set Attributes 1 = <>``), so those lines are
searched, never anchored."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

BOOT_MARKER = "---<<BOOT>>---"
KERNEL = re.compile(r"^FreeBSD (\d+\.\d+-[A-Za-z0-9.]+(?:-[A-Za-z0-9.]+)*)(?: (.*))?$")
X86_CPU = re.compile(r"^CPU: (.+?) \((\d+(?:\.\d+)?)-MHz (.+?)-class CPU\)\s*$")
X86_FEATURES = re.compile(r"^\s+((?:AMD |Structured Extended |XSAVE |VIA Padlock )?Features\d?)"
                          r"=0x[0-9a-fA-F]+<(.*)>\s*$")
ARM_CPU = re.compile(r"CPU\s{1,2}(\d{1,4}): (.+?)\s+affinity:")
ARM_ID = re.compile(r"((?:Instruction Set Attributes|Processor Features) \d) = <([^>]*)>")
SMP = re.compile(r"^FreeBSD/SMP: Multiprocessor System Detected: (\d+) CPUs")
NOMINAL = re.compile(r"^cpu(\d+): Nominal frequency (\d+)\s*Mhz", re.IGNORECASE)
ROOT = re.compile(r"Trying to mount root from (\S+)")
SMC = re.compile(r"^asmc\d+: <Apple SMC (.+)>")
CRYPTO = re.compile(r"^(aesni|armv8crypto|ossl|padlock|cryptosoft|ccr|ccp|safexcel|qat|hifn|"
                    r"glxsb|ubsec|sec|blake2|via)(\d+): <([^>]*)>")
# the class an x86 kernel names its CPU with: "K8-class" on amd64, "686-class" on i386
X86_CLASS = {"K8": "amd64", "686": "i386"}
MACHINES = ("amd64", "i386", "arm64", "armv7", "armv6", "riscv", "powerpc64", "powerpc64le",
            "powerpc")


@dataclass(frozen=True)
class BootFacts:
    """What the last boot's messages say about the machine (None or empty where they do not)."""

    release: str | None = None       # 13.1-RELEASE-p4, 12.1-RELEASE-p9-HBSD, 14.0-CURRENT
    kernel: str | None = None        # the whole kernel line after "FreeBSD "
    machine: str | None = None       # amd64, arm64 ... (kernel line, build path, CPU class)
    cpu_model: str | None = None     # x86 "CPU:" line, else the first arm64 "CPU  0:" line
    tsc_mhz: float | None = None     # x86: the clock the kernel measured at boot
    cpus: int | None = None          # "Multiprocessor System Detected: N CPUs"
    cpu_models: dict[int, str] = field(default_factory=dict)      # arm64, per CPU
    x86_features: dict[str, tuple[str, ...]] = field(default_factory=dict)
    arm_id: dict[str, tuple[str, ...]] = field(default_factory=dict)
    nominal_mhz: dict[int, float] = field(default_factory=dict)   # "cpuN: Nominal frequency"
    root: str | None = None          # the last "Trying to mount root from" (zfs:pool/ROOT/...)
    smc_model: str | None = None     # Apple SMC: "MacBook Pro (early 2011, 13-inch)"
    crypto_drivers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # aesni0: (...)


def last_boot(text: str) -> str:
    """The messages of the last boot: after the last ``---<<BOOT>>---`` (the whole text when
    there is none)."""
    cut = text.rfind(BOOT_MARKER)
    return text if cut < 0 else text[cut + len(BOOT_MARKER):]


def _words(inside: str) -> tuple[str, ...]:
    """``SSE3,PCLMULQDQ,<b11>,FMA`` -> SSE3 PCLMULQDQ FMA (unnamed ``<bN>`` bits dropped)."""
    inside = re.sub(r"<[^<>]*>", "", inside)
    return tuple(w.strip() for w in inside.split(",") if w.strip())


def _machine(kernel: str | None, build: str | None, cpu_class: str | None) -> str | None:
    for text in (kernel, build):
        words = (text or "").split()
        if words and words[-1] in MACHINES:
            return words[-1]
    return X86_CLASS.get(cpu_class or "")


def parse_dmesg(text: str) -> BootFacts:
    """The facts of the last boot in ``dmesg.boot`` text (any text: what is not recognised is
    skipped)."""
    lines = last_boot(text).splitlines()
    found: dict[str, object] = {}
    cpu_models: dict[int, str] = {}
    features: dict[str, tuple[str, ...]] = {}
    arm_id: dict[str, tuple[str, ...]] = {}
    nominal: dict[int, float] = {}
    crypto: dict[str, tuple[str, ...]] = {}
    build = None
    for i, line in enumerate(lines):
        kernel = KERNEL.match(line)
        if kernel and "release" not in found:
            found["release"], found["kernel"] = kernel.group(1), line[len("FreeBSD "):].strip()
            build = lines[i + 1] if i + 1 < len(lines) else None
        cpu = X86_CPU.match(line)
        if cpu and "cpu_model" not in found:
            found["cpu_model"], found["tsc_mhz"] = cpu.group(1), float(cpu.group(2))
            found["cpu_class"] = cpu.group(3)
        feature = X86_FEATURES.match(line)
        if feature:
            features.setdefault(feature.group(1), _words(feature.group(2)))
        for number, model in ARM_CPU.findall(line):
            cpu_models.setdefault(int(number), model.strip())
        for name, inside in ARM_ID.findall(line):
            arm_id.setdefault(name, _words(inside))
        for pattern, key in ((SMP, "cpus"), (ROOT, "root"), (SMC, "smc_model")):
            match = pattern.search(line) if key == "root" else pattern.match(line)
            if match:
                found[key] = int(match.group(1)) if key == "cpus" else match.group(1)
        speed = NOMINAL.match(line)
        if speed:
            nominal[int(speed.group(1))] = float(speed.group(2))
        driver = CRYPTO.match(line)
        if driver:
            crypto.setdefault(driver.group(1) + driver.group(2), _words(driver.group(3)))
    if "cpu_model" not in found and cpu_models:
        found["cpu_model"] = cpu_models[min(cpu_models)]
    kernel_line = found.get("kernel")
    return BootFacts(
        release=_str(found.get("release")), kernel=_str(kernel_line),
        machine=_machine(_str(kernel_line), build, _str(found.get("cpu_class"))),
        cpu_model=_str(found.get("cpu_model")),
        tsc_mhz=_float(found.get("tsc_mhz")), cpus=_int(found.get("cpus")),
        cpu_models=cpu_models, x86_features=features, arm_id=arm_id, nominal_mhz=nominal,
        root=_str(found.get("root")), smc_model=_str(found.get("smc_model")),
        crypto_drivers=crypto)


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _float(value: object) -> float | None:
    return value if isinstance(value, float) else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None
