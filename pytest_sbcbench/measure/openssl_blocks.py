"""Block sizes of ``openssl speed`` rows that print none of their own: a headerless human row
(``| tail -5``) and a ``-multi`` ``+F`` total whose children's ``+H`` echoes were all damaged.
Only there are the standard sizes assumed, and the caller says so in a note."""

from __future__ import annotations

from .openssl_multi import MrLines, canonical

STANDARD_BLOCKS: dict[int, tuple[int, ...]] = {
    6: (16, 64, 256, 1024, 8192, 16384),
    5: (16, 64, 256, 1024, 8192),
}


def lost_header_blocks(fields: list[str], lines: MrLines, assumed: list[str]
                       ) -> tuple[int, ...]:
    """Block sizes for a ``+F`` total with no ``+H`` before it.  Only in a damaged ``-multi``
    log (the children's ``+H`` echoes all cut) are the standard sizes assumed, as for a
    headerless human table, and said in a note; otherwise the output is not one we know."""
    sizes = STANDARD_BLOCKS.get(len(fields) - 3) if lines.damaged else None
    if sizes is None:
        raise ValueError("no +H block sizes before it")
    assumed.append(canonical(fields[2]))
    return sizes


def headerless_sizes(name: str, values: list[float], notes: list[str]) -> tuple[int, ...]:
    """A row printed without its ``type`` header (``| tail -5``): the standard sizes, if
    its cells could be a standard run's.  A standard run measures every size it prints, so
    trailing 0.00 cells after measured ones say the row is something else (a ``-multi
    -mb`` parent's columns no child ran): its sizes cannot be known, an error."""
    measured = [value != 0 for value in values]
    if any(measured) and not measured[-1]:
        raise ValueError(f"{name}: no 'type' header, and the trailing 0.00 cell(s) after "
                         "measured ones are no standard run's: block sizes unknown")
    sizes = STANDARD_BLOCKS.get(len(values), ())
    if sizes:
        notes.append(f"standard block sizes {list(sizes)} assumed for {name}: the output "
                     "has no 'type' header")
    return sizes
