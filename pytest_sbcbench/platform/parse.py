"""Pure parsers for kernel text files: ``str -> value``, no I/O."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from ..errors import ParseError


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


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in block.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip().lower(), value.strip())
    return out


def parse_cpuinfo(text: str) -> CpuInfo:
    """Parse x86 (tab-aligned or space-aligned), ARM and RISC-V cpuinfo text."""
    processors: list[dict[str, str]] = []
    machine: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        fields = _fields(block)
        if not fields:
            continue
        if "processor" in fields and fields["processor"].isdigit():
            processors.append(fields)
        else:
            for key, value in fields.items():
                machine.setdefault(key, value)
    if not processors:
        raise ParseError("cpuinfo", "no 'processor : N' block found", text[:400])
    return CpuInfo(tuple(processors), machine)


def infer_arch(info: CpuInfo) -> str:
    """The ``uname -m`` style architecture a cpuinfo describes."""
    isa = info.first("isa", "hart isa")
    if isa:
        match = re.match(r"rv(32|64)", isa.lower())
        if match:
            return f"riscv{match.group(1)}"
    flags = info.first("flags")
    if flags is not None:
        return "x86_64" if "lm" in flags.split() else "i686"
    arch = info.first("cpu architecture")
    if arch is not None:
        return "aarch64" if arch.strip().startswith(("8", "9", "AArch64")) else "armv7l"
    model = (info.first("model name", "processor") or "").lower()
    if "armv7" in model or "v7l" in model:
        return "armv7l"
    if "armv6" in model:
        return "armv6l"
    return "unknown"


def cpu_model(info: CpuInfo) -> str:
    """A human CPU name: x86 ``model name``, RISC-V ``uarch``/``model name``, ARM part numbers."""
    name = info.first("model name", "uarch", "cpu model")
    if name:
        return name
    parts = sorted({p.get("cpu part", "") for p in info.processors} - {""})
    if parts:
        return "ARM " + "+".join(ARM_PARTS.get(p.lower(), p) for p in parts)
    return info.first("hardware") or "unknown"


ARM_PARTS: dict[str, str] = {
    "0xd03": "Cortex-A53",
    "0xd04": "Cortex-A35",
    "0xd05": "Cortex-A55",
    "0xd07": "Cortex-A57",
    "0xd08": "Cortex-A72",
    "0xd09": "Cortex-A73",
    "0xd0b": "Cortex-A76",
    "0xd0c": "Neoverse-N1",
    "0xd41": "Cortex-A78",
    "0xc07": "Cortex-A7",
    "0xc09": "Cortex-A9",
    "0xc0f": "Cortex-A15",
    "0xb76": "ARM1176",
}


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
