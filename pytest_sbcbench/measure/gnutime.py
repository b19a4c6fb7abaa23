"""GNU ``time -v``: a build whose every rusage field is zero means a broken ``time``."""

from __future__ import annotations

import re

from ..errors import ParseError

RUSAGE_FIELDS = ("Maximum resident set size (kbytes)", "Minor (reclaiming a frame) page faults",
                 "Voluntary context switches", "Involuntary context switches",
                 "File system inputs", "File system outputs")


def parse_time_v(text: str) -> dict[str, float]:
    """The numeric fields of ``time -v``; an all-zero rusage block is a :class:`ParseError`."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        match = re.match(r"^\s*(.+?):\s+(\d+(?:\.\d+)?)\s*$", line)
        if match:
            values[match.group(1)] = float(match.group(2))
    present = [values[f] for f in RUSAGE_FIELDS if f in values]
    if not present:
        raise ParseError("GNU time -v output", "no rusage fields found", text[:300])
    if all(v == 0 for v in present):
        raise ParseError("GNU time -v output", "every rusage field is zero: this time(1) build "
                         "is broken (seen with a GNU time reporting version 'UNKNOWN'); "
                         "sample memory with psutil instead", text[:300])
    return values
