"""The kernel crypto table and whether userspace OpenSSL can reach it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

ENGINE_DRIVERS = re.compile(
    r"(^|[-_(])(sun4i-ss|sun8i-ce|sun8i-ss|jh7110|starfive|safexcel|rockchip|caam|atmel|omap|"
    r"talitos|qce|stm32|artpec|ccree|hisi|virtio_crypto|mtk|qat|chcr|crypto4xx|mxs-dcp|amlogic|"
    r"meson|geode|hifn)($|[-_)])|^(ss|rk|mv|img|ccp|nx|mxc|n2)-", re.IGNORECASE)
CPU_DRIVERS = re.compile(
    r"(-ce\b|-ce-|^ce-|-neon|neon-|-aesni|aesni|-avx|-ssse3|-sse2|-arm64|-arm\b|-armv8|clmul|"
    r"zvk|-riscv|sha-ni|_ni\b|-ni\b|padlock|-vaes|-x86|-asm|-s390|-p8|-ppc)", re.IGNORECASE)


@dataclass(frozen=True)
class KernelAlgorithm:
    name: str
    driver: str
    module: str
    priority: int
    type: str
    internal: bool

    @property
    def kind(self) -> str:
        """``engine`` (a hardware block), ``cpu`` (CPU instructions) or ``generic`` (C code)."""
        inner = re.sub(r"^[a-z0-9_]+\((.*)\)$", r"\1", self.driver)
        if ENGINE_DRIVERS.search(inner):
            return "engine"
        if CPU_DRIVERS.search(inner) or CPU_DRIVERS.search(self.driver):
            return "cpu"
        return "generic"

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "kind": self.kind}


def parse_proc_crypto(text: str) -> list[KernelAlgorithm]:
    """Every ``name : ...`` block; blocks missing name/driver/priority are skipped."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields.setdefault(key.strip(), value.strip())
        if not {"name", "driver", "priority"} <= fields.keys():
            continue
        try:
            priority = int(fields["priority"])
        except ValueError:
            continue
        out.append(KernelAlgorithm(fields["name"], fields["driver"], fields.get("module", ""),
                                   priority, fields.get("type", ""),
                                   fields.get("internal", "no") == "yes"))
    return out


def best(algorithms: list[KernelAlgorithm]) -> dict[str, KernelAlgorithm]:
    """The highest-priority implementation of each algorithm (internal ones excluded)."""
    out: dict[str, KernelAlgorithm] = {}
    for algo in algorithms:
        if algo.internal:
            continue
        if algo.name not in out or algo.priority > out[algo.name].priority:
            out[algo.name] = algo
    return out


@dataclass(frozen=True)
class Engine:
    id: str
    available: bool | None  # None: listed without -t, so availability unknown
    ciphers: tuple[str, ...]


def parse_openssl_engines(text: str) -> list[Engine]:
    """``openssl engine [-t] [-c]``: ``(id) description``, ``[CIPHERS]``, ``[ available ]``."""
    engines: list[Engine] = []
    for line in text.splitlines():
        head = re.match(r"^\((\w+)\)\s", line)
        if head:
            engines.append(Engine(head.group(1), None, ()))
            continue
        if not engines:
            continue
        last = engines[-1]
        status = re.match(r"^\s*\[\s*(available|unavailable)\s*\]\s*$", line)
        if status:
            engines[-1] = Engine(last.id, status.group(1) == "available", last.ciphers)
        elif re.match(r"^\s*\[.+\]\s*$", line):
            names = tuple(n.strip() for n in line.strip()[1:-1].split(","))
            engines[-1] = Engine(last.id, last.available, names)
    return engines


KERNEL_BRIDGES = ("afalg", "devcrypto", "cryptodev")


def userspace_path(engines: list[Engine], providers_text: str = "") -> str | None:
    """The engine or provider through which OpenSSL can reach kernel crypto, if any."""
    for engine in engines:
        if engine.id in KERNEL_BRIDGES and engine.available is not False:
            return f"engine {engine.id}"
    for bridge in KERNEL_BRIDGES:
        if re.search(rf"\b{bridge}\b", providers_text, re.IGNORECASE):
            return f"provider {bridge}"
    return None


def stranded(algorithms: list[KernelAlgorithm], engines: list[Engine],
             providers_text: str = "") -> str | None:
    """A finding when a hardware engine is registered but userspace OpenSSL cannot reach it."""
    hardware = [a for a in algorithms if a.kind == "engine" and not a.internal]
    if not hardware or userspace_path(engines, providers_text):
        return None
    drivers = sorted({a.driver for a in hardware})
    return (f"stranded accelerator: {len(hardware)} algorithms from a hardware crypto engine "
            f"({', '.join(drivers[:4])}{', ...' if len(drivers) > 4 else ''}) are registered in "
            "the kernel, but OpenSSL has no afalg/devcrypto engine or provider to reach them: "
            "userspace crypto runs in software")
