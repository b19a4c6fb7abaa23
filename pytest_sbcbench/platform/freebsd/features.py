"""CPU features from FreeBSD's boot messages, named as Linux's cpuinfo names them.

The rest of the package (accelerator attribution, the boards' ``must_have`` lists, the
results' identity) speaks cpuinfo's vocabulary: ``aes``, ``pclmulqdq``, ``avx`` on x86;
``aes``, ``pmull``, ``sha2``, ``asimd`` on arm64.  FreeBSD prints its own names: on amd64 the
``Features``/``Features2``/``AMD Features``/``Structured Extended Features`` words
(``AESNI``, ``SSE4.1``, ``SHA``), on arm64 the decoded ID registers
(``Instruction Set Attributes 0 = <CRC32,SHA2,SHA1,AES+PMULL>``).  A name this table does not
know keeps its own, lower-cased (``.`` as ``_``), so nothing FreeBSD says is lost."""

from __future__ import annotations

from ..isa import Features, family
from .dmesg import BootFacts

# FreeBSD (sys/x86/x86/identcpu.c) -> Linux (arch/x86/include/asm/cpufeatures.h, as cpuinfo
# prints them) where the two differ.
X86_NAMES: dict[str, str] = {
    "SSE3": "pni", "MON": "monitor", "DS_CPL": "ds_cpl", "xTPR": "xtpr", "TSCDLT":
    "tsc_deadline_timer", "AESNI": "aes", "SSE4.1": "sse4_1", "SSE4.2": "sse4_2", "HTT": "ht",
    "CLFLUSH": "clflush", "LAHF": "lahf_lm", "Page1GB": "pdpe1gb", "Prefetch": "3dnowprefetch",
    "SHA": "sha_ni", "PREFETCHWT1": "prefetchwt1", "PROCTRACE": "intel_pt", "DTS": "ds",
    "TSCADJ": "tsc_adjust", "L1DFL": "flush_l1d",
    "HV": "hypervisor",
    "AVX512VBMI": "avx512vbmi", "AVX512VBMI2": "avx512_vbmi2", "AVX512BITALG": "avx512_bitalg",
    "AVX512VPOPCNTDQ": "avx512_vpopcntdq", "AVX512VNNI": "avx512_vnni", "GFNI": "gfni",
    "VAES": "vaes", "VPCLMULQDQ": "vpclmulqdq", "RDRAND": "rdrand", "RDSEED": "rdseed",
    "SSE4A": "sse4a", "MAS": "misalignsse", "TOPO": "topoext", "CX8": "cx8", "CX16": "cx16",
    "EST": "est", "TM2": "tm2", "VMX": "vmx", "SMX": "smx", "SSSE3": "ssse3", "FMA": "fma",
    "PCID": "pcid", "x2APIC": "x2apic", "MOVBE": "movbe", "POPCNT": "popcnt", "XSAVE": "xsave",
    "OSXSAVE": "osxsave", "AVX": "avx", "F16C": "f16c", "AVX2": "avx2", "BMI1": "bmi1",
    "BMI2": "bmi2", "ADX": "adx", "AVX512F": "avx512f", "AVX512DQ": "avx512dq",
    "AVX512CD": "avx512cd", "AVX512BW": "avx512bw", "AVX512VL": "avx512vl",
    "AVX512IFMA": "avx512ifma", "PCLMULQDQ": "pclmulqdq",
}
# FreeBSD (sys/arm64/arm64/identcpu.c) -> Linux hwcaps (arch/arm64/kernel/cpuinfo.c).
ARM_NAMES: dict[str, tuple[str, ...]] = {
    "AES+PMULL": ("aes", "pmull"), "AES": ("aes",), "SHA1": ("sha1",), "SHA2": ("sha2",),
    "SHA2+SHA512": ("sha2", "sha512"), "SHA512": ("sha512",), "SHA3": ("sha3",),
    "SM3": ("sm3",), "SM4": ("sm4",), "CRC32": ("crc32",), "Atomic": ("atomics",),
    "RDM": ("asimdrdm",), "DP": ("asimddp",), "FHM": ("asimdfhm",), "TS": ("flagm",),
    "AdvSIMD": ("asimd",), "AdvSIMD+HP": ("asimd", "asimdhp"), "FP": ("fp",),
    "Float": ("fp",), "FP+HP": ("fp", "fphp"), "SVE": ("sve",), "DCPoP": ("dcpop",),
    "DCPoDP": ("dcpop", "dcpodp"), "JSCVT": ("jscvt",), "FCMA": ("fcma",),
    "LRCPC": ("lrcpc",), "LRCPC+LDAPUR": ("lrcpc", "ilrcpc"), "PACA": ("paca",),
    "PACG": ("pacg",), "BF16": ("bf16",), "I8MM": ("i8mm",), "RNG": ("rng",),
    "SB": ("sb",), "FRINTTS": ("frint",), "DGH": ("dgh",), "SSBS": ("ssbs",),
}
# Processor Features words that are not ISA features (exception levels, GIC, RAS ...).
ARM_NOT_ISA = ("EL", "GIC", "RAS", "AMU", "MPAM", "SEL2", "DIT", "CSV", "0")


def _x86(boot: BootFacts) -> set[str]:
    names: set[str] = set()
    for words in boot.x86_features.values():
        names.update(X86_NAMES.get(w, w.lower().replace(".", "_")) for w in words)
    return names


def _arm(boot: BootFacts) -> set[str]:
    names: set[str] = set()
    for register, words in boot.arm_id.items():
        for word in words:
            if register.startswith("Processor Features") and word.startswith(ARM_NOT_ISA):
                continue
            names.update(ARM_NAMES.get(word, (word.lower().replace(" ", "_"),)))
    return names


def boot_features(boot: BootFacts, arch: str) -> Features:
    """The CPU features the boot messages print, in cpuinfo's names, labelled with the
    feature family of ``arch`` (``x86``/``arm``); none when the messages hold no feature
    lines (a partial capture)."""
    kind = family(arch)
    names = _x86(boot) if kind == "x86" else _arm(boot) if kind == "arm" else set()
    return Features(kind, tuple(sorted(names)))
