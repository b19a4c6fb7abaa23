"""CPU features and ISA extensions, parsed (never substring-matched), and what they accelerate.

``rv64imafdc`` contains a "v" but has no vector extension: the ``rv64`` base is stripped before
single-letter extensions are read, and multi-letter ones (``z*``, ``s*``, ``x*``) are split on
underscores."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .parse import CpuInfo

SINGLE_LETTER_G = ("i", "m", "a", "f", "d")


@dataclass(frozen=True)
class RiscvIsa:
    base: str
    extensions: tuple[str, ...]
    vector_071: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"base": self.base, "extensions": list(self.extensions),
                "vector_0_7_1": self.vector_071}


def parse_riscv_isa(text: str) -> RiscvIsa:
    """``rv64imafdcv_zicsr_zba`` -> base rv64, extensions i m a f d c v zicsr zba."""
    text = text.strip().lower()
    match = re.match(r"^(rv32|rv64|rv128)([a-z]*)((?:_[a-z0-9]+)*)$", text.replace(" ", "_"))
    if not match:
        return RiscvIsa("unknown", ())
    letters: list[str] = []
    for letter in match.group(2):
        letters += [*SINGLE_LETTER_G, "zicsr", "zifencei"] if letter == "g" else [letter]
    multi = [part for part in match.group(3).split("_") if part]
    return RiscvIsa(match.group(1), tuple(dict.fromkeys([*letters, *multi])))


@dataclass(frozen=True)
class Features:
    arch: str
    names: tuple[str, ...]
    isa: RiscvIsa | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)


def _riscv(info: CpuInfo) -> Features:
    strings: list[str] = []
    for block in info.processors:
        for key in ("isa", "hart isa"):
            if block.get(key):
                strings.append(block[key])
    merged: list[str] = []
    base = "unknown"
    for text in strings:
        parsed = parse_riscv_isa(text)
        base = parsed.base if base == "unknown" else base
        merged += parsed.extensions
    for block in info.processors:
        merged += [e.lower() for e in block.get("isa-ext", "").replace("_", " ").split()]
    vector_071 = info.first("cpu-vector") is not None and \
        (info.first("cpu-vector") or "").startswith("0.")
    notes = ("vector 0.7.1 (cpu-vector): not RVV 1.0",) if vector_071 else ()
    names = tuple(dict.fromkeys(merged))
    return Features("riscv", tuple(sorted(names)), RiscvIsa(base, names, vector_071), notes)


def family(arch: str) -> str:
    """The feature vocabulary an architecture's cpuinfo uses: ``riscv``, ``x86``, ``mips``,
    ``loongarch``, ``arm`` (32- and 64-bit ARM), or ``unknown``."""
    if arch.startswith("riscv"):
        return "riscv"
    if arch in ("x86_64", "i686", "i386"):
        return "x86"
    if arch.startswith(("mips", "loongarch")):
        return "mips" if arch.startswith("mips") else "loongarch"
    return "arm" if arch.startswith(("arm", "aarch64")) else "unknown"


# where each family lists its features: x86 ``flags``, ARM and LoongArch ``Features``, MIPS the
# ``isa`` levels plus ``ASEs implemented`` (msa, dsp, mips16 ...)
FEATURE_KEYS: dict[str, tuple[str, ...]] = {
    "x86": ("flags",), "arm": ("features",), "loongarch": ("features",),
    "mips": ("isa", "ases implemented"), "unknown": (),
}


def features(info: CpuInfo, arch: str) -> Features:
    """Lower-case feature names of every CPU (union), labelled with the family they belong to:
    x86 ``flags``, ARM ``Features``, RISC-V ``isa``/``hart isa``/``isa-ext``, MIPS ``isa`` and
    ``ASEs implemented``, LoongArch ``Features``. A MIPS or LoongArch feature is never read as
    an ARM one (MIPS ``isa : mips1 mips32r2`` is not a RISC-V isa string either)."""
    kind = family(arch)
    if kind == "riscv":
        return _riscv(info)
    names: set[str] = set()
    for block in info.processors:
        for key in FEATURE_KEYS[kind]:
            names.update(n.lower() for n in block.get(key, "").split())
    return Features(kind, tuple(sorted(names)))


# accelerator -> feature names that provide it, per architecture family
ACCEL: dict[str, dict[str, tuple[str, ...]]] = {
    "x86": {"aes": ("aes", "vaes"), "sha1": ("sha_ni",), "sha256": ("sha_ni",),
            "sha512": ("sha512",), "pmull": ("pclmulqdq", "vpclmulqdq"), "vector": ("avx2",)},
    "arm": {"aes": ("aes",), "sha1": ("sha1",), "sha256": ("sha2",), "sha512": ("sha512",),
            "pmull": ("pmull",), "vector": ("asimd", "sve", "neon")},
    # MIPS and LoongArch: vector units only; no kernel or OpenSSL AES/SHA instruction path
    "mips": {"vector": ("msa",)},
    "loongarch": {"vector": ("lsx", "lasx")},
    "riscv": {"aes": ("zkne", "zknd", "zk", "zkn", "zvkned"), "sha1": (),
              "sha256": ("zknh", "zkn", "zk", "zvknha", "zvknhb"), "sha512": ("zknh", "zvknhb"),
              "pmull": ("zbc", "zbkc", "zvbc"), "vector": ("v",)},
}


ACCEL_KEYS = ("aes", "sha1", "sha256", "sha512", "pmull", "vector")


def accel_sources(found: Features) -> dict[str, list[str]]:
    """The features each accelerator is attributed to, for the accelerators present only
    (``{"aes": ["zkne"], "sha256": ["zknh"]}`` on a RISC-V core with scalar crypto, ``["aes"]``
    from an ARM ``Features`` line).  RVV 0.7.1 is not ``vector``."""
    table = ACCEL.get(found.arch, {})
    names = set(found.names)
    out = {key: [n for n in table.get(key, ()) if n in names] for key in ACCEL_KEYS}
    if found.isa is not None and found.isa.vector_071:
        out["vector"] = []
    return {key: providers for key, providers in out.items() if providers}


def accel(found: Features) -> dict[str, bool]:
    """Which crypto and vector units the features provide (RVV 0.7.1 is not ``vector``)."""
    sources = accel_sources(found)
    return {key: key in sources for key in ACCEL_KEYS}
