"""System checks from pyperf's documented ``python -m pyperf system show`` command: ASLR,
governor, Turbo Boost, isolated CPUs, power supply.

This module is the one adapter to pyperf.  It runs the public command (in a child, so pyperf's
probes, systemctl and MSR reads cannot print into the test run or crash it) and parses its
report: titled sections (``System state``, ``Advices``, ``Warnings``, ``Errors``) of
``Operation name: message`` lines.  A report it does not understand is an error naming the
pyperf version, never a silent "all clear"."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib import metadata

from ..platform.executor import Executor, default_executor

COMMAND = ("-m", "pyperf", "system", "show")
SECTIONS = ("Actions", "System state", "Advices", "Warnings", "Errors")
RELEVANT = ("Power supply", "CPU scaling governor", "Turbo Boost (intel_pstate)",
            "Turbo Boost (MSR)", "ASLR", "Linux scheduler", "CPU Frequency")
EXIT_OK, EXIT_ERRORS, EXIT_NOT_TUNED = 0, 1, 2  # pyperf system show's documented statuses


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


class PyperfFormatError(ValueError):
    """``pyperf system show`` printed a report this adapter does not know."""


def pyperf_version() -> str:
    try:
        return metadata.version("pyperf")
    except metadata.PackageNotFoundError:
        return "not installed"


def parse_system_show(text: str) -> dict[str, list[str]]:
    """Section title -> its ``Name: message`` lines.  Raises :class:`PyperfFormatError` when
    the report has no ``System state`` section or a section starts without a named line."""
    lines = text.splitlines()
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for i, line in enumerate(lines):
        underline = lines[i + 1] if i + 1 < len(lines) else ""
        if line in SECTIONS and underline and set(underline) == {"="}:
            current = sections.setdefault(line, [])
        elif current is not None and line and set(line) != {"="}:
            if line.startswith("Run \"") or line.startswith("OK! "):
                current = None  # the closing verdict line
                continue
            if ": " in line:
                current.append(line)
            elif current:  # a message that spans lines
                current[-1] += "\n" + line
            else:
                raise PyperfFormatError(f"line without an operation name: {line!r}")
    if "System state" not in sections:
        raise PyperfFormatError("no 'System state' section")
    return sections


def _relevant(lines: list[str]) -> tuple[str, ...]:
    return tuple(line for line in lines if line.split(": ", 1)[0] in RELEVANT)


def checks_from_report(text: str) -> SystemChecks:
    """The relevant states and advices; an operation that gives advice is not tuned."""
    sections = parse_system_show(text)
    advices = _relevant(sections.get("Advices", []))
    untuned = tuple(dict.fromkeys(a.split(": ", 1)[0] for a in advices))
    return SystemChecks(_relevant(sections["System state"]), advices, untuned)


def run_system_checks(timeout: float = 60.0, *, executor: Executor | None = None
                      ) -> SystemChecks:
    """pyperf's view of this machine; an unusable pyperf is reported, not raised.

    ``executor`` defaults to this machine (the pyperf of this Python)."""
    argv = [sys.executable, *COMMAND]
    try:
        done = (executor if executor is not None else default_executor()).run(argv, timeout)
    except OSError as exc:
        return SystemChecks((), (), (), f"pyperf system checks unavailable: {exc}")
    if done.timed_out or done.returncode not in (EXIT_OK, EXIT_ERRORS, EXIT_NOT_TUNED):
        reason = "timed out" if done.timed_out else f"exited {done.returncode}"
        return SystemChecks((), (), (), f"pyperf system checks unavailable: {reason}: "
                                        f"{done.stderr.strip()[-300:]}")
    try:
        return checks_from_report(done.stdout)
    except PyperfFormatError as exc:
        return SystemChecks((), (), (), f"pyperf {pyperf_version()} 'system show' output not "
                                        f"understood ({exc}); pytest-sbcbench needs an update")
