"""Score sheets and round packs of every game (one layout, :mod:`scoring.printing.sheets`), read
back with pypdf: the tournament, the round and table number, every seated player (and team), each
entered record with its scores per side and the running totals, blank rows to write in.

Values from the rules (engine defaults; tests/factories.py DEALS): Tai Pan (NSKT) N's Tai Pan
made with 75 : 25 card points is 175 : 25, a plain 75 : 25 hand 75 : 25; Sichuan East's self-draw
+6 / -2 / -2 / -2; Taiwanese South's self-draw -17 / +47 / -15 / -15 with East dealing, then
South deals (the dealer passes to the winner, streak 0) and the same hand pays dealer tai 1:
3 + 2 x 7 = 17 from each -> -17 / +51 / -17 / -17; Tien Gow banker seat 1 settling columns
2/3/3/0 -> -4 / +10 / -1 / -5 and the bank passes to seat 2."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.games import registry
from scoring.models import Round
from scoring.printing import sheets
from scoring.printing.common import styles
from tests.factories import play, staff, table_round, taipan_round
from tests.games.kits import kit
from tests.printing.conftest import read_pdf

pytestmark = pytest.mark.django_db

BASE = "https://nskt.example.org/"


def expect(game: str):
    """The game's label on the sheet, its side labels, and two records with the cells and scores
    each prints (its test kit, tests/games/<game>/kit.py; by the rules, see the module docstring)."""
    game_kit = kit(game)
    return game_kit.sheet_label, game_kit.side_labels_en, game_kit.sheet_rows


def round_of(game: str, tables: int = 2):
    if registry.get(game).entrants == "teams":
        return taipan_round(tables=tables, game=game)
    return table_round(game, tables=tables)


def names_of(container) -> list[str]:
    """Every name printed for the sides: teams and their players, or the seated players."""
    if hasattr(container, "team_ns"):
        return [container.team_ns.name, container.team_ew.name, container.team_ns.first_player.name,
                container.team_ns.second_player.name, container.team_ew.first_player.name, container.team_ew.second_player.name]
    return [s.player.name for s in container.seats.order_by("seat")]


def row_at(lines: list[str], number: int, cells: list[str], width: int) -> list[str]:
    """The ``width`` cells of record row ``number`` (found by its number and first cells)."""
    for i in range(len(lines) - width):
        if lines[i] == str(number) and lines[i + 1: i + 1 + len(cells)] == cells:
            return lines[i: i + width]
    raise AssertionError(f"row {number} {cells} not found in {lines}")


@pytest.mark.every_game
def test_score_sheet_of_every_game(game):
    rnd, (first, _second) = round_of(game)
    label, sides, rows = expect(game)
    play(first, [record for record, _cells, _scores in rows], staff(rnd.tournament)["referee"])
    pages = read_pdf(sheets.score_sheet_pdf(first, base_url=BASE))
    assert len(pages) == 1
    lines = [line.strip() for line in pages[0].splitlines()]
    assert rnd.tournament.name in lines
    assert f"Round 1 · Table 1 · {label} score sheet" in lines
    # The QR code's address: the entry page (changed on purpose, issue 11 item 3).
    assert "https://nskt.example.org" in lines and f"/t/{rnd.tournament.slug}/{'match' if rnd.tournament.has_teams else 'table'}/{first.pk}/enter/" in lines
    for name in names_of(first):
        assert name in lines, name
    for side in sides:
        assert f"Final total {side}" in lines and f"Signature {side}" in lines
    running = [0] * len(sides)
    for number, (_record, cells, scores) in enumerate(rows, start=1):
        row = row_at(lines, number, cells, 1 + len(cells) + 2 * len(sides))
        printed = [int(x) for x in row[1 + len(cells):]]
        if scores is not None:
            assert printed[:len(sides)] == scores
        running = [a + b for a, b in zip(running, printed[:len(sides)], strict=True)]
        assert printed[len(sides):] == running
    blank = kit(game).blank_rows  # rows to write in, numbered on
    assert str(blank) in lines and str(blank + 1) not in lines


@pytest.mark.every_game
def test_round_pack_of_every_game(game, client):
    rnd, (first, second) = round_of(game)
    _label, sides, rows = expect(game)
    play(first, [rows[0][0]], staff(rnd.tournament)["referee"])
    pages = read_pdf(sheets.round_pack_pdf(rnd, base_url=BASE))
    assert len(pages) == 2  # one sheet per table, by table number
    for page, container, number in ((pages[0], first, 1), (pages[1], second, 2)):
        lines = [line.strip() for line in page.splitlines()]
        assert any(line.startswith(f"Round 1 · Table {number} · ") for line in lines)
        for name in names_of(container):
            assert name in lines, name
    first_lines = [line.strip() for line in pages[0].splitlines()]
    row = row_at(first_lines, 1, rows[0][1], 1 + len(rows[0][1]) + 2 * len(sides))
    assert [int(x) for x in row[-2 * len(sides):]] == rows[0][2] * 2  # the record and the running total
    assert rows[0][1][-1] not in [line.strip() for line in pages[1].splitlines()]  # table 2 has no records yet
    # the public downloads of the same sheets
    slug = rnd.tournament.slug
    sheet_url = "scoring:score_sheet_pdf" if rnd.tournament.has_teams else "scoring:table_sheet_pdf"
    for url in (reverse(sheet_url, args=[slug, second.pk]), reverse("scoring:round_pack_pdf", args=[slug, 1]),
                reverse("scoring:round_tables_pdf", args=[slug, 1])):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf", url


#: Sichuan deals whose description wraps in the record column: a concealed kong then a win on the
#: replacement tile (case S13: E +21, the others -7) and two wins then the wall exhausted (case
#: S22: E +4, S -5, W +1, N 0).
LONG_DEALS = [
    ({"events": [{"type": "kong", "player": "E", "kind": "concealed", "tile": "6m"},
                 {"type": "win", "player": "E", "hand": {"void": "s", "melds": ["kong 6666m concealed"], "concealed": "123m 456p 789p 22p",
                                                         "win": {"tile": "2p", "how": "self", "after_kong": True, "last_tile": False}}}],
      "exhaustion": None}, [21, -7, -7, -7]),
    ({"events": [{"type": "win", "player": "W", "discarder": "N", "hand": {"void": "m", "melds": [], "concealed": "234s 567s 789s 123p 99s",
                                                                           "win": {"tile": "9s", "how": "discard", "after_kong": False, "last_tile": False}}},
                 {"type": "win", "player": "N", "discarder": "S", "hand": {"void": "m", "melds": [], "concealed": "345s 678s 456p 789p 11s",
                                                                           "win": {"tile": "1s", "how": "discard", "after_kong": False, "last_tile": False}}}],
      "exhaustion": {"E": {"void": "p", "concealed": "123m 456m 789m 11m 45m", "melds": []},
                     "S": {"void": "s", "concealed": "2m 3m 6m 9m 1p 2p 3p 4p 5p 6p 7p 8p 9p", "melds": []}}}, [4, -5, 1, 0]),
]


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_wrapping_description_gets_a_taller_row(language, settings):
    """Found looking at the sheets: a record row kept its fixed height when the description wrapped
    (a Tien Gow summary in Dutch, Sichuan deals with several events), so the text ran over the
    row's lines. A row is now as tall as its wrapped text and the sheet still fits one page."""
    from django.utils import translation

    from scoring.kinds import kind_of

    rnd, (table,) = table_round("sichuan", tables=1)
    play(table, [deal for deal, _net in LONG_DEALS] * 4, staff(rnd.tournament)["referee"])
    assert [s.total for s in table.seats.order_by("seat")] == [4 * (a + b) for a, b in zip(*(net for _d, net in LONG_DEALS), strict=True)]
    with translation.override(language):
        records = kind_of(table).records(table)
        grid = sheets._records_table(table, records, styles())
        heights, widths = grid._argH, grid._argW
        wrapped = 0
        for r, row in enumerate(grid._cellvalues[2:2 + len(records)], start=2):
            for cell, width in zip(row, widths, strict=True):
                if isinstance(cell, sheets.Paragraph):
                    _w, needed = cell.wrap(width - 2 * sheets.CELL_PAD_X, 1000)
                    assert heights[r] >= needed + 2 * sheets.CELL_PAD_Y, (r, cell.text)
                    wrapped += needed > sheets.ROW_HEIGHT - 2 * sheets.CELL_PAD_Y
        assert wrapped >= 4  # the long descriptions do wrap
        assert len(read_pdf(sheets.score_sheet_pdf(table, base_url=BASE))) == 1


def test_a_draft_round_pack_is_for_organisers_only(client):
    rnd, (table,) = table_round("tiengow", tables=1, status=Round.Status.DRAFT)
    people = staff(rnd.tournament)
    urls = [reverse("scoring:round_tables_pdf", args=[rnd.tournament.slug, 1]),
            reverse("scoring:table_sheet_pdf", args=[rnd.tournament.slug, table.pk])]
    for user, status in ((None, 404), (people["referee"], 404), (people["organiser"], 200)):
        if user:
            client.force_login(user)
        for url in urls:
            assert client.get(url).status_code == status, (user, url)
