"""Board profiles: what a board is, how to recognise it, and which one this machine is."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import BoardError, SchemaError
from .probe import Probe

BOARD_SCHEMA = "sbcbench-board/1"
BOARD_NAME = re.compile(r"^[a-z0-9_-]+$")
BOARD_NAME_RULE = "lowercase letters a-z, digits 0-9, '-' and '_' only"


@dataclass(frozen=True)
class Cluster:
    cores: int
    core: str
    max_mhz: float | None


@dataclass(frozen=True)
class BoardProfile:
    name: str
    title: str
    soc: str
    arch: str
    clusters: tuple[Cluster, ...]
    isa: str | None = None
    ram: str | None = None
    dram: str | None = None
    match_model: tuple[str, ...] = ()
    match_compatible: tuple[str, ...] = ()
    match_dmi_product: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    generic: bool = False

    @property
    def cores(self) -> int:
        return sum(c.cores for c in self.clusters)

    def matches(self, probe: Probe) -> bool:
        """True when the probed identification strings name this board."""
        model = (probe.board_model or "").strip().lower()
        if model and any(model.startswith(m.lower()) for m in self.match_model):
            return True
        if probe.compatible and probe.compatible[0] in self.match_compatible:
            return True
        product = (probe.dmi_product or "").strip()
        return bool(product) and product in self.match_dmi_product


def check_board_name(name: str) -> str:
    if not BOARD_NAME.match(name):
        raise BoardError(f"invalid board name {name!r}: use {BOARD_NAME_RULE}")
    return name


def profile_from_dict(data: Mapping[str, Any], source: str) -> BoardProfile:
    """Build a profile from its JSON form; a malformed file is a :class:`SchemaError`."""
    if data.get("schema") != BOARD_SCHEMA:
        raise SchemaError(source, data.get("schema"), f"expected schema {BOARD_SCHEMA!r}")
    try:
        match = data.get("match", {})
        return BoardProfile(
            name=check_board_name(str(data["name"])),
            title=str(data["title"]),
            soc=str(data["soc"]),
            arch=str(data["arch"]),
            clusters=tuple(
                Cluster(int(c["cores"]), str(c["core"]), c.get("max_mhz"))
                for c in data["clusters"]
            ),
            isa=data.get("isa"),
            ram=data.get("ram"),
            dram=data.get("dram"),
            match_model=tuple(match.get("model", ())),
            match_compatible=tuple(match.get("compatible", ())),
            match_dmi_product=tuple(match.get("dmi_product", ())),
            facts=dict(data.get("facts", {})),
        )
    except (KeyError, TypeError, ValueError, BoardError) as exc:
        raise SchemaError(source, BOARD_SCHEMA, f"malformed board profile: {exc}") from exc


def load_profile_file(path: Path) -> BoardProfile:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaError(path, None, f"unreadable board profile: {exc}") from exc
    if not isinstance(data, dict):
        raise SchemaError(path, None, "a board profile must be a JSON object")
    return profile_from_dict(data, str(path))


def load_profiles(directory: Path) -> list[BoardProfile]:
    """All ``*.json`` profiles in ``directory`` (none when it does not exist)."""
    if not directory.is_dir():
        return []
    return [load_profile_file(p) for p in sorted(directory.glob("*.json"))]


def builtin_profiles() -> list[BoardProfile]:
    """The fleet profiles shipped with the package (``baselines/boards`` in the repository)."""
    folder = resources.files("pytest_sbcbench") / "boards"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf-8"))
            out.append(profile_from_dict(data, f"pytest_sbcbench/boards/{entry.name}"))
    return out


def known_profiles(baselines: Path, extra: Iterable[BoardProfile] = ()) -> dict[str, BoardProfile]:
    """Built-in profiles, then ``<baselines>/boards/*.json``, then ``extra`` (hooks); later
    ones override earlier ones of the same name."""
    return merge([*builtin_profiles(), *load_profiles(baselines / "boards"), *extra])


def generic_profile(probe: Probe) -> BoardProfile:
    """A profile built from what the probe sees, for machines no profile names."""
    arch = re.sub(r"[^a-z0-9_-]", "-", probe.arch.lower()) or "unknown"
    known = [m for m in probe.max_mhz if m is not None]
    return BoardProfile(
        name=f"generic-{arch}",
        title=probe.board_model or f"unrecognised {probe.arch} machine, {probe.cpu_model}",
        soc="unknown",
        arch=probe.arch,
        clusters=(Cluster(probe.cpus, probe.cpu_model, max(known) if known else None),),
        generic=True,
    )


def merge(profiles: Iterable[BoardProfile]) -> dict[str, BoardProfile]:
    """Later profiles override earlier ones of the same name."""
    return {p.name: p for p in profiles}


def detect(probe: Probe, profiles: Mapping[str, BoardProfile]) -> BoardProfile:
    for profile in profiles.values():
        if profile.matches(probe):
            return profile
    return generic_profile(probe)


def describe(probe: Probe) -> str:
    parts = [probe.board_model or "no device-tree or DMI model", probe.arch, probe.cpu_model]
    return ", ".join(p for p in parts if p)


def resolve(requested: str | None, probe: Probe,
            profiles: Mapping[str, BoardProfile]) -> BoardProfile:
    """The board to judge against: the detected one, or ``requested`` if this machine is it."""
    detected = detect(probe, profiles)
    if requested is None or requested == detected.name:
        return detected
    if requested not in profiles and not requested.startswith("generic-"):
        known = ", ".join(sorted(profiles))
        raise BoardError(f"unknown board {requested!r}; known boards: {known}")
    raise BoardError(
        f"--board {requested} does not match this machine: detected {detected.name!r} "
        f"({describe(probe)}). Run on a {requested}, point --sbc-sysroot at a captured "
        f"{requested} tree, or drop --board to use the detected profile."
    )
