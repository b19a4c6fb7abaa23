"""The ``-multi`` side of ``openssl speed`` logs: the parent's totals versus its children's echoes.

``2>&1`` logs mix the children's stderr progress lines (``+DT:``, ``+DTP:``, ``+R*:``) and the
parent's ``Got: ... from N`` echoes of each child's records with the final results; in ``-multi``
logs the parent's buffered stdout is cut at block boundaries, so an echo can lose its ``Got: ``
(``+F:25:...:1223316821.33 from 26`` alone) or have a progress line glued into it.  Echoes are
never results: damaged ones are skipped and counted in ``SpeedReport.notes``; the parent's own
totals are the result, each algorithm a child echoed must have one, and where every child's
echo survived the total must be their sum (or combined seconds).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ..words import counted

# R_EC_P160 .. R_EC_P521: the curve indices every release from 1.0.0 to 3.x shares; later indices
# move with build options (OPENSSL_NO_EC2M), so they are named by index and size only.
EC_INDEX = {0: "secp160r1", 1: "p192", 2: "p224", 3: "p256", 4: "p384", 5: "p521"}
MR_RATE_TAGS = {"+F2": ("sign", "verify"), "+F3": ("sign", "verify"), "+F4": ("sign", "verify"),
                "+F5": ("derive",), "+F6": ("sign", "verify")}
ECHO = re.compile(r"^Got: (\+\S+) from (\d+)$")
FORKED = re.compile(r"^Forked child (\d+)$")
ECHO_TAIL = re.compile(r" from \d*$")
GLUED = re.compile(r"\+[A-Z]+\d*:")


def canonical(name: str) -> str:
    """``AES-128-GCM`` / ``aes-128 cbc`` / ``ChaCha20-Poly1305`` -> ``aes-128-gcm`` style."""
    return re.sub(r"\s+", "-", name.strip()).lower()


@dataclass(frozen=True)
class Echo:
    """A child's record as the ``-multi`` parent echoed it: ``Got: <record> from <child>``."""

    child: int
    record: str


@dataclass
class MrLines:
    """A log's ``-mr`` lines sorted by origin: this process's (or the ``-multi`` parent's) own
    records, intact child echoes (payload only), and damaged echo fragments."""

    records: list[str] = field(default_factory=list)
    echoes: list[Echo] = field(default_factory=list)
    children: set[int] = field(default_factory=set)
    damaged: int = 0

    def notes(self) -> tuple[str, ...]:
        if not self.damaged:
            return ()
        return (f"{counted(self.damaged, 'damaged child echo line')} skipped (stdout and stderr "
                "interleaved)",)


def split_lines(text: str) -> MrLines:
    """Sort every line of ``text``: ``Got: +X... from N`` with nothing glued in is an intact
    child echo (an echoed ``+H`` also stands for the parent's block sizes); any other ``Got:``
    line, a line ending in `` from N`` and a ``+`` line with a second record glued into it are
    damaged echoes; other ``+`` lines are own records."""
    lines = MrLines()
    for raw in text.splitlines():
        line = raw.strip()
        echo = ECHO.match(line)
        forked = FORKED.match(line)
        if forked:
            lines.children.add(int(forked.group(1)))
        elif echo and not GLUED.search(echo.group(1), 1):
            lines.echoes.append(Echo(int(echo.group(2)), echo.group(1)))
            lines.children.add(int(echo.group(2)))
            if echo.group(1).startswith("+H:"):  # a -multi -mr parent prints no +H of its own
                lines.records.append(echo.group(1))
        elif line.startswith("Got:") or ECHO_TAIL.search(line) or (
                line.startswith("+") and GLUED.search(line, 1)):
            lines.damaged += 1
        elif line.startswith("+"):
            lines.records.append(line)
    return lines


def record_name(fields: list[str]) -> str | None:
    """The canonical algorithm an ``+F``..``+F6`` record is about, None for other tags."""
    tag = fields[0]
    if tag == "+F" and len(fields) >= 3:
        return canonical(fields[2])
    if tag not in MR_RATE_TAGS or len(fields) < 3:
        return None
    if tag in ("+F2", "+F3"):
        return f"{'rsa' if tag == '+F2' else 'dsa'}{fields[2]}"
    if tag == "+F6":
        return canonical(fields[3]) if len(fields) > 3 else None
    fam = "ecdsa" if tag == "+F4" else "ecdh"
    curve = EC_INDEX.get(int(fields[1])) if fields[1].isdigit() else None
    return f"{fam}-{curve}" if curve else f"{fam}-curve{fields[1]}-{fields[2]}bits"


def check_parent_totals(lines: MrLines) -> None:
    """Every algorithm a child echoed needs the parent's total: without it the log was cut
    short or the total itself was damaged, and a child's share must not stand in for it."""
    own = {record_name(record.split(":")) for record in lines.records}
    missing = sorted({name for echo in lines.echoes
                      if (name := record_name(echo.record.split(":"))) is not None
                      and name not in own})
    if missing:
        raise ParseError("openssl speed -multi output",
                         f"children reported {', '.join(missing)} but the parent printed no "
                         "total for it (log cut short or total damaged)")


RecordKey = tuple[str, ...]


def record_values(fields: list[str]) -> tuple[RecordKey, list[float]] | None:
    """A result record's identity (tag, index, size or name) and its numbers; ``+F5``'s second
    number is the first one's reciprocal and is left out."""
    tag = fields[0]
    if tag not in ("+F", *MR_RATE_TAGS) or len(fields) < 4:
        return None
    first = 4 if tag == "+F6" else 3
    numbers = fields[first:first + 1] if tag == "+F5" else fields[first:]
    try:
        return tuple(fields[:first]), [float(v) for v in numbers]
    except ValueError:
        return None


def check_parent_sums(lines: MrLines, unit: str | None) -> None:
    """A ``-multi`` parent's total is its children's sum (op/s, bytes/s) or their combined
    seconds ``1 / sum(1 / d)`` (s/op): checked wherever every child's echo survived, so a
    parent that mis-adds (1.1.1's ``do_multi`` once read EdDSA's name field as the sign rate,
    openssl/openssl#10261) is refused instead of reported."""
    parents: dict[RecordKey, list[list[float]]] = {}
    for record in lines.records:
        if (found := record_values(record.split(":"))) is not None:
            parents.setdefault(found[0], []).append(found[1])
    shares: dict[RecordKey, dict[int, list[float]]] = {}
    for echo in lines.echoes:
        if (found := record_values(echo.record.split(":"))) is not None:
            shares.setdefault(found[0], {})[echo.child] = found[1]
    for key, by_child in shares.items():
        if len(parents.get(key, [])) != 1 or set(by_child) != lines.children:
            continue  # a child's echo was damaged, or the log holds several runs of it
        if key[0] != "+F" and unit is None:
            continue  # rates of unknown unit are left out of the report anyway
        reciprocal = key[0] != "+F" and unit == "s/op"
        for column, total in enumerate(parents[key][0]):
            parts = [values[column] for values in by_child.values() if column < len(values)]
            expected = combined(parts, reciprocal)
            slack = 0.01 if key[0] == "+F" else 2e-6  # printed with %.2f / %f
            if expected is not None and abs(total - expected) > slack + 1e-6 * abs(expected):
                raise ParseError("openssl speed -multi output",
                                 f"not believable: the parent's {':'.join(key)} value {total!r}"
                                 f" is not its {len(parts)} children's combined "
                                 f"{expected:.6f}")


def combined(parts: list[float], reciprocal: bool) -> float | None:
    if not reciprocal:
        return sum(parts)
    if any(part <= 0 for part in parts):
        return None
    return 1.0 / sum(1.0 / part for part in parts)


def child_values(lines: MrLines, name: str) -> list[list[str]]:
    """The values of the children's echoed ``+F`` records for canonical ``name``."""
    return [fields[3:] for echo in lines.echoes
            if (fields := echo.record.split(":"))[0] == "+F" and record_name(fields) == name]


def child_block_sizes(lines: MrLines) -> tuple[int, ...] | None:
    """The block sizes the children's ``+H`` echoes name (what they measured), None when no
    intact one survives or they disagree."""
    found = {tuple(int(size) for size in echo.record.split(":")[1:] if size.isdigit())
             for echo in lines.echoes if echo.record.startswith("+H:")}
    return found.pop() if len(found) == 1 else None


def progress_sizes(lines: MrLines, name: str) -> tuple[int, ...]:
    """The block sizes the children announced for canonical ``name`` on their stderr
    (``+DT:<name>:<seconds>:<size>``, in a ``2>&1`` log), in first-seen order."""
    sizes = [int(fields[3]) for record in lines.records
             if len(fields := record.split(":")) == 4 and fields[0] == "+DT"
             and canonical(fields[1]) == name and fields[3].isdigit()]
    return tuple(dict.fromkeys(sizes))


def multi_row_sizes(name: str, cells: list[float], header: tuple[int, ...] | None,
                    lines: MrLines, notes: list[str]) -> tuple[tuple[int, ...], list[float]]:
    """Block sizes and values of a ``-multi`` parent's human summary row for ``name``.

    ``do_multi`` in ``apps/speed.c`` adds each child's ``+F`` values into ``results[alg][j]``
    for every one of its own ``size_num`` columns and ignores the children's ``+H``; the
    summary then prints all ``size_num`` columns (with ``-mb``, OpenSSL 3.x and 4.x print no
    ``type`` header; 1.0.2 prints its standard lengths over multi-block sums).  So the
    children's records decide: the row's cells past the values they reported were never
    measured (openssl prints them as 0.00) and are left out, said in ``notes``; their sizes
    are the children's ``+H`` echo, else the sizes their ``+DT`` progress lines announced,
    else the parent's header if it has one size per cell.  Anything else is a
    :class:`ValueError`: sizes that cannot be known are not guessed."""
    counts = {len(values) for values in child_values(lines, name)}
    measured = max(counts)
    if len(counts) != 1 or measured > len(cells) or any(cells[measured:]):
        raise ValueError(f"{name}: the -multi parent's {len(cells)} cells do not fit its "
                         f"children's {sorted(counts)} value(s)")
    echoed, announced = child_block_sizes(lines), progress_sizes(lines, name)
    found = echoed if echoed is not None and len(echoed) == measured else announced
    if len(found) == measured:
        sizes = found
        if header is not None and header[:measured] != found:
            notes.append(f"{name}: block sizes from the children's records {list(found)}, "
                         f"not the parent's 'type' header {list(header)}")
    elif header is not None and len(header) == len(cells) == measured:
        sizes = header
    else:
        raise ValueError(f"{name}: block sizes unknown: the children measured "
                         f"{counted(measured, 'size')} but no '+H' echo or '+DT' line of "
                         "theirs names them and the "
                         f"parent's row has {'no' if header is None else 'another'} 'type' header")
    if measured < len(cells):
        notes.append(f"{name}: {counted(len(cells) - measured, 'trailing 0.00 cell')} left "
                     f"out: the -multi parent prints {len(cells)} columns, its children measured "
                     f"{counted(measured, 'block size')}")
    return sizes, cells[:measured]
