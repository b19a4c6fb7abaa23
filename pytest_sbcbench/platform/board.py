"""Board profiles: what a board is, how to recognise it, and which one this machine is."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import BoardError, SchemaError, schema_field
from ..jsonload import read_bytes, strict_json
from .probe import Probe

BOARD_SCHEMA = "sbcbench-board/1"
BOARD_NAME = re.compile(r"[a-z0-9_-]{1,64}")
BOARD_NAME_RULE = "1 to 64 of lowercase letters a-z, digits 0-9, '-' and '_' only"


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

    def __post_init__(self) -> None:
        """A board name becomes a file name (``<baselines>/<name>.json``): every profile, from
        a file, the package or a hook, is checked here."""
        check_board_name(self.name)

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


def check_board_name(name: object) -> str:
    """``name`` if it is a valid board name (whole-string match: no trailing newline, no
    ``/``, no ``..``), else a :class:`BoardError`."""
    if not isinstance(name, str) or not BOARD_NAME.fullmatch(name):
        raise BoardError(f"invalid board name {name!r}: use {BOARD_NAME_RULE}")
    return name


def _str(data: Mapping[str, Any], key: str, optional: bool = False) -> Any:
    value = data.get(key) if optional else data[key]
    if (value is None and optional) or (isinstance(value, str) and value):
        return value
    raise ValueError(f"{key}: {value!r} is not a non-empty string")


def _strings(values: Any, key: str) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise ValueError(f"match.{key} must be a list of non-empty strings")
    return tuple(values)


def _cluster(data: Any) -> Cluster:
    if not isinstance(data, dict):
        raise ValueError("a cluster must be an object")
    cores, mhz = data["cores"], data.get("max_mhz")
    if isinstance(cores, bool) or not isinstance(cores, int) or not 0 < cores <= 4096:
        raise ValueError(f"cluster cores {cores!r} is not a whole number from 1 to 4096")
    if mhz is not None and (isinstance(mhz, bool) or not isinstance(mhz, (int, float))
                            or not 0 < mhz < 100_000):
        raise ValueError(f"cluster max_mhz {mhz!r} is not a clock in MHz")
    return Cluster(cores, _str(data, "core"), mhz)


def profile_from_dict(data: Mapping[str, Any], source: str) -> BoardProfile:
    """Build a profile from its JSON form; a malformed file is a :class:`SchemaError`."""
    if data.get("schema") != BOARD_SCHEMA:
        raise SchemaError(source, schema_field(data), f"expected schema {BOARD_SCHEMA!r}")
    try:
        match, facts, clusters = data.get("match", {}), data.get("facts", {}), data["clusters"]
        if not isinstance(match, dict) or not isinstance(facts, dict):
            raise ValueError("match and facts must be objects")
        if not isinstance(clusters, list) or not clusters:
            raise ValueError("clusters must be a non-empty list")
        return BoardProfile(
            name=check_board_name(data["name"]),
            title=_str(data, "title"),
            soc=_str(data, "soc"),
            arch=_str(data, "arch"),
            clusters=tuple(_cluster(c) for c in clusters),
            isa=_str(data, "isa", optional=True),
            ram=_str(data, "ram", optional=True),
            dram=_str(data, "dram", optional=True),
            match_model=_strings(match.get("model", []), "model"),
            match_compatible=_strings(match.get("compatible", []), "compatible"),
            match_dmi_product=_strings(match.get("dmi_product", []), "dmi_product"),
            facts=dict(facts),
        )
    except (KeyError, TypeError, ValueError, BoardError) as exc:
        raise SchemaError(source, BOARD_SCHEMA, f"malformed board profile: {exc}") from exc


Verify = Callable[[Path, bytes], None]
"""Checks the bytes read from a profile file (raising when they are not to be trusted)."""


def load_profile_file(path: Path, verify: Verify | None = None) -> BoardProfile:
    """The profile at ``path``, read once; ``verify`` (when given) checks those bytes, the
    ones parsed, first."""
    raw = read_bytes(path, "board profile")
    if verify is not None:
        verify(path, raw)
    data = strict_json(raw, path, "board profile")
    if not isinstance(data, dict):
        raise SchemaError(path, None, "a board profile must be a JSON object")
    return profile_from_dict(data, str(path))


def load_profiles(directory: Path, verify: Verify | None = None) -> list[BoardProfile]:
    """All ``*.json`` profiles in ``directory`` (none when it does not exist), each checked
    by ``verify`` when given."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise SchemaError(directory, None, f"unreadable board profiles directory: "
                                           f"{exc.strerror or exc}") from exc
    return [load_profile_file(directory / n, verify) for n in names]


def builtin_profiles() -> list[BoardProfile]:
    """The fleet profiles shipped with the package (``baselines/boards`` in the repository)."""
    folder = resources.files("pytest_sbcbench") / "boards"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            source = f"pytest_sbcbench/boards/{entry.name}"
            data = strict_json(entry.read_bytes(), source, "board profile")
            out.append(profile_from_dict(data, source))
    return out


def known_profiles(baselines: Path, extra: Iterable[BoardProfile] = (),
                   verify: Verify | None = None) -> dict[str, BoardProfile]:
    """Built-in profiles, then ``<baselines>/boards/*.json``, then ``extra`` (hooks); later
    ones override earlier ones of the same name.  ``verify`` checks each profile file read
    from ``<baselines>/boards``: under ``--sbc-verify-key`` a profile there sets the physics
    limits the judge trusts, so it must be signed like a baseline."""
    return merge([*builtin_profiles(), *load_profiles(baselines / "boards", verify), *extra])


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
    """Later profiles override earlier ones of the same name.  Anything that is not a
    :class:`BoardProfile` (a hook returning a dict, say) is a :class:`BoardError`."""
    out = {}
    for profile in profiles:
        if not isinstance(profile, BoardProfile):
            raise BoardError(f"a board profile hook returned {profile!r}, not a BoardProfile")
        out[check_board_name(profile.name)] = profile
    return out


def detect(probe: Probe, profiles: Mapping[str, BoardProfile]) -> BoardProfile:
    for profile in profiles.values():
        if profile.matches(probe):
            return profile
    return generic_profile(probe)


def describe(probe: Probe) -> str:
    parts = [probe.board_model or "no device-tree or DMI model", probe.arch, probe.cpu_model]
    return ", ".join(p for p in parts if p)


def unknown_board(requested: str, profiles: Mapping[str, BoardProfile]) -> str:
    """``unknown board 'star46' (did you mean star64?); known boards: ...``."""
    close = difflib.get_close_matches(requested, sorted(profiles), n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return (f"unknown board {requested!r}{hint}; known boards: generic-<arch> and "
            f"{', '.join(sorted(profiles))}")


def resolve(requested: str | None, probe: Probe,
            profiles: Mapping[str, BoardProfile]) -> BoardProfile:
    """The board to judge against: the detected one, or ``requested`` if this machine is it."""
    detected = detect(probe, profiles)
    if requested is None or requested == detected.name:
        return detected
    if requested not in profiles and not requested.startswith("generic-"):
        raise BoardError(unknown_board(requested, profiles))
    raise BoardError(
        f"--board {requested} does not match this machine: detected {detected.name!r} "
        f"({describe(probe)}). Run on a {requested}, point --sbc-sysroot at a captured "
        f"{requested} tree, or drop --board to use the detected profile."
    )
