"""Per-board baselines: ``<baselines>/<board>.json``, schema ``sbcbench-baseline/1``.

Each entry is one test's metric under one identity, holding one or more sessions (samples, date,
environment).  Sessions stay separate because between-boot spread is real.  The value types
live in :mod:`.baseline_model` (re-exported here); this module reads, validates and appends."""

from __future__ import annotations

import hashlib
import math
import os
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

from ..errors import BoardError, SchemaError, schema_field
from ..fileio import clean_stale_temps, locked, read_regular
from ..jsonload import strict_json
from ..measure.sanity import ABSURD, problem
from ..model import Identity, Result
from ..platform.board import check_board_name
from . import signing
from .baseline_model import BASELINE_SCHEMA as BASELINE_SCHEMA
from .baseline_model import SESSION_STATUSES as SESSION_STATUSES
from .baseline_model import Baseline as Baseline
from .baseline_model import BaselineEntry as BaselineEntry
from .baseline_model import StoredSession as StoredSession
from .baseline_model import baseline_text as baseline_text
from .baseline_model import boot_of as boot_of
from .baseline_model import no_gc_pauses
from .baseline_model import reference_of as reference_of
from .baseline_model import write_baseline as write_baseline

# No measurement of one metric spreads over fifteen orders of magnitude; samples that do are a
# corrupt or hostile file, and their logs overflow the boot prior's variance arithmetic.
MAX_SPREAD = 1e15
# Nor is any sample, in any unit, beyond 1e100 or below 1e-100: beyond, the sums and squares of
# the judge's arithmetic overflow (samples of 1e308 crashed compare with an OverflowError)
SAMPLE_RANGE = (1e-100, 1e100)


def baseline_path(directory: Path, board: str) -> Path:
    return directory / f"{board}.json"


def lock_path(path: Path) -> Path:
    """The lock file beside the file a baseline save writes (symlinks followed: a run saving
    through a link and one saving directly take the same lock), hidden and kept (see
    :func:`fileio.locked`)."""
    real = Path(os.path.realpath(path))
    return real.with_name(f".{real.name}.lock")


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: {value!r} is not a number")
    return float(value)


def text_field(value: Any, where: str) -> str:
    """A required non-empty string field of a loaded file (``where`` names it)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where}: {value!r} is not a non-empty string")
    return value


_NUMBER_TYPES = frozenset((int, float))  # what a sample may be in JSON (bool is neither)


def samples_field(values: Any, where: str) -> tuple[float, ...]:
    """A non-empty list of finite positive numbers (not booleans or strings)."""
    if type(values) is list and values and _NUMBER_TYPES.issuperset(map(type, values)):
        out = tuple(map(float, values))  # the common case, checked in C-level passes
        if _believable(out, None):
            return out
    return _samples_checked(values, where)


def _samples_checked(values: Any, where: str) -> tuple[float, ...]:
    """:func:`samples_field` value by value, saying what is wrong."""
    if not isinstance(values, list) or not values:
        raise ValueError(f"{where}: samples must be a non-empty list")
    out = tuple(_number(v, f"{where} samples") for v in values)
    if not all(math.isfinite(v) and v > 0 for v in out):
        raise ValueError(f"{where}: samples must be finite positive numbers")
    low, high = SAMPLE_RANGE
    odd = [v for v in out if not low <= v <= high]
    if odd:
        raise ValueError(f"{where}: sample {odd[0]:g} is outside {low:g} to {high:g}: no "
                         "measurement is (the judge's arithmetic would overflow)")
    return plausible(out, where)


def _believable(samples: tuple[float, ...], unit: str | None) -> bool:
    """Whether every sample is inside :data:`SAMPLE_RANGE` (and ``unit``'s believable range)
    and within :data:`MAX_SPREAD` of the others, with no NaN: one min, max and sum, not a call
    per sample (a baseline holds millions)."""
    low, high = min(samples), max(samples)
    total = sum(samples)
    bounds = ABSURD.get(unit) if unit is not None else None
    return (SAMPLE_RANGE[0] <= low and high <= SAMPLE_RANGE[1] and high <= MAX_SPREAD * low
            and total == total and (bounds is None or (bounds[0] <= low and high <= bounds[1])))


def plausible(samples: tuple[float, ...], where: str, unit: str | None = None
              ) -> tuple[float, ...]:
    """``samples`` when they can be measurements: inside the believable range of ``unit``
    (:data:`..measure.sanity.ABSURD`: a 1e29 B/s sample is no result) and within a factor of
    :data:`MAX_SPREAD` of each other; else a ValueError saying which."""
    if _believable(samples, unit):
        return samples
    if unit in ABSURD:
        for value in samples:
            reason = problem(value, unit)
            if reason is not None:
                raise ValueError(f"{where}: sample {reason}")
    if max(samples) > MAX_SPREAD * min(samples):
        raise ValueError(f"{where}: samples {min(samples):g} and {max(samples):g} are more "
                         f"than {MAX_SPREAD:g} times apart: no measurement of one metric is")
    return samples


def identity_of(values: Any, where: str) -> Identity:
    """An identity from JSON: string keys, scalar values (str, number, bool, null)."""
    if not isinstance(values, dict):
        raise ValueError(f"{where}: identity must be an object")
    for key, value in values.items():
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise ValueError(f"{where}: identity {key!r} must be a scalar, not {value!r}")
    return Identity.from_mapping(values)


def _findings(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: findings must be a list")
    out = []
    for f in value:
        if not isinstance(f, dict):
            raise ValueError(f"{where}: a finding must be an object")
        out.append((text_field(f.get("kind"), f"{where} finding kind"),
                     str(f.get("detail", ""))))
    return tuple(out)


def _status(data: dict[str, Any], where: str) -> tuple[str, str, str | None]:
    """A session's status, why and before_drop (absent: used, as every file before them)."""
    status = data.get("status", "used")
    if status not in SESSION_STATUSES:
        raise ValueError(f"{where}: status {status!r} is not one of {', '.join(SESSION_STATUSES)}")
    why = data.get("why", "")
    if not isinstance(why, str):
        raise ValueError(f"{where}: why must be a string")
    before = data.get("before_drop")
    if status == "dropped" and before not in ("used", "quarantined"):
        raise ValueError(f"{where}: a dropped session needs before_drop 'used' or 'quarantined'")
    if status != "dropped" and before is not None:
        raise ValueError(f"{where}: only a dropped session has before_drop")
    return status, why, before


_PLAIN_SESSION = frozenset(("created", "samples", "environment"))  # a used session's keys


def _session(data: Any, where: str) -> StoredSession:
    if type(data) is dict and data.keys() == _PLAIN_SESSION:  # most sessions: no status
        created, environment = data["created"], data["environment"]
        if type(created) is str and created and type(environment) is dict:
            return StoredSession(created, samples_field(data["samples"], where), environment)
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a session must be an object")
    environment = data.get("environment", {})
    if not isinstance(environment, dict):
        raise ValueError(f"{where}: environment must be an object")
    status, why, before = _status(data, where)
    return StoredSession(text_field(data["created"], f"{where} created"),
                         samples_field(data["samples"], where), environment, status, why,
                         _findings(data.get("findings", []), where), before)


def _entry(data: Any, index: int) -> BaselineEntry:
    where = f"entry {index}"
    if not isinstance(data, dict):
        raise ValueError(f"{where}: an entry must be an object")
    if not isinstance(data["sessions"], list):
        raise ValueError(f"{where}: sessions must be a list")
    sessions = tuple(_session(s, f"{where} session {j}") for j, s in enumerate(data["sessions"]))
    if not sessions:
        raise ValueError(f"{where}: no sessions")
    if data["better"] not in ("higher", "lower"):
        raise ValueError(f"{where}: better must be 'higher' or 'lower'")
    unit = text_field(data["unit"], f"{where} unit")
    plausible(tuple(chain.from_iterable(s.samples for s in sessions)), where, unit)
    return BaselineEntry(text_field(data["test"], f"{where} test"),
                 text_field(data["metric"], f"{where} metric"), unit, str(data["better"]),
                 identity_of(data["identity"], where), sessions)


def _board(value: Any, expected: str | None) -> str:
    board = check_board_name(value)
    if expected is not None and board != expected:
        raise ValueError(f"this is the baseline of board {board!r}, not of {expected!r}")
    return board


# Baselines parsed in this process, by the SHA-256 of their bytes, for as long as something
# else holds them: a run reads its baseline at the start and again twice when it saves (the
# save's filter, then under the lock); bytes parsed before are not parsed again (issue 31 item
# 12: the re-read was three quarters of a save).  Keyed by content, so a file changed in any way
# since is read afresh.  Only parses are remembered, never a baseline a save built (its new
# sessions hold the caller's environment, which the caller may change after).
_PARSED: dict[bytes, weakref.ref[Baseline]] = {}


def _remember(digest: bytes, baseline: Baseline) -> None:
    def forget(ref: weakref.ref[Baseline]) -> None:
        if _PARSED.get(digest) is ref:
            del _PARSED[digest]
    _PARSED[digest] = weakref.ref(baseline, forget)


def _parsed_before(digest: bytes, source: Path, board: str | None) -> Baseline | None:
    """The baseline these bytes were parsed into before, if it is still alive and of
    ``board`` (else None: parsed again, which says why a board differs)."""
    ref = _PARSED.get(digest)
    known = ref() if ref is not None else None
    if known is None or (board is not None and known.board != board):
        return None
    return known if known.path == source else Baseline(known.board, known.entries, source)


def parse_baseline(text: str | bytes, source: Path, board: str | None = None) -> Baseline:
    """Validate a baseline document; every problem is a :class:`SchemaError` naming the file.

    ``board``, when given, is the board the file must belong to (a copied or renamed file of
    another board is refused).  Bytes parsed before in this process (the same SHA-256) give
    the baseline they gave then while it is still in use."""
    return _memoized(text, source, board, lambda: _parse(text, source, board))


def parse_decoded(raw: bytes, data: Any, source: Path, board: str | None = None) -> Baseline:
    """:func:`parse_baseline` of ``raw`` when the caller has decoded it already (``data``:
    ``raw`` through :func:`..jsonload.strict_json`; ``sbcbench compare`` reads its reference
    before it knows whether it is a baseline): the JSON is not decoded a second time."""
    return _memoized(raw, source, board, lambda: _built(data, source, board))


def _memoized(text: str | bytes, source: Path, board: str | None,
              parse: Callable[[], Baseline]) -> Baseline:
    """The baseline these bytes gave before (:data:`_PARSED`), else ``parse()`` remembered."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    digest = hashlib.sha256(raw).digest()
    known = _parsed_before(digest, source, board)
    if known is not None:
        return known
    parsed = parse()
    _remember(digest, parsed)
    return parsed


def _parse(text: str | bytes, source: Path, board: str | None) -> Baseline:
    with no_gc_pauses():
        data = strict_json(text, source, "baseline")
    return _built(data, source, board)


def _built(data: Any, source: Path, board: str | None) -> Baseline:
    """The baseline of a decoded document, validated."""
    if not isinstance(data, dict):
        raise SchemaError(source, None, "a baseline must be a JSON object")
    if data.get("schema") != BASELINE_SCHEMA:
        raise SchemaError(source, schema_field(data),
                          f"unknown baseline schema; this sbcbench reads {BASELINE_SCHEMA}")
    try:
        if not isinstance(data["entries"], list):
            raise ValueError("entries must be a list")
        with no_gc_pauses():
            entries = tuple(_entry(e, i) for i, e in enumerate(data["entries"]))
        return Baseline(_board(data["board"], board), entries, source)
    except (KeyError, TypeError, ValueError, AttributeError, BoardError) as exc:
        raise SchemaError(source, BASELINE_SCHEMA, f"malformed baseline: {exc}") from exc


def _read_optional(path: Path) -> bytes | None:
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SchemaError(path, None, f"unreadable baseline: {exc.strerror or exc}") from exc


def load_baseline(path: Path, board: str | None = None) -> Baseline | None:
    """The baseline at ``path`` (read once); None when there is none yet.  A file that exists
    but cannot be read (a baselines directory without permission, say) is an error naming it,
    never "no baseline"."""
    raw = _read_optional(path)
    if raw is None:
        return None
    return parse_baseline(raw, path, board)


def load_verified(path: Path, key_path: Path | None, board: str | None = None
                  ) -> Baseline | None:
    """The baseline at ``path``, verified against ``key_path`` when one is given.

    The file is read once; those bytes are verified and those same bytes parsed, so swapping
    the file between verification and loading cannot work.  Under a verify key, an unreadable
    key or a missing baseline is a :class:`~pytest_sbcbench.errors.SignatureError`, never "no
    baseline"."""
    if key_path is None:
        return load_baseline(path, board)
    key = signing.public_key(key_path)
    raw = signing.require_signed(_read_optional(path), path, key,
                                 "no signed baseline for this board under --sbc-verify-key: "
                                 "record one elsewhere, review it, sign it with 'sbcbench "
                                 "sign', or drop --sbc-verify-key")
    return parse_baseline(raw, path, board)


def stored_session(result: Result, created: str, environment: Mapping[str, Any]
                   ) -> StoredSession:
    """A result's samples as a used session of this run."""
    return StoredSession(created, result.measurement.samples, environment)


def with_session(baseline: Baseline | None, board: str, results: Sequence[Result],
                 created: str, environment: Mapping[str, Any],
                 session_of: Callable[[Result], StoredSession] | None = None) -> Baseline:
    """A new baseline with this session appended to each result's identity entry
    (``session_of``: the session stored for a result, default :func:`stored_session`).
    Linear: one dictionary lookup per result, never a scan of the entries."""
    entries = list(baseline.entries) if baseline else []
    where = {e.key: i for i, e in enumerate(entries)}
    for result in results:
        m = result.measurement
        session = session_of(result) if session_of is not None \
            else stored_session(result, created, environment)
        key = (result.test, m.metric, m.identity)
        i = where.get(key)
        if i is not None:
            entry = entries[i]
            entries[i] = BaselineEntry(entry.test, entry.metric, entry.unit, entry.better,
                                       entry.identity, (*entry.stored, session))
        else:
            where[key] = len(entries)
            entries.append(BaselineEntry(result.test, m.metric, m.unit, m.better, m.identity,
                                         (session,)))
    return Baseline(board, tuple(entries), baseline.path if baseline else None)


def append_session_locked(path: Path, board: str, results: Sequence[Result], created: str,
                          environment: Mapping[str, Any],
                          restart: Callable[[BaselineEntry], bool] | None = None,
                          session_for: Callable[[Baseline | None], Callable[[Result],
                                                StoredSession]] | None = None) -> Baseline:
    """Append this session to the baseline at ``path`` safely against concurrent savers.

    Under an exclusive lock on the file beside it: remove temporaries of killed saves, re-read
    the baseline (another run may have saved since this one loaded it), drop the entries
    ``restart`` names (they start again with this session), add this session (each result's
    stored session from ``session_for(the baseline re-read)``, which decides quarantines
    against what is really there) and write atomically.  Two runs saving at once both keep
    their session."""
    with locked(lock_path(path)):
        clean_stale_temps(lock_path(path).parent)  # where the temporaries of the target are
        current = load_baseline(path, board)
        if current is not None and restart is not None:
            current = Baseline(current.board,
                               tuple(e for e in current.entries if not restart(e)), current.path)
        session_of = session_for(current) if session_for is not None else None
        updated = with_session(current, board, results, created, environment, session_of)
        write_baseline(path, updated)
    return Baseline(updated.board, updated.entries, path)


QUICK_KEYS = ("seconds", "passes", "size_bytes")


def quick_mode_hint(keys: Iterable[str]) -> str:
    """The fix when an identity differs only where ``--sbc-quick`` changes it, else ""."""
    quick = sorted(set(keys) & set(QUICK_KEYS))
    if not quick:
        return ""
    verb = "differs" if len(quick) == 1 else "differ"
    return (f"; {', '.join(quick)} {verb} between quick and full runs: quick and full "
            "baselines are separate identities, so run the way the baseline was recorded "
            "(with or without --sbc-quick), or record this mode too with --sbc-save-baseline")
