"""``sbcbench publish OUT``: a static site of the history, readable from the file system.

    OUT/index.html          the boards (labels, metrics, last label, open incidents) and
                            every open incident
    OUT/boards/BOARD.html   a board's incidents and one small chart per metric across labels
                            (:mod:`.site_svg`: inline SVG, no script)
    OUT/feed.xml            an Atom feed of the incidents (:mod:`.atom`)

Pages are plain HTML with relative links and no script, so they open from a folder, a CI
artifact or any static web server.  Every file is written atomically, inside OUT.  Every name
on a page comes from the store, so it follows :mod:`..judge.stored_names`: escaped in text and
attributes, percent-encoded in links, and a board's page is named by the safe encoding of its
name, never the name itself (a board that is no board name is not read at all)."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..fileio import write_atomic
from ..judge import changes, history_read
from ..judge.changes import Incident
from ..judge.history_read import BoardHistory
from ..judge.history_url import Location
from ..judge.label_levels import levels
from ..judge.stored_names import file_stem, url
from ..judge.stored_names import html as escape
from ..model import DISPLAY_UNITS
from ..words import counted
from . import atom, site_svg

PARALLEL_BOARDS = 8  # fewer boards are written by this process alone
ORDER_WORDS = {"first": "first session", "version": "the kernel version they booted"}
STYLE = ("body{font-family:sans-serif;margin:1.5em;max-width:80em}"
         "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
         "text-align:left}.charts{display:flex;flex-wrap:wrap;gap:8px}"
         ".state-open{color:#d62728}.state-acknowledged{color:#ff7f0e}")


# the pages have no script, and say so to the browser: none runs, not even one a name smuggled
# in past the escaping (inline styles and the data: icon are all a page loads)
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _page(title: str, body: str, up: str = "") -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">"
            f"<title>{escape(title)}</title><link rel=\"icon\" href=\"data:,\">"
            f"<link rel=\"alternate\" type=\"application/atom+xml\" href=\"{up}feed.xml\" "
            f"title=\"incidents\"><style>{STYLE}</style></head><body>\n{body}\n</body></html>\n")


def board_file(board: str) -> str:
    """A board's page, relative to the site: named by the safe encoding of the name, so that
    no name can lead out of ``boards/`` (and it is a link as it is: the encoding is
    ``a-z0-9-_~``)."""
    return f"boards/{file_stem(board)}.html"


def _sizes(incident: Incident) -> str:
    return "; ".join(f"{escape(s.metric)} {s.change_pct:+.2f}% ({s.ci_pct[0]:+.2f}% .. "
                     f"{s.ci_pct[1]:+.2f}%)" for s in incident.steps)


def _incident_rows(found: Sequence[Incident], up: str) -> str:
    rows = "".join(
        f"<tr id=\"{escape(i.id)}\"><td><a href=\"{up}{board_file(i.board)}#{url(i.id)}\">"
        f"{escape(i.id)}</a></td><td class=\"state-{escape(i.state)}\">{escape(i.state)}</td>"
        f"<td>{escape(i.last_good)}</td><td>{escape(i.first_bad)}</td>"
        f"<td>{_sizes(i)}</td></tr>" for i in found)
    return ("<table><tr><th>incident</th><th>state</th><th>last good</th><th>first bad</th>"
            f"<th>metrics: change (95% interval)</th></tr>{rows}</table>") if found else \
        "<p>none</p>"


@dataclass(frozen=True)
class BoardPart:
    """What the index and the feed need of a board whose page is written."""

    board: str
    labels: int
    metrics: int
    last: str
    incidents: tuple[Incident, ...]
    seen: Mapping[str, str]  # incident id -> when its first bad label was first recorded


def index_page(boards: Sequence[BoardPart], found: Sequence[Incident]) -> str:
    rows = "".join(
        f"<tr><td><a href=\"{board_file(b.board)}\">{escape(b.board)}</a></td>"
        f"<td>{b.labels}</td><td>{b.metrics}</td><td>{escape(b.last)}</td>"
        f"<td>{sum(i.is_open for i in b.incidents)}</td></tr>" for b in boards)
    open_ = [i for i in found if i.is_open]
    body = (f"<h1>sbcbench history</h1><p>{counted(len(boards), 'board')}, "
            f"{counted(len(open_), 'open incident')}. <a href=\"feed.xml\">Atom feed of "
            "incidents</a></p><h2>Boards</h2><table><tr><th>board</th><th>labels</th>"
            f"<th>metrics</th><th>last label</th><th>open incidents</th></tr>{rows}</table>"
            f"<h2>Open incidents</h2>{_incident_rows(open_, '')}")
    return _page("sbcbench history", body)


def board_page(board: BoardHistory, found: Sequence[Incident], order: str = "first") -> str:
    mine = [i for i in found if i.board == board.board]
    charts = []
    for series in board.series:
        marks = [(i.first_bad, i.id) for i in mine if series.name in i.metrics]
        shown = DISPLAY_UNITS.get(series.unit, (series.unit, 1.0))[0]
        title = f"{series.name} ({shown}, {series.better} is better)"
        charts.append(f"<figure>{site_svg.chart(title, series.unit, levels(series), marks)}"
                      "</figure>")
    body = (f"<p><a href=\"../index.html\">all boards</a></p><h1>{escape(board.board)}</h1>"
            f"<p>{counted(len(board.labels), 'label')} in order of {ORDER_WORDS[order]}: "
            f"{escape(', '.join(board.labels[:3]))}{' ... ' if len(board.labels) > 3 else ''}"
            f"{escape(board.labels[-1]) if len(board.labels) > 3 else ''}. Each chart: the "
            "mean of the boot means per label (line), its 95% interval (bars), incidents "
            "(dashed red, before the first bad label).</p>"
            f"<h2>Incidents</h2>{_incident_rows(mine, '../')}"
            f"<h2>Metrics</h2><div class=\"charts\">{''.join(charts)}</div>")
    return _page(f"sbcbench history: {board.board}", body, "../")


def _first_seen(board: BoardHistory, incident: Incident) -> str:
    return min((p.created for s in board.series for p in s.points
                if p.label == incident.first_bad and p.created), default="")


def publish_boards(path: Location, out: Path, names: Sequence[str], order: str,
                   triage: Mapping[str, tuple[str, str]]) -> list[BoardPart]:
    """Judge and write the pages of the boards ``names``; what the index and feed need."""
    parts = []
    for board in history_read.boards_history(path, names, order):
        found = changes.board_incidents(board, triage)
        write_atomic(out / board_file(board.board), board_page(board, found, order).encode())
        parts.append(BoardPart(board.board, len(board.labels), len(board.series),
                               board.labels[-1] if board.labels else "-", tuple(found),
                               {i.id: _first_seen(board, i) for i in found}))
    return parts


def publish(path: Location, out: Path, order: str = "first", jobs: int | None = None
            ) -> list[Path]:
    """Write the site for the history at ``path`` into ``out`` (labels in ``order``: ``first``
    session or kernel ``version``); the files written.  Boards are judged and written by
    ``jobs`` processes (default: one per CPU, one process below :data:`PARALLEL_BOARDS`)."""
    names = history_read.boards(path)
    triage = history_read.read_triage(path)
    (out / "boards").mkdir(parents=True, exist_ok=True)
    jobs = jobs or (os.cpu_count() or 1 if len(names) >= PARALLEL_BOARDS else 1)
    jobs = max(1, min(jobs, len(names)))
    if jobs == 1:
        parts = publish_boards(path, out, names, order, triage)
    else:  # fork: the workers read their own boards, no state is shared
        shares = [names[i::jobs] for i in range(jobs)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = pool.starmap(publish_boards, [(path, out, share, order, triage)
                                                 for share in shares])
        parts = sorted((p for d in done for p in d), key=lambda p: p.board)
    found = [i for p in parts for i in p.incidents]
    seen = {k: v for p in parts for k, v in p.seen.items()}
    written = [write_atomic(out / "index.html", index_page(parts, found).encode())]
    written += [out / board_file(p.board) for p in parts]
    written.append(write_atomic(out / "feed.xml", atom.feed(found, seen).encode()))
    return written
