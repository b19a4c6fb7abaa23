"""Where a board's baseline lives, one file or a directory of saves, read and saved alike.

``<baselines>/<board>.json`` (one file, :mod:`.baseline`) or ``<baselines>/<board>/`` (a
directory of saves, :mod:`.baseline_saves`: for baselines of many boots, where one file would
be rewritten whole by every save).  Both at once is an error: keep one."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import SchemaError
from ..fileio import clean_stale_temps, locked
from ..model import Result
from . import baseline as single
from . import signing
from .baseline import Baseline, BaselineEntry, StoredSession, lock_path, with_session
from .baseline_saves import (
    append_save,
    is_saves_directory,
    load_saves,
    rewrite_saves,
    saves_of,
    without,
)

NOT_SAVES = ("boards", "published")  # directories of the baselines folder that hold no saves


def baseline_path(directory: Path, board: str) -> Path:
    """The board's baseline: its directory of saves when there is one, else its file."""
    folder = directory / board
    return folder if board not in NOT_SAVES and is_saves_directory(folder) \
        else single.baseline_path(directory, board)


def _single_beside(folder: Path) -> None:
    twin = folder.with_name(f"{folder.name}.json")
    if twin.exists():
        raise SchemaError(folder, None, f"both {twin.name} and the directory {folder.name}/ "
                          "hold this board's baseline: keep one ('sbcbench baseline split' "
                          "turns the file into the directory's first save)")


def load_any(path: Path, board: str | None = None) -> Baseline | None:
    """The baseline at ``path``, a file or a directory of saves (None: none yet)."""
    if is_saves_directory(path):
        _single_beside(path)
        return load_saves(path, board)
    return single.load_baseline(path, board)


def load_verified(path: Path, key_path: Path | None, board: str | None = None
                  ) -> Baseline | None:
    """:func:`.baseline.load_verified`, and for a directory: its saves' names and SHA-256s
    (the manifest ``sbcbench sign`` signs) verified, the ones read and judged."""
    if not is_saves_directory(path):
        return single.load_verified(path, key_path, board)
    if key_path is None:
        return load_any(path, board)
    key = signing.public_key(key_path)  # an unreadable key first, as for a file
    _single_beside(path)
    loaded = load_saves(path, board, hash_all=True)
    saves = saves_of(loaded)
    signing.require_signed(saves.manifest() if saves is not None else None, path, key,
                           "no save in this baseline directory under --sbc-verify-key: "
                           "record one elsewhere, review it, sign it with 'sbcbench sign', "
                           "or drop --sbc-verify-key")
    return loaded


def sign_any(path: Path, key_path: Path) -> Path:
    """``sbcbench sign``: a file's bytes, or a directory's manifest (each save's name and
    SHA-256, every save read, hashed and checked first, none taken from the summary cache's
    record: a broken baseline is never signed, nor one the cache misdescribes)."""
    if not is_saves_directory(path):
        single.load_baseline(path)
        return signing.sign(path, key_path)
    _single_beside(path)
    saves = saves_of(load_saves(path, None, hash_all=True))
    if saves is None:
        raise SchemaError(path, None, "no save to sign in this baseline directory")
    return signing.sign(path, key_path, saves.manifest())


def append_session_locked(path: Path, board: str, results: Sequence[Result], created: str,
                          environment: Mapping[str, Any],
                          restart: Callable[[BaselineEntry], bool] | None = None,
                          session_for: Callable[[Baseline | None], Callable[[Result],
                                                StoredSession]] | None = None) -> Baseline:
    """:func:`.baseline.append_session_locked`; for a directory of saves, under the same
    lock: the saves re-read (their summaries), restarted entries taken out of the saves
    holding them, and this session written as a new save of its own."""
    if not is_saves_directory(path):
        return single.append_session_locked(path, board, results, created, environment,
                                            restart, session_for)
    with locked(lock_path(path)):
        clean_stale_temps(path)
        current = load_any(path, board)
        if current is not None and restart is not None \
                and any(restart(e) for e in current.entries):
            rewrite_saves(path, board, without(restart))
            current = load_any(path, board)
        session_of = session_for(current) if session_for is not None else None
        save = with_session(None, board, results, created, environment, session_of)
        return append_save(path, current, save)
