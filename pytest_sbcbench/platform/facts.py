"""Everything the platform layer knows about a machine, for ``sbcbench probe --json``."""

from __future__ import annotations

from typing import Any

from . import cpufreq, kcrypto
from .freebsd.detect import freebsd_machine
from .freebsd.facts import freebsd_facts
from .freebsd.identity import identify
from .isa import accel, accel_sources, features
from .parse import parse_cpuinfo
from .probe import freebsd_probe, probe
from .sysroot import Sysroot


def kernel_crypto(sysroot: Sysroot) -> list[kcrypto.KernelAlgorithm]:
    return kcrypto.parse_proc_crypto(sysroot.proc_crypto(default=""))


def platform_facts(sysroot: Sysroot, engines_text: str | None = None,
                   providers_text: str = "") -> dict[str, Any]:
    """The probe plus features, ISA, accelerators (and the features each is attributed to,
    ``accel_from``), kernel crypto and clusters.

    Kernel crypto drivers are classed ``engine``/``cpu``/``generic``/``unknown`` by evidence
    (:func:`kcrypto.classify`); ``unknown`` ones are listed apart, never counted as software.

    ``engines_text`` is ``openssl engine -t -c`` output (None: unknown, so no stranded check).
    A FreeBSD machine or capture answers from sysctl and its boot messages
    (:func:`.freebsd.facts.freebsd_facts`: the same keys, and the clocks and temperatures
    now)."""
    machine = freebsd_machine(sysroot)
    if machine is not None:
        ident = identify(machine)
        return {**freebsd_probe(machine).as_dict(), **freebsd_facts(machine, ident)}
    info = parse_cpuinfo(sysroot.cpuinfo())
    base = probe(sysroot, info)
    found = features(info, base.arch)
    algorithms = kernel_crypto(sysroot)
    best = kcrypto.best(algorithms)
    facts: dict[str, Any] = base.as_dict()
    facts.update(
        features=list(found.names),
        feature_family=found.arch,
        isa=found.isa.as_dict() if found.isa else None,
        accel=accel(found),
        accel_from=accel_sources(found),
        notes=list(found.notes),
        clusters=[{"policy": p.name, "cpus": list(p.cpus),
                   "max_mhz": p.max_khz / 1000 if p.max_khz else None, "governor": p.governor}
                  for p in cpufreq.policies(sysroot)],
        kernel_crypto=[{"name": a.name, "driver": a.driver, "module": a.module,
                        "priority": a.priority, "type": a.type, "kind": a.kind}
                       for a in sorted(best.values(), key=lambda a: a.name)],
        kernel_crypto_engines=sorted({a.driver for a in algorithms if a.kind == "engine"}),
        kernel_crypto_unknown=sorted({a.driver for a in algorithms if a.kind == "unknown"}),
        openssl_kernel_path=None,
        findings=[],
    )
    if engines_text is not None:
        engines = kcrypto.parse_openssl_engines(engines_text)
        facts["openssl_kernel_path"] = kcrypto.userspace_path(engines, providers_text)
        finding = kcrypto.stranded(algorithms, engines, providers_text)
        if finding:
            facts["findings"].append(finding)
    return facts
