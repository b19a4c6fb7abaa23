"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

The registry: every built-in workload, and those third parties add through the
``pytest_sbcbench_workloads`` hook.

A new built-in benchmark is one module here (a :class:`~pytest_sbcbench.workload.BaseWorkload`
subclass and a ``WORKLOADS`` list) plus one :class:`Registration` line in :data:`BUILTIN`.  The
line declares, as data, the markers the module's workloads use (registered when pytest starts,
without importing the module, so ``--strict-markers`` and ``-m`` work for a test file run
alone) and the physical limits of its metrics (the board-profile fact each metric can never
exceed; the physics gate reads them from here instead of naming metrics).  Limits that hold on
any board (the crypto ceilings per thread) are the workloads' own declaration,
:attr:`~pytest_sbcbench.workload.Workload.limits`, as for a workload the hook contributes:
:func:`declared_limits` gathers both.  Workload modules are imported only when the registry is
built, and they import their tools lazily.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the markers and limits below are read at start-up: this module is light
    from ..workload import Limits, Workload

DRAM = "dram_bandwidth_bytes_per_s"  # board-profile facts a metric can never exceed
STORAGE = "storage_max_bytes_per_s"


@dataclass(frozen=True)
class Registration:
    """One built-in workload module: its markers (name -> help) and its metrics' physical
    limits (metric -> the board-profile fact that bounds it)."""

    module: str
    markers: Mapping[str, str] = field(default_factory=dict)
    limits: Mapping[str, str] = field(default_factory=dict)


CRYPTO = {"crypto": "openssl and in-process cipher, hash and signature throughput"}
BUILTIN: tuple[Registration, ...] = (
    Registration("crypto", CRYPTO),
    Registration("inprocess", CRYPTO),
    Registration("bssl", CRYPTO),
    Registration("compile", {"compile": "clean release builds of pinned source trees"}),
    Registration("scaling", {"scaling": "throughput against thread count"}),
    Registration("memory", {"memory": "DRAM bandwidth"},
                 dict.fromkeys(("memory-read", "memory-write", "memory-copy", "memory-triad"),
                               DRAM)),
    Registration("storage", {"storage": "sequential storage throughput"},
                 dict.fromkeys(("storage-read", "storage-write"), STORAGE)),
)
# markers of the shipped suite that no workload module brings
SUITE_MARKERS = {"platform": "what the board must have: CPUs, clocks, ISA features"}


def builtin_markers() -> dict[str, str]:
    """Every marker the built-in registrations and the shipped suite declare (no import)."""
    out: dict[str, str] = {}
    for entry in BUILTIN:
        for name, text in entry.markers.items():
            out.setdefault(name, text)
    return {**out, **SUITE_MARKERS}


def builtin_facts() -> dict[str, str]:
    """Metric -> the board fact that bounds it, as the built-in registrations declare."""
    return {metric: fact for entry in BUILTIN for metric, fact in entry.limits.items()}


def declared_limits(workloads: Iterable[Workload]) -> Limits:
    """What the physics gate bounds a run of ``workloads`` by: the board facts of the built-in
    registrations, then each workload's own :attr:`~pytest_sbcbench.workload.Workload.limits`
    (the crypto ceilings, or what a contributed workload declares)."""
    from ..workload import Limits

    out = Limits(builtin_facts())
    for workload in workloads:
        out = out.merged(workload.limits)
    return out


def builtin_limits() -> Limits:
    """The limits of the built-in workloads: what a results file is judged by (``sbcbench
    validate``, ``compare``) when no run says which workloads it had."""
    return declared_limits(builtin())


def builtin() -> list[Workload]:
    """The built-in workloads, in suite order; a workload's marker its registration does not
    declare is an error naming both (it would be unknown when its test file runs alone)."""
    from ..workload import check_workloads

    out: list[Workload] = []
    for entry in BUILTIN:
        module = importlib.import_module(f"{__name__}.{entry.module}")
        found = check_workloads(module.WORKLOADS, f"{module.__name__}.WORKLOADS")
        for workload in found:
            undeclared = set(workload.markers) - set(entry.markers)
            if undeclared:
                raise ValueError(f"workload {workload.name} uses "
                                 f"{'a marker' if len(undeclared) == 1 else 'markers'} "
                                 f"{', '.join(sorted(undeclared))} that its registration "
                                 f"Registration({entry.module!r}, ...) does not declare")
        out += found
    return out


@dataclass(frozen=True)
class Registry:
    """Every workload of this run, by unique name."""

    workloads: tuple[Workload, ...]

    def __iter__(self) -> Iterator[Workload]:
        return iter(self.workloads)

    def get(self, name: str) -> Workload:
        for workload in self.workloads:
            if workload.name == name:
                return workload
        raise KeyError(f"no workload named {name!r}; known: "
                       f"{', '.join(w.name for w in self.workloads)}")

    def for_test(self, test: str) -> list[Workload]:
        """The workloads a shipped-suite test function runs."""
        return [w for w in self.workloads if w.test == test]

    def markers(self) -> dict[str, str]:
        return markers(self.workloads)

    def limits(self) -> Limits:
        """What the physics gate bounds this run's numbers by (:func:`declared_limits`)."""
        return declared_limits(self.workloads)


def markers(workloads: Iterable[Workload]) -> dict[str, str]:
    """Marker name -> help: the built-in ones, then those ``workloads`` bring (the one source
    of the markers pytest registers)."""
    out = builtin_markers()
    for workload in workloads:
        for marker in workload.markers:
            out.setdefault(marker, workload.description or f"the {workload.name} workload")
    return out


def build(extra: Iterable[Sequence[object]] = ()) -> Registry:
    """Built-ins plus hook contributions; a duplicate name is an error naming it."""
    from ..workload import check_workloads

    found = builtin()
    for contributed in extra:
        found += check_workloads(list(contributed or ()), "pytest_sbcbench_workloads")
    seen: set[str] = set()
    for workload in found:
        if workload.name in seen:
            raise ValueError(f"two workloads are named {workload.name!r}: names must be unique")
        seen.add(workload.name)
    return Registry(tuple(found))
