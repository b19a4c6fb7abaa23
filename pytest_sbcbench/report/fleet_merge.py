"""One fleet report from per-place results (``sbcbench fleet merge RESULTS... [--out DIR]``).

A lab runs one pytest per labgrid place (reserve by tags, lock, run, unlock) and each job
writes its own results file; this merges them into the fleet report of :mod:`.markdown` (ranked
only among the same measurement identity), preceded by a table of the places: which board each
place's tags named, its kernel, boot id and labgrid environment digest, and which file it came
from.  A place given twice (two files of one place) is refused rather than ranked against
itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SbcBenchError
from ..platform.board import known_profiles
from .fleet import FleetEntry
from .markdown import render
from .results import load_results


@dataclass(frozen=True)
class Place:
    """One results file's place (``-`` when it was not a labgrid run)."""

    place: str
    board: str
    tags: str
    kernel: str
    boot_id: str
    env_digest: str
    source: Path


def place_of(path: Path, board: str, environment: dict[str, Any]) -> Place:
    lab = environment.get("lab") or {}
    tags = lab.get("tags") or {}
    return Place(str(lab.get("place") or "-"), board,
                 " ".join(f"{k}={v}" for k, v in sorted(tags.items())) or "-",
                 str(lab.get("kernel_release") or environment.get("kernel") or "-"),
                 str(lab.get("boot_id") or "-"), str(lab.get("env_digest") or "-"), path)


def load(paths: Sequence[Path]) -> tuple[list[Place], list[FleetEntry]]:
    """Every file's place and results; a labgrid place seen in two files is an error."""
    places: list[Place] = []
    entries: list[FleetEntry] = []
    for path in paths:
        loaded = load_results(path)
        place = place_of(path, loaded.board, loaded.environment)
        twice = [p for p in places if p.place != "-" and p.place == place.place]
        if twice:
            raise SbcBenchError(f"place {place.place} is in both {twice[0].source} and {path}: "
                                "merge one results file per place")
        places.append(place)
        entries += [FleetEntry(loaded.board, r, loaded.environment) for r in loaded.results]
    return places, entries


def places_section(places: Sequence[Place]) -> list[str]:
    lines = ["## Places", "", "| place | board | tags | kernel | boot id | env | results |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {p.place} | {p.board} | {p.tags} | {p.kernel} | {p.boot_id} | "
              f"{p.env_digest[:19]} | {p.source.name} |" for p in places]
    return [*lines, ""]


def merge(paths: Sequence[Path], baselines: Path) -> tuple[str, list[FleetEntry]]:
    """The merged report's markdown (places first, then the fleet report) and its entries."""
    places, entries = load(paths)
    report = render(entries, known_profiles(baselines))
    head, rankings, rest = report.partition("## Rankings\n")
    return head + "\n".join(places_section(places)) + "\n" + rankings + rest, entries
