"""The server-made bar charts (:func:`scoring.web.charts.bar_chart`): geometry worked out by hand."""
from __future__ import annotations

from scoring.games.statistics import Series
from scoring.web.charts import bar_chart


def test_bars_stand_on_the_base_line_and_hang_below_it():
    # Width 300, margins 4 + 4: two slots of 146; bars 70% of a slot = 102.2 wide, centred.
    # Values 10 and -10: high 10, low -10, span 20; drawing height 120 - 14 - 18 = 88, so the base
    # line (0) is at 14 + 10 * 88 / 20 = 58, the top of +10 at 14 and the bottom of -10 at 102.
    chart = bar_chart(Series("k", "Title", "bars", ["a", "b"], [10, -10]))
    up, down = chart["bars"]
    assert chart["zero_y"] == 58.0
    assert (up["x"], up["w"], up["y"], up["h"], up["negative"]) == (25.9, 102.2, 14.0, 44.0, False)
    assert (down["y"], down["h"], down["negative"]) == (58.0, 44.0, True)
    assert chart["description"] == "a: 10; b: -10" and chart["rows"] == [("a", 10), ("b", -10)]


def test_all_zero_still_draws_a_base_line_and_many_bars_drop_their_texts():
    chart = bar_chart(Series("k", "T", "bars", ["x"] * 20, [0] * 20))
    assert chart["zero_y"] == 102.0 and all(b["h"] == 0 for b in chart["bars"])
    assert not chart["show_labels"] and not chart["show_values"]
