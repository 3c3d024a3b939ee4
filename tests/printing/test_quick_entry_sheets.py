"""The four-player table sheet matches the quick-entry fields (issue 24 item 5): per deal the
winner (seat), from whom (seat or self-drawn) and the value (Sichuan fan, Taiwanese tai; Tien Gow:
the banker, the columns, the last trick), then the score and running total per seat. Read back
with pypdf (the text of the sheet, not pixels).

Quick records are stored as the quick entry writes them (docs/results.md); the deal scores printed
are the stored ones, worked out by hand here from the rule texts:

- Sichuan (the Sichuan rule text, "Basispunten": 2 to the power of the fan; a discarder pays
  it; on a self-draw every opponent still in pays it plus 1): East wins on South's discard with 3
  fan, South pays 2^3 = 8; then West self-draws with 1 fan and South and North (East has left) pay
  2^1 + 1 = 3 each: E +8, S -11, W +6, N -3.
- Taiwanese (case T01, the Taiwanese rule text, base 3 + 2 per tai): South self-draws 6 tai with
  East dealing (streak 0): each pays 3 + 2 x 6 = 15, the dealer 2 more for dealer tai 1:
  -17 / +47 / -15 / -15.
- Tien Gow (S-01, the Tien Gow rule text, "Afrekening"): banker seat 1; seat 2 wins the last trick
  (ordinary) with the columns 2/3/3/0: -4 / +10 / -1 / -5; then seat 2 banks and seat 3 wins a
  quartet and the last trick with a quartet (:data:`TG_QUARTET_NET`).
"""
from __future__ import annotations

import pytest
from django.utils import translation

from scoring.games import registry
from scoring.models import Deal
from scoring.printing import sheets
from tests.factories import DEALS, play, staff, table_round
from tests.printing.conftest import read_pdf

pytestmark = pytest.mark.django_db

SICHUAN_QUICK = {"players": ["E", "S", "W", "N"], "events": [{"type": "win", "player": "E", "discarder": "S", "fan": 3},
                                                              {"type": "win", "player": "W", "fan": 1}], "exhaustion": None}
SICHUAN_QUICK_NET = [8, -11, 6, -3]
TAIWANESE_QUICK = {"seat": "S", "win": {"how": "self"}, "tai": 6, "dealer": "E", "streak": 0, "round_wind": "E"}
TAIWANESE_QUICK_NET = [-17, 47, -15, -15]


def lines_of(data: bytes) -> list[str]:
    pages = read_pdf(data)
    assert len(pages) == 1
    return [line.strip() for line in pages[0].splitlines()]


def store(table, records_and_nets) -> None:
    """Deals stored as the quick entry writes them, with their (hand-worked) nets."""
    for number, (record, net) in enumerate(records_and_nets, start=1):
        Deal.objects.create(table=table, number=number, record=record, net=net)


def has_run(lines: list[str], run: list[str]) -> bool:
    """``run`` stands in ``lines`` as consecutive lines."""
    return any(lines[i: i + len(run)] == run for i in range(len(lines)))


def after(lines: list[str], head: str, count: int) -> list[str]:
    """The ``count`` lines after the first line ``head``."""
    i = lines.index(head)
    return lines[i + 1: i + 1 + count]


def test_sichuan_sheet_has_a_line_per_win():
    adapter = registry.get("sichuan")
    assert [str(c.title) for c in adapter.sheet_columns()] == ["Wins"]
    assert adapter.sheet_columns()[0].subheads == ("winner", "from", "fan")
    # several wins of one deal: one line each, self-drawn marked, seats by their letter
    assert adapter.sheet_cells(SICHUAN_QUICK) == ["E\nW", "S\nself", "3\n1"]
    assert adapter.summary(SICHUAN_QUICK) == "win East from South 3 fan; win West self-drawn 1 fan"
    # a robbed kong is paid by the robbed player; a deal without a win: the wall ran out
    assert adapter.sheet_cells({"events": [{"type": "win", "player": "N", "robbed": "W", "fan": 2}]}) == ["N", "W", "2"]
    assert adapter.sheet_cells({"events": [], "exhaustion": {}})[0] == "wall exhausted"
    rnd, (table,) = table_round("sichuan")
    store(table, [(SICHUAN_QUICK, SICHUAN_QUICK_NET)])
    lines = lines_of(sheets.score_sheet_pdf(table))
    assert has_run(lines, ["#", "Wins", "Deal", "Total", "winner", "from", "fan", "East", "South", "West", "North"])
    assert after(lines, "1", 6 + 8) == ["E", "W", "S", "self", "3", "1", "8", "-11", "6", "-3", "8", "-11", "6", "-3"]
    # the empty rows have room for two wins: two lines of the game's columns beside one number
    grid = sheets._records_table(table, list(table.deals.all()), sheets.styles())
    numbers = [row[0] for row in grid._cellvalues[2:]]
    assert numbers[:5] == ["1", "2", "", "3", ""]


def test_taiwanese_sheet_quick_and_full():
    adapter = registry.get("taiwanese")
    assert adapter.sheet_columns()[0].subheads == ("winner", "from", "tai")
    assert adapter.sheet_cells(TAIWANESE_QUICK) == ["S", "self", "6"]
    assert adapter.sheet_cells({"seat": "W", "win": {"how": "discard", "discarder": "N"}, "tai": 2}) == ["W", "N", "2"]
    assert adapter.sheet_cells({"draw": True, "dealer": "E"}) == ["draw", "", ""]
    assert adapter.summary(TAIWANESE_QUICK) == "South self-drawn 6 tai"
    rnd, (table,) = table_round("taiwanese")
    play(table, [DEALS["taiwanese"][0]], staff(rnd.tournament)["referee"])
    Deal.objects.create(table=table, number=2, record=TAIWANESE_QUICK, net=TAIWANESE_QUICK_NET)
    lines = lines_of(sheets.score_sheet_pdf(table))
    assert has_run(lines, ["#", "Win", "Deal", "Total", "winner", "from", "tai", "East"])
    assert after(lines, "1", 3 + 4) == ["S", "self", "(6p)", "-17", "47", "-15", "-15"]  # full: the winning tile
    assert after(lines, "2", 3 + 8) == ["S", "self", "6", "-17", "47", "-15", "-15", "-34", "94", "-30", "-30"]
    assert "A tai in brackets: entered tile by tile, the winning tile" in " ".join(lines)


def test_tiengow_sheet_banker_columns_last_trick():
    adapter = registry.get("tiengow")
    assert [str(c.title) for c in adapter.sheet_columns()] == ["Banker", "Columns", "Last trick", "Immediate"]
    rnd, (table,) = table_round("tiengow")
    s01 = {"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}
    quartet = {"mode": "settle", "columns": [2, 1, 5, 0], "last_trick": {"winner": 2, "group": "quartet"},
               "immediate": [{"winner": 2, "group": "quartet"}]}
    play(table, [s01, quartet], staff(rnd.tournament)["referee"])
    assert [d.net for d in table.deals.order_by("number")] == [[-4, 10, -1, -5], TG_QUARTET_NET]
    lines = lines_of(sheets.score_sheet_pdf(table))
    assert has_run(lines, ["#", "Banker", "Columns", "Last trick", "Immediate", "Deal", "Total", "1", "2", "3", "4", "won by", "with"])
    # number, banker, columns 1-4, last trick won by / with, immediate, the deal's scores
    assert has_run(lines, ["1", "1", "2", "3", "3", "0", "2", "–", "–", "-4", "10", "-1", "-5"])
    assert has_run(lines, ["2", "2", "2", "1", "5", "0", "3", "Q", "3 Q", *map(str, TG_QUARTET_NET)])
    # the seats' headings over the eight score columns wrap at their space, never inside the word
    # (Dutch "Plaats 1" printed as "Plaa ts 1" before)
    with translation.override("nl"):
        words = " ".join(read_pdf(sheets.score_sheet_pdf(table))).split()
    assert words.count("Plaats") >= 8 and not any(w.startswith("Plaa") and w != "Plaats" and not w.startswith("Plaatsen")
                                                   for w in words)


#: Deal 2 of the Tien Gow test (the Tien Gow rule text): seat 2 (index 1) banks; seat 3 (index 2) wins a
#: quartet during the deal (immediate: 4 from each, doubled with the banker: seat 2 pays 8, seats 1
#: and 4 pay 4 -> +16) and the last trick with a quartet, columns 2/1/5/0. Final payments, doubled
#: for the last quartet: seat 1 (2 columns) pays (4 - 2) x 2 = 4; seat 2, the banker (1 column),
#: pays (4 - 1) x 2 x 2 = 12; seat 4 (no column) pays 5 x 2 = 10 -> +26. Net: seat 1 -4 - 4 = -8,
#: seat 2 -8 - 12 = -20, seat 3 +16 + 26 = +42, seat 4 -4 - 10 = -14.
TG_QUARTET_NET = [-8, -20, 42, -14]
