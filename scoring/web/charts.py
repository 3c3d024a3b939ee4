"""Small bar charts as inline SVG, made on the server (no script, no chart library): the player
profile's statistics (:class:`scoring.games.statistics.Series`). ``players/_bars.html`` draws
what :func:`bar_chart` computes; the numbers are also printed as a table under the chart.

Texts under the bars must stay readable on a phone (the chart is at most 300 px wide, so SVG
units are about pixels): each bar carries its short label (``"R2"``), a run of bars of the same
group (a tournament) carries the group's name once, on a second line; a text that does not fit
its room is cut with "…" (its full text is in the bar's ``<title>`` and the table)."""
from __future__ import annotations

from itertools import groupby

from scoring.games.statistics import Series

#: The drawing area in SVG units (the chart scales to its container's width).
WIDTH, HEIGHT = 300, 120
LEFT, RIGHT, TOP, BOTTOM = 4, 4, 14, 18
#: The extra height for the line of group names.
GROUP_LINE = 11
#: A generous width of one character of the labels (8 units high, see site.css), in SVG units.
CHAR_WIDTH = 5.2
ELLIPSIS = "…"


def fit(text: str, room: float, char_width: float = CHAR_WIDTH) -> str:
    """``text`` cut to ``room`` SVG units at ``char_width`` a character, ending in "…" when cut;
    ``""`` when not even one character and the ellipsis fit."""
    chars = int(room // char_width)
    if len(text) <= chars:
        return text
    return text[:chars - 1].rstrip() + ELLIPSIS if chars >= 2 else ""


def _group_spans(groups: list[str], step: float, y: float) -> list[dict]:
    """One entry per run of equal ``groups``: ``x1``/``x2`` (its slots' edges), ``cx``, ``y``
    (the name's base line), ``line_y`` (a rule over the run, under the bars' labels),
    ``text`` (fitted to the run's width), ``full``."""
    spans, start = [], 0
    for group, run in groupby(groups):
        count = len(list(run))
        x1, x2 = LEFT + start * step, LEFT + (start + count) * step
        spans.append({"x1": round(x1 + 1, 1), "x2": round(x2 - 1, 1), "cx": round((x1 + x2) / 2, 1), "y": y, "line_y": y - 9,
                      "text": fit(group, x2 - x1 - 2), "full": group})
        start += count
    return spans


def bar_chart(series: Series, *, width: int = WIDTH, height: int = HEIGHT) -> dict:
    """What ``players/_bars.html`` draws for ``series``: ``key``, ``title`` (the chart's
    ``<title>``), ``description`` (every full label and value in words: its ``<desc>``),
    ``width``, ``height`` (plus :data:`GROUP_LINE` with groups), ``zero_y`` (the base line) and
    ``bars`` (``x``, ``y``, ``w``, ``h``, ``cx`` (the bar's centre), ``label`` (fitted to the
    bar's slot with "…"), ``full`` (the full name, the bar's tooltip), ``value``, ``label_y``,
    ``value_y``, ``negative``), ``groups`` (see :func:`_group_spans`; empty without groups) and
    ``rows`` (``(full name, value)`` for the table); ``show_labels`` / ``show_values``: whether
    the bars are wide enough to carry their labels (8 bars at most) and values (12). Values may
    be negative (bars hang below the base line); all zero still gives a base line."""
    values = list(series.values)
    n = max(len(values), 1)
    high, low = max([*values, 0]), min([*values, 0])
    if high == low:  # nothing but zeros: the base line at the bottom
        high = low + 1
    span = high - low
    inner = height - TOP - BOTTOM

    def y(v: float) -> float:
        return round(TOP + (high - v) * inner / span, 1)

    step = (width - LEFT - RIGHT) / n
    bar_w = round(max(step * 0.7, 1), 1)
    names = series.full_labels()
    bars = []
    for i, (label, full, value) in enumerate(zip(series.labels, names, values, strict=True)):
        x = round(LEFT + i * step + (step - bar_w) / 2, 1)
        top, bottom = (y(value), y(0)) if value >= 0 else (y(0), y(value))
        bars.append({"x": x, "y": top, "w": bar_w, "h": round(max(bottom - top, 0), 1), "cx": round(x + bar_w / 2, 1),
                     "label": fit(label, step - 2), "full": full, "value": value, "negative": value < 0,
                     "value_y": round(top - 2, 1) if value >= 0 else round(bottom + 9, 1), "label_y": height - 4})
    show_labels = n <= 8
    groups = _group_spans(series.groups, step, height + GROUP_LINE - 3) if series.groups and show_labels else []
    rows = list(zip(names, values, strict=True))
    description = "; ".join(f"{name}: {value}" for name, value in rows)
    return {"key": series.key, "title": str(series.title), "description": description, "width": width,
            "height": height + (GROUP_LINE if groups else 0), "zero_y": y(0), "bars": bars, "groups": groups, "rows": rows,
            "show_labels": show_labels, "show_values": n <= 12}
