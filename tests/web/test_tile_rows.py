"""Stored hands on the result page as rows of tile faces (issue 24 item 1): the record's summary
keeps its text (PDFs, the API, the audit) and pages show its MPSZ tiles as tile faces with their
names for screen readers; the stored record is unchanged."""
import pytest
from django.utils import translation

from scoring.games.mahjong_forms import TILE_TOKEN, tiles_of, with_tile_faces
from tests.factories import DEALS, play, staff, table_round
from tests.web.test_table_entry import url

pytestmark = pytest.mark.django_db


def test_tiles_of_text():
    assert tiles_of("123m 456m 789p 234p 55p") == ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2p", "3p", "4p", "5p", "5p"]
    assert tiles_of("pung 555z claimed, 3 fan, 2/3/3/0") == ["5z", "5z", "5z"]  # not a number or columns


def test_with_tile_faces_escapes_and_names_each_tile():
    with translation.override("en"):
        html = str(with_tile_faces("win <East> self-draw 5p"))
        assert html.startswith("win &lt;East&gt; self-draw ")
        assert html.count('class="tf p"') == 1 and 'aria-label="5 dots (p)"' in html and '<span class="tf-n">5</span>' in html
        html = str(with_tile_faces("1z 7z"))
        assert 'aria-label="East wind"' in html and 'class="tf z red"' in html


@pytest.mark.every_game(entrants="players")
def test_the_result_page_shows_tiles_as_faces(client, game):
    rnd, (table,) = table_round(game)
    record, _scores = DEALS[game]
    play(table, [record], staff(rnd.tournament)["referee"])
    with translation.override("en"):
        page = client.get(url("table_detail", table)).content.decode()
    summary = table.round.tournament.adapter.summary(record)
    groups = TILE_TOKEN.findall(summary)
    # the mahjong games' winning tile as a face (Sichuan 5p, Taiwanese 6p); Tien Gow's summary has none
    assert page.count('class="tile-row-view"') == len(groups)
    assert page.count('class="tf-n"') == len(tiles_of(summary))
    assert summary in page or groups  # a summary without tiles is shown as it is
