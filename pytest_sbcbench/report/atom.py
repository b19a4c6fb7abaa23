"""The Atom feed (RFC 4287) of ``sbcbench publish``: one entry per incident, newest first.

An entry's id is a tag URI of the incident's id (``BOARD@FIRST_BAD``), its ``updated`` the
time the first bad label was first recorded (or its triage state was set, if later), its link
the incident on the board's page (relative to the feed).  Every name and time in it comes from
the store: escaped as :mod:`..judge.stored_names` says, the link made of the board page's safe
name and the percent-encoded incident id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..judge.changes import Incident
from ..judge.stored_names import file_stem, url
from ..judge.stored_names import html as escape

EPOCH = "1970-01-01T00:00:00+00:00"


def _stamp(value: str | None) -> str:
    """An RFC 3339 time: a stored ``created`` without a zone is taken as UTC."""
    if not value:
        return EPOCH
    return value if ("+" in value[10:] or value.endswith("Z") or "-" in value[19:]) \
        else f"{value}+00:00"


def feed(found: Sequence[Incident], first_seen: Mapping[str, str]) -> str:
    """The feed of ``found``; ``first_seen``: when each incident's first bad label was first
    recorded."""
    entries = []
    for i in found:
        seen = _stamp(first_seen.get(i.id))
        updated = max(seen, _stamp(i.state_set)) if i.state_set else seen
        summary = "; ".join(f"{s.metric} {s.change_pct:+.2f}% ({s.direction}, 95% CI "
                            f"{s.ci_pct[0]:+.2f}% .. {s.ci_pct[1]:+.2f}%)" for s in i.steps)
        link = f"boards/{file_stem(i.board)}.html#{url(i.id)}"
        entries.append((updated, (
            f"<entry><id>tag:pytest-sbcbench,2026:incident:{escape(i.id)}</id>"
            f"<title>{escape(i.id)} [{escape(i.state)}]: {escape(', '.join(i.metrics))} from "
            f"{escape(i.first_bad)}</title><updated>{escape(updated)}</updated>"
            f"<link href=\"{escape(link)}\"/>"
            f"<summary>{escape(f'{i.board}: last good label {i.last_good}, first bad label ')}"
            f"{escape(f'{i.first_bad}: {summary}')}</summary></entry>")))
    entries.sort(key=lambda e: e[0], reverse=True)
    newest = entries[0][0] if entries else EPOCH
    return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">"
            "<id>tag:pytest-sbcbench,2026:incidents</id><title>sbcbench incidents</title>"
            f"<updated>{escape(newest)}</updated><author><name>sbcbench publish</name></author>"
            "<link rel=\"self\" href=\"feed.xml\"/><link href=\"index.html\"/>"
            f"{''.join(e for _, e in entries)}</feed>\n")
