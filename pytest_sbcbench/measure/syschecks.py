"""System checks borrowed from pyperf (``pyperf system show``): ASLR, governor, Turbo Boost,
isolated CPUs, power supply.  Run in a child process so pyperf's own probes (systemctl,
MSR reads) cannot print into the test run or crash it.  Uses pyperf's private ``_system``
module, so the pyperf version is pinned in pyproject.toml."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass

CHILD = r"""
import json, types
from pyperf import _system
system = _system.System()
system.init(types.SimpleNamespace(affinity=None))
ops = []
for op in system.operations:
    op.show()
    ops.append({"name": op.name, "tuned": op.tuned_for_benchmarks})
print(json.dumps({"operations": ops, "states": system.states, "advices": system.advices,
                  "warnings": system.warnings}))
"""
RELEVANT = ("Power supply", "CPU scaling governor (intel_pstate)", "Turbo Boost (intel_pstate)",
            "Turbo Boost (MSR)", "ASLR", "Linux scheduler", "CPU Frequency")


@dataclass(frozen=True)
class SystemChecks:
    states: tuple[str, ...]
    advices: tuple[str, ...]
    untuned: tuple[str, ...]
    error: str | None = None

    def as_dict(self) -> dict[str, object]:
        return {"states": list(self.states), "advices": list(self.advices),
                "untuned": list(self.untuned), "error": self.error}

    @property
    def on_battery(self) -> bool:
        """pyperf logs "Power supply: the power cable is unplugged" on battery."""
        return any(s.startswith("Power supply") and s.endswith("unplugged") for s in self.states)


def run_system_checks(timeout: float = 60.0) -> SystemChecks:
    """pyperf's view of this machine; an unusable pyperf is reported, not raised."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                              timeout=timeout, check=False)
        data = json.loads(done.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        return SystemChecks((), (), (), f"pyperf system checks unavailable: {exc}")
    relevant = [o["name"] for o in data["operations"]
                if o["tuned"] is False and o["name"] in RELEVANT]
    states = tuple(s for s in data["states"] if s.split(":")[0] in RELEVANT)
    advices = tuple(a for a in data["advices"] if a.split(":")[0] in RELEVANT)
    return SystemChecks(states, advices, tuple(relevant))
