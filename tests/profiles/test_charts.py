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


def test_long_texts_are_cut_with_an_ellipsis_and_kept_whole_in_the_table():
    # 5.2 units a character: a room of 30 holds 5 characters, so 6 or more lose their tail to "…".
    from scoring.web.charts import fit
    assert fit("R12", 30) == "R12" and fit("Stadstoernooi", 30) == "Stad…" and fit("abc", 5) == ""
    # 6 bars from two tournaments: slots of 292 / 6 = 48.67; groups of 4 and 2 slots.
    series = Series("k", "T", "bars", ["R1", "R2", "R3", "R4", "R1", "R3"], [2, 2, 2, 0, 0, 2],
                    ["NSKT demo", "NSKT demo", "NSKT demo", "NSKT demo", "Stadstoernooi Amsterdam 2026", "Stadstoernooi Amsterdam 2026"])
    chart = bar_chart(series)
    assert [b["label"] for b in chart["bars"]] == ["R1", "R2", "R3", "R4", "R1", "R3"]
    assert chart["bars"][4]["full"] == "Stadstoernooi Amsterdam 2026 R1"
    first, second = chart["groups"]
    # The first run spans 4 slots (4 .. 198.67; its rule 1 unit in from each edge); the second 2
    # slots, 97.33 wide, room 97.33 - 2 = 95.33 units -> 18 characters: 17 of the name and "…".
    assert (first["text"], first["x1"], first["x2"]) == ("NSKT demo", 5.0, 197.7)
    assert second["text"] == "Stadstoernooi Ams…" and second["full"] == "Stadstoernooi Amsterdam 2026"
    assert chart["height"] == 131 and chart["rows"][4] == ("Stadstoernooi Amsterdam 2026 R1", 0)
