"""One small inline SVG chart of a measurement across labels, for ``sbcbench publish``.

Drawn by hand (no library, no script): a polyline through the labels' means of boot means, a
vertical bar per label for its 95% interval, a dashed red line before each incident's first
bad label, the axis' lowest and highest values and the first and last label written out.
Linear axis; a ``<title>`` names the chart for screen readers and as a tooltip."""

from __future__ import annotations

from collections.abc import Sequence

from ..judge.label_levels import LabelLevel
from ..judge.stored_names import html as escape
from ..model import display

WIDTH, HEIGHT = 360, 140
LEFT, RIGHT, TOP, BOTTOM = 62, 8, 18, 22


def _fmt(v: float) -> str:
    return f"{v:.1f}"


def chart(title: str, unit: str, levels: Sequence[LabelLevel],
          incidents: Sequence[tuple[str, str]]) -> str:
    """The SVG element; ``incidents``: (first bad label, incident id) pairs to mark."""
    drawn = [(i, lv) for i, lv in enumerate(levels) if lv.mean is not None]
    lows = [lv.interval[0] if lv.interval else lv.mean for _, lv in drawn]
    highs = [lv.interval[1] if lv.interval else lv.mean for _, lv in drawn]
    low = min((v for v in lows if v is not None), default=0.0)
    high = max((v for v in highs if v is not None), default=1.0)
    if high <= low:
        low, high = low * 0.99 - 1e-12, high * 1.01 + 1e-12
    span_x = max(1, len(levels) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: float) -> float:
        return LEFT + plot_w * (i / span_x if len(levels) > 1 else 0.5)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low))

    parts = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
             f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'data-labels="{len(levels)}"><title>{escape(title)}</title>',
             f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" '
             'stroke="#ccc"/>']
    for i, lv in drawn:
        if lv.interval:
            parts.append(f'<line class="interval" x1="{_fmt(x(i))}" x2="{_fmt(x(i))}" '
                         f'y1="{_fmt(y(lv.interval[0]))}" y2="{_fmt(y(lv.interval[1]))}" '
                         'stroke="#9ecae1" stroke-width="2"/>')
    points = " ".join(f"{_fmt(x(i))},{_fmt(y(lv.mean))}" for i, lv in drawn
                      if lv.mean is not None)
    if len(drawn) == 1:
        (i, lv), = drawn
        assert lv.mean is not None
        parts.append(f'<circle class="series" cx="{_fmt(x(i))}" cy="{_fmt(y(lv.mean))}" '
                     'r="3" fill="#1f77b4"/>')
    elif drawn:
        parts.append(f'<polyline class="series" points="{points}" fill="none" '
                     'stroke="#1f77b4" stroke-width="1.5"/>')
    labels = [lv.label for lv in levels]
    for first_bad, ident in incidents:
        if first_bad in labels:
            at = _fmt(x(labels.index(first_bad) - 0.5))
            parts.append(f'<line class="incident" x1="{at}" x2="{at}" y1="{TOP}" '
                         f'y2="{TOP + plot_h}" stroke="#d62728" stroke-dasharray="4 3">'
                         f'<title>{escape(ident)}</title></line>')
    top_text, shown = display(high, unit)
    bottom_text, _ = display(low, unit)
    parts += [f'<text x="{LEFT - 4}" y="{TOP + 8}" text-anchor="end" font-size="10">'
              f'{escape(top_text)}</text>',
              f'<text x="{LEFT - 4}" y="{TOP + plot_h}" text-anchor="end" font-size="10">'
              f'{escape(bottom_text)}</text>',
              f'<text x="{LEFT - 4}" y="{TOP + plot_h / 2 + 4:.0f}" text-anchor="end" '
              f'font-size="10">{escape(shown)}</text>',
              f'<text x="{LEFT}" y="{TOP - 5}" font-size="11">{escape(title)}</text>']
    if labels:
        parts += [f'<text x="{LEFT}" y="{HEIGHT - 6}" font-size="10">{escape(labels[0])}'
                  '</text>',
                  f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" '
                  f'font-size="10">{escape(labels[-1])}</text>']
    parts.append("</svg>")
    return "".join(parts)
