"""Pure parsers for kernel text files: ``str -> value``, no I/O."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from ..errors import ParseError
from .arm_parts import part_name, vendor


@dataclass(frozen=True)
class CpuInfo:
    """The kernel cpuinfo text split into per-processor blocks and machine-wide fields."""

    processors: tuple[dict[str, str], ...]
    machine: dict[str, str]

    def first(self, *keys: str) -> str | None:
        """The first non-empty value among ``keys`` in any processor block, then machine fields."""
        for block in (*self.processors, self.machine):
            for key in keys:
                value = block.get(key, "").strip()
                if value:
                    return value
        return None


CPU_KEYS = ("model name", "features", "flags", "isa", "cpu model", "cpu architecture",
            "cpu part", "bogomips")


def _pair(line: str) -> tuple[str, str] | None:
    """``Key : value`` -> (lower-case key, value). ARM kernels up to 3.x print the CPU name as
    ``Processor : ARMv7 Processor rev 10 (v7l)``: a non-numeric ``processor`` (or ``processor
    name``) is a model name."""
    key, sep, value = line.partition(":")
    key, value = key.strip().lower(), value.strip()
    if not sep or not key:
        return None
    if key in ("processor", "processor name") and not value.isdigit():
        return "model name", value  # Marvell's 3.4 kernels: ``Processor name : Feroceon ...``
    return key, value


def _block(block: str) -> tuple[list[dict[str, str]], dict[str, str]]:
    """One blank-line-separated block: its CPU records and the fields it shares.

    Fields before the first ``processor : N`` line are shared (old ARM prints ``Processor :``
    first). A block that lists ``processor : 0`` .. ``N`` with nothing between them (arm64 3.10
    kernels) gives the fields after the list to every CPU of the block."""
    cpus: list[dict[str, str]] = []
    shared: dict[str, str] = {}
    for line in block.splitlines():
        pair = _pair(line)
        if pair is None:
            continue
        if pair[0] == "processor":
            cpus.append({"processor": pair[1]})
        else:
            (cpus[-1] if cpus else shared).setdefault(*pair)
    if len(cpus) > 1 and all(len(cpu) == 1 for cpu in cpus[:-1]):
        last = cpus[-1]
        index = last.pop("processor")
        for key, value in last.items():
            shared.setdefault(key, value)
        cpus[-1] = {"processor": index}
    return cpus, shared


def parse_cpuinfo(text: str) -> CpuInfo:
    """Parse x86, ARM (every layout since 2.6), arm64 3.10, RISC-V, MIPS and LoongArch cpuinfo.

    Blocks without a ``processor : N`` line (the ``Features`` block old SMP ARM kernels print
    once after the last CPU, ``Hardware``, ``system type``) are machine-wide: each CPU inherits
    the fields it does not have itself. A single-CPU kernel that prints no ``processor`` line at
    all, but describes a CPU, is one CPU."""
    cpus: list[dict[str, str]] = []
    machine: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        found, shared = _block(block)
        cpus += found
        for key, value in shared.items():
            machine.setdefault(key, value)
    if not cpus and any(machine.get(key) for key in CPU_KEYS):
        cpus = [{"processor": "0"}]
    if not cpus:
        raise ParseError("cpuinfo", "no 'processor : N' line and no CPU description",
                         text[:400])
    return CpuInfo(tuple({**machine, **cpu} for cpu in cpus), machine)


# ARM Ltd (implementer 0x41) ARMv6 cores, which report "CPU architecture: 7"
ARM11_PARTS = ("0xb02", "0xb36", "0xb56", "0xb76")


def _words(info: CpuInfo, key: str) -> list[str]:
    return (info.first(key) or "").lower().split()


def _riscv_arch(info: CpuInfo) -> str | None:
    match = re.match(r"rv(32|64)", (info.first("isa", "hart isa") or "").lower())
    return f"riscv{match.group(1)}" if match else None


def _loongarch_arch(info: CpuInfo) -> str | None:
    words = _words(info, "isa")
    if "loongarch64" in words:
        return "loongarch64"
    return "loongarch32" if "loongarch32" in words else None


def _mips_arch(info: CpuInfo) -> str | None:
    words = _words(info, "isa")
    if words and all(w.startswith("mips") for w in words):
        return "mips64" if any(w.startswith("mips64") for w in words) else "mips"
    mips_only = ("ases implemented", "vced exceptions", "vcei exceptions")
    return "mips" if any(key in info.processors[0] for key in mips_only) else None


def _x86_arch(info: CpuInfo) -> str | None:
    """x86 ``flags``; an ARM block (``CPU implementer``) is never x86, even where a vendor
    arm64 kernel prints its hwcaps as ``flags`` (Kylin on a Phytium FT-1500A)."""
    flags = info.first("flags")
    if flags is None or info.first("cpu implementer") is not None:
        return None
    return "x86_64" if "lm" in flags.split() else "i686"


ELF_PLATFORM = re.compile(r"\((v\d[0-9a-z]*[lb]|aarch64)\)")
GENERIC_ARM_NAME = re.compile(r"^(ARMv\d+(-compatible)?|AArch64) [Pp]rocessor rev \d+ \([^)]*\)$")
# hwcaps only the 32-bit ABI lists (arch/arm/kernel/setup.c hwcap_str); the arm64 list
# (arch/arm64/kernel/cpuinfo.c) names the same units fp and asimd
COMPAT_ONLY_FEATURES = {"swp", "half", "thumb", "fastmult", "vfp", "edsp", "neon"}


def _arm64_features(info: CpuInfo) -> bool:
    words = set(_words(info, "features"))
    return bool(words & {"fp", "asimd"}) and not words & COMPAT_ONLY_FEATURES


def _elf_platform_arch(platform: str, info: CpuInfo) -> str:
    """``uname -m`` from the ELF platform a 32-bit ARM kernel prints after the model name.

    The kernel builds both strings from the same ``proc_info`` entry (``setup_processor()`` in
    ``arch/arm/kernel/setup.c``): ``machine = arch_name + endianness``, ``elf_platform =
    elf_name + endianness``.  For v6 and v7 cores ``arch_name`` is ``"arm" + elf_name``
    (``proc-v6.S``: armv6/v6, ``proc-v7.S``: armv7/v7); older cores name their architecture in
    full (``proc-feroceon.S``: armv5te/v5, ``proc-arm926.S``: armv5tej/v5, ``proc-arm920.S``:
    armv4t/v4), which is what ``CPU architecture`` (``5TE``, ``5TEJ``, ``4T``) says.  An arm64
    kernel prints ``(v8l)`` for 32-bit readers: ``armv8l``, unless the Features line is the
    64-bit list (NVIDIA L4T and some Amlogic kernels print ``(v8l)`` to every reader): then
    the kernel and the reader are ``aarch64``."""
    if platform == "aarch64" or (platform.startswith("v8") and _arm64_features(info)):
        return "aarch64"
    version, endian = platform[1:-1], platform[-1]
    arch = (info.first("cpu architecture") or "").lower()
    if version[:1] in ("4", "5") and arch.startswith(version[:1]):
        return f"armv{arch}{endian}"
    return f"arm{platform}"


def _arm_arch(info: CpuInfo) -> str | None:
    platforms = ELF_PLATFORM.findall(info.first("model name") or "")
    if platforms:
        return _elf_platform_arch(platforms[-1], info)
    arch = info.first("cpu architecture")
    if arch is None:
        return None
    if arch.startswith(("8", "9", "AArch64")):
        return "aarch64"
    if arch[:1] in ("4", "5"):  # pre-v6 cores print their architecture in full (see above)
        return f"armv{arch.lower()}l"
    arm11 = any(cpu.get("cpu implementer", "").lower() == "0x41"
                and cpu.get("cpu part", "").lower() in ARM11_PARTS for cpu in info.processors)
    return "armv6l" if arm11 else "armv7l"


def infer_arch(info: CpuInfo) -> str:
    """The ``uname -m`` style architecture a captured cpuinfo describes (no uname in a tree).

    Evidence, first match wins:

    1. an ``isa``/``hart isa`` of the form ``rv64...``: ``riscv64`` (``rv32``: ``riscv32``);
    2. ``isa`` naming ``loongarch64`` (LoongArch): ``loongarch64``;
    3. ``isa`` made of ``mips*`` words: ``mips64`` if one is ``mips64*``, else ``mips``;
       without an isa line, MIPS-only keys (``ASEs implemented``, ``VCED exceptions``):
       ``mips``;
    4. x86 ``flags`` (in a cpuinfo without ``CPU implementer``): ``x86_64`` with ``lm``, else
       ``i686``;
    5. ARM: the ELF platform the kernel prints in the model name (``(v5l)``, ``(v6l)``,
       ``(v7l)``, ``(v8l)``, ``(aarch64)``), read as the kernel builds ``uname -m`` from the
       same entry (:func:`_elf_platform_arch`): an ARM1176 whose ``CPU architecture`` says 7
       is still ``armv6l``, a Feroceon ``(v5l)`` with ``CPU architecture: 5TE`` is
       ``armv5tel``, and ``(v8l)`` over the 64-bit Features list is ``aarch64``; without a
       platform, ``CPU architecture`` (8, 9 or ``AArch64``: ``aarch64``; 4 or 5...:
       ``armv`` + it + ``l``; otherwise ``armv6l`` for ARM's ARM11 parts 0xb02/0xb36/0xb56/
       0xb76, else ``armv7l``).

    For a 64-bit-capable core the widest ISA is reported (as x86 ``lm`` is), whatever the
    kernel's width; on the host the probe uses ``uname`` instead."""
    for rule in (_riscv_arch, _loongarch_arch, _mips_arch, _x86_arch, _arm_arch):
        found = rule(info)
        if found is not None:
            return found
    return "unknown"


def cpu_model(info: CpuInfo) -> str:
    """A human CPU name: ``model name`` (x86, LoongArch, old ARM ``Processor``), RISC-V
    ``uarch``, MIPS ``cpu model``; else, and instead of a generic ARM name (``ARMv8 Processor
    rev 1 (v8l)``, ``AArch64 Processor rev 4 (aarch64)``) that would hide a known part, ARM
    implementer and part names (``ARM Cortex-A55+Cortex-A76``, ``Apple M1-Icestorm+
    M1-Firestorm``)."""
    name = info.first("model name", "uarch", "cpu model")
    generic = name is not None and GENERIC_ARM_NAME.match(name) is not None
    if name and not generic:
        return name
    return _arm_parts_name(info, known_only=generic) or name or info.first("hardware") or "unknown"


def _arm_parts_name(info: CpuInfo, known_only: bool) -> str | None:
    """``ARM Cortex-A55+Cortex-A76`` from the implementer and part codes; None when there are
    none, or (``known_only``: in place of a generic name) when no code is a known part: a
    generic ``ARMv7 Processor rev 5 (v7l)`` then says as much as ``ARM part 0x...``."""
    pairs = sorted({(cpu.get("cpu implementer", ""), cpu.get("cpu part", ""))
                    for cpu in info.processors} - {("", "")})
    if not pairs or (known_only and all(part_name(*pair).startswith("part ") for pair in pairs)):
        return None
    by_vendor: dict[str, list[str]] = {}
    for implementer, part in pairs:
        by_vendor.setdefault(vendor(implementer), []).append(part_name(implementer, part))
    return " + ".join(f"{who} {'+'.join(names)}" for who, names in by_vendor.items())


def parse_os_release(text: str) -> dict[str, str]:
    """``/etc/os-release`` as a dict (shell-style quoting honoured)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if not sep or key.startswith("#"):
            continue
        try:
            words = shlex.split(value)
        except ValueError:
            words = [value.strip("\"'")]
        out[key] = " ".join(words)
    return out


def parse_meminfo(text: str) -> dict[str, int]:
    """The meminfo file in bytes (the kernel's ``kB`` are KiB)."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        match = re.match(r"^(\S+):\s+(\d+)(?:\s+kB)?\s*$", line)
        if match:
            factor = 1024 if line.rstrip().endswith("kB") else 1
            out[match.group(1)] = int(match.group(2)) * factor
    if not out:
        raise ParseError("meminfo", "no 'Key: value kB' lines", text[:400])
    return out


def parse_nul_strings(raw: str) -> list[str]:
    """A device-tree string list property (NUL separated and terminated)."""
    return [part.strip() for part in raw.split("\0") if part.strip()]
