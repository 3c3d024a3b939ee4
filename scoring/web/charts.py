"""Small bar charts as inline SVG, made on the server (no script, no chart library): the player
profile's statistics (:class:`scoring.games.statistics.Series`). ``players/_bars.html`` draws
what :func:`bar_chart` computes; the numbers are also printed as a table under the chart."""
from __future__ import annotations

from scoring.games.statistics import Series

#: The drawing area in SVG units (the chart scales to its container's width).
WIDTH, HEIGHT = 300, 120
LEFT, RIGHT, TOP, BOTTOM = 4, 4, 14, 18


def bar_chart(series: Series, *, width: int = WIDTH, height: int = HEIGHT) -> dict:
    """What ``players/_bars.html`` draws for ``series``: ``key``, ``title`` (the chart's
    ``<title>``), ``description`` (every label and value in words: its ``<desc>``), ``width``,
    ``height``, ``zero_y`` (the base line) and ``bars`` (``x``, ``y``, ``w``, ``h``, ``cx`` (the
    bar's centre), ``label``, ``value``, ``label_y``, ``value_y``, ``negative``), and ``rows``
    (``(label, value)`` for the table); ``show_labels`` / ``show_values``: whether the bars are
    wide enough to carry their labels (8 bars at most) and values (12). Values may be negative (bars hang below the base line);
    all zero still gives a base line."""
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
    bars = []
    for i, (label, value) in enumerate(zip(series.labels, values, strict=True)):
        x = round(LEFT + i * step + (step - bar_w) / 2, 1)
        top, bottom = (y(value), y(0)) if value >= 0 else (y(0), y(value))
        bars.append({"x": x, "y": top, "w": bar_w, "h": round(max(bottom - top, 0), 1), "cx": round(x + bar_w / 2, 1),
                     "label": label, "value": value, "negative": value < 0,
                     "value_y": round(top - 2, 1) if value >= 0 else round(bottom + 9, 1), "label_y": height - 4})
    rows = list(zip(series.labels, values, strict=True))
    description = "; ".join(f"{label}: {value}" for label, value in rows)
    return {"key": series.key, "title": str(series.title), "description": description, "width": width, "height": height,
            "zero_y": y(0), "bars": bars, "rows": rows, "show_labels": n <= 8, "show_values": n <= 12}
