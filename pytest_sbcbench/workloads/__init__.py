"""The registry: every built-in workload, and those third parties add through the
``pytest_sbcbench_workloads`` hook.

A new benchmark is one module here (a :class:`~pytest_sbcbench.workload.BaseWorkload` subclass
and a ``WORKLOADS`` list) plus its name in :data:`MODULES`.  Its markers are registered from the
registry, it is sampled and judged like every other workload, and the shipped suite runs it.
Modules are imported only when the registry is built, and they import their tools lazily.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..workload import Workload, check_workloads

MODULES = ("crypto", "inprocess", "compile", "scaling", "memory", "storage")

MARKER_HELP = {
    "crypto": "openssl and in-process cipher, hash and signature throughput",
    "compile": "clean release builds of pinned source trees",
    "platform": "what the board must have: CPUs, clocks, ISA features",
    "scaling": "throughput against thread count",
    "memory": "DRAM bandwidth",
    "storage": "sequential storage throughput",
}


def builtin() -> list[Workload]:
    """The built-in workloads, in suite order."""
    out: list[Workload] = []
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        out += check_workloads(module.WORKLOADS, f"{module.__name__}.WORKLOADS")
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


def markers(workloads: Iterable[Workload]) -> dict[str, str]:
    """Marker name -> help: the built-in ones, then those ``workloads`` bring (the one source
    of the markers pytest registers)."""
    out = dict(MARKER_HELP)
    for workload in workloads:
        for marker in workload.markers:
            out.setdefault(marker, workload.description or f"the {workload.name} workload")
    return out


def build(extra: Iterable[Sequence[object]] = ()) -> Registry:
    """Built-ins plus hook contributions; a duplicate name is an error naming it."""
    found = builtin()
    for contributed in extra:
        found += check_workloads(list(contributed or ()), "pytest_sbcbench_workloads")
    seen: set[str] = set()
    for workload in found:
        if workload.name in seen:
            raise ValueError(f"two workloads are named {workload.name!r}: names must be unique")
        seen.add(workload.name)
    return Registry(tuple(found))
