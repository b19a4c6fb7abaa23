"""The kernel crypto table and whether userspace OpenSSL can reach it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

# Driver-name words of hardware crypto engine families (a word is delimited by - _ ( ) , or
# the ends): Allwinner sun4i-ss/sun8i-ce/sun8i-ss and BSP ss-*, StarFive, Inside Secure
# EIP-93/EIP-97/EIP-197 (safexcel), Rockchip rk/rk2, NXP CAAM/DCP/SAHARA, Marvell CESA mv-*,
# Atmel, TI OMAP, Freescale talitos, Qualcomm QCE, STM32, Axis ARTPEC, Arm CryptoCell (ccree),
# HiSilicon, virtio, MediaTek mtk and mt76xx/mt79xx parts, Intel QAT, Chelsio, AMCC crypto4xx,
# Amlogic (gxl), Geode, hifn, Samsung s5p/exynos, Aspeed, Xilinx ZynqMP, Keem Bay, Nitrox,
# NVIDIA Tegra SE, ...
ENGINE_DRIVERS = re.compile(
    r"(^|[-_(),])(sun4i-ss|sun8i-ce|sun8i-ss|jh7110|starfive|safexcel|eip\d+|rockchip|rk\d*|"
    r"caam|dcp|sahara|mv|cesa|marvell|atmel|omap|talitos|qce|stm32|artpec\d*|ccree|hisi|"
    r"virtio_crypto|mtk|mt\d{4}[a-z]*|qat|chcr|crypto4xx|mxs-dcp|amlogic|meson|gxl|geode|"
    r"hifn|s5p|exynos|aspeed|zynqmp|xilinx|keembay|ocs|n5|img|ccp|nx|mxc|n2|ss|ux500|"
    r"picoxcell|ixp4xx|iproc|cavium|sec|hace|tegra)(?=$|[-_(),])", re.IGNORECASE)
# Module names that are hardware drivers whatever their algorithms are called.
ENGINE_MODULES = re.compile(
    r"^(crypto_hw_\w+|crypto_safexcel|marvell_cesa|mv_cesa|sun4i_ss|sun8i_ce|sun8i_ss|"
    r"rk_crypto\d*|caam\w*|dcp|mxs_dcp|omap_\w+|atmel_\w+|stm32_\w+|qcrypto|qcom_ce|ccree|"
    r"talitos|jh7110_crypto|starfive_crypto|amlogic_gxl_crypto|mtk_crypto|mtk_eip93|"
    r"hisi_\w+|virtio_crypto|qat_\w+|chcr|crypto4xx|s5p_sss|exynos_rng|aspeed_\w+|"
    r"zynqmp_\w+|keembay_\w+|n5pf|img_hash|ccp|nx_crypto|sahara)$", re.IGNORECASE)
CPU_DRIVERS = re.compile(
    r"(-ce\b|-ce-|^ce-|-neon|neon-|-aesni|aesni|-avx|-ssse3|-sse2|-arm64|-arm\b|-armv8|clmul|"
    r"zvk|-riscv|sha-ni|_ni\b|-ni\b|padlock|-vaes|-x86|-asm|-s390|-p8|-ppc|-octeon|-mips\b|"
    r"-lsx|-lasx|-loongarch|-simd|-intel\b)", re.IGNORECASE)
# Leaves of the kernel's own C implementations (the crypto/ directory): *-generic, the null
# ciphers, DRBGs, jitterentropy, scomp wrappers, aes-fixed-time; a bare algorithm name
# (``sha256`` inside ``pkcs1pad(rsa-generic,sha256)``) names no driver.
GENERIC_LEAF = re.compile(
    r"(^|[-_])generic$|^[a-z0-9]+$|^(ecb-)?(cipher|digest|compress)_null(-generic)?$|^drbg_|"
    r"^jitterentropy_rng$|^ansi_cprng$|^stdrng$|-scomp$|-fixed-time$", re.IGNORECASE)
TEMPLATE = re.compile(r"[\w.-]+\(")


def leaves(driver: str) -> list[str]:
    """The implementation names inside a driver: ``authenc(hmac(sha1-eip93),cbc(aes-eip93))``
    -> ``sha1-eip93``, ``aes-eip93``; ``ecb(arc4)-generic`` -> ``arc4``, ``-generic``."""
    bare = TEMPLATE.sub("(", driver)
    return [part.strip() for part in re.split(r"[(),]", bare) if part.strip()]


def classify(driver: str, module: str) -> str:
    """``engine``, ``cpu``, ``generic`` or ``unknown`` for one kernel crypto table entry.

    Evidence, in order: a hardware-driver module (``crypto_hw_*``, ``marvell_cesa``,
    ``sun8i_ce``, ``caam*``, ...) or an engine-family word in any leaf of the driver name is
    ``engine``; a CPU-instruction leaf (``-ce``, ``-neon``, ``aesni``, ``zvk`` ...) is ``cpu``;
    a driver whose every leaf is the kernel's C code is ``generic``; anything else is
    ``unknown`` - a driver this table does not know is never presumed to be software."""
    parts = leaves(driver) or [driver]
    if ENGINE_MODULES.match(module) or any(ENGINE_DRIVERS.search(p) for p in parts):
        return "engine"
    if any(CPU_DRIVERS.search(p) for p in parts):
        return "cpu"
    if all(GENERIC_LEAF.search(p) for p in parts):
        return "generic"
    return "unknown"


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
        """``engine`` (a hardware block), ``cpu`` (CPU instructions), ``generic`` (the kernel's
        C code) or ``unknown`` (none of these shown): see :func:`classify`."""
        return classify(self.driver, self.module)

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
