"""The cross table page and PDF (public) and the federation export (organisers only): issue 26
items 4 and 5, docs/tournaments.md "Cross table" and "Federation export".

Scores (rules): NSKT, N's Grand Tai Pan with a double victory of NS is 400 : 0; two reach the
target 800, so NS wins 800 : 0 and takes 2 match points (docs/engines/taipan.md).
"""
from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.models.persons import PublicNames
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    PASSWORD,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    play,
    played_taipan_tournament,
    staff,
)

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://x","y")'


@pytest.fixture(autouse=True)
def english(english_everywhere):
    """English texts and a fresh cache (:func:`tests.conftest.english_everywhere`)."""


@pytest.fixture
def world():
    """Two teams, short public names by default; "Hyper" (named like a formula, its first player
    too, federation numbers NL-1 and NL-2) beat "Plain" 800 : 0 in round 1 at table 1."""
    t = TournamentFactory(slug="ct", public_names=PublicNames.SHORT)
    people = staff(t)
    hyper = TeamFactory(tournament=t, name=EVIL,
                        first_player=PlayerFactory(tournament=t, name=EVIL + " Jansen", federation_number="NL-1"),
                        second_player=PlayerFactory(tournament=t, name="Anna de Vries", federation_number="NL-2"))
    plain = TeamFactory(tournament=t, name="Plain",
                        first_player=PlayerFactory(tournament=t, name="Bram Bakker", federation_number="NL-3"),
                        second_player=PlayerFactory(tournament=t, name="Carla Smit"))
    rnd = RoundFactory(tournament=t, number=1)
    play(MatchFactory(round=rnd, table=1, team_ns=hyper, team_ew=plain), [GRAND_DOUBLE_VICTORY_NS] * 2,
         people["referees"][0], confirmer=people["referees"][1])
    return t, people


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_page_shows_cells_with_public_names(client, world):
    t, _people = world
    r = client.get(reverse("scoring:crosstable", args=[t.slug]))
    assert r.status_code == 200
    html = r.content.decode()
    assert '<a href="#ct-2">2 NS</a></span> <span class="ct-result">W 800-0</span>' in html
    assert '<a href="#ct-1">1 EW</a></span> <span class="ct-result">L 0-800</span>' in html
    assert "Anna V." in html and "Anna de Vries" not in html  # public names
    assert "crosstable-scroll" in html and "ct-entrant" in html
    assert reverse("scoring:crosstable_pdf", args=[t.slug]) in html
    assert reverse("scoring:federation_export", args=[t.slug]) not in html  # organisers only
    standings = client.get(reverse("scoring:standings", args=[t.slug])).content.decode()
    assert reverse("scoring:crosstable", args=[t.slug]) in standings
    detail = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert reverse("scoring:crosstable", args=[t.slug]) in detail


def test_page_query_count_does_not_grow(client):
    def count(t) -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("scoring:crosstable", args=[t.slug])).status_code == 200
        return len(ctx.captured_queries)

    assert count(played_taipan_tournament(4, 2)) == count(played_taipan_tournament(12, 6))


def test_pdf(client, world):
    t, _people = world
    r = client.get(reverse("scoring:crosstable_pdf", args=[t.slug]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(r.content)).pages).split())
    assert "Cross table" in text and "800-0" in text and "Anna V." in text and "Anna de Vries" not in text


def test_pdf_footer_and_title_are_in_the_reader_s_language(client, world):
    # Issue 26, tester: the Dutch PDF's footer read "... cross table · 1" (an untranslated msgid).
    t, _people = world
    client.cookies["django_language"] = "nl"
    with translation.override("nl"):
        r = client.get(reverse("scoring:crosstable_pdf", args=[t.slug]))
    reader = PdfReader(io.BytesIO(r.content))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert f"{t.name} - Kruistabel · 1" in text and "cross table" not in text.lower()
    assert reader.metadata.title == f"{t.name} - Kruistabel"


def test_pdf_of_many_rounds_and_teams_repeats_its_head(client):
    """Forty teams over fifteen rounds: more rounds than fit beside the names, so the rounds are
    split in blocks; every page carries the head."""
    t = played_taipan_tournament(40, 15)
    r = client.get(reverse("scoring:crosstable_pdf", args=[t.slug]))
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(r.content)).pages]
    assert len(pages) > 2
    assert all("No." in page for page in pages)
    joined = " ".join(" ".join(pages).split())
    assert "R1" in joined and "R15" in joined and "Match points" in joined


def csv_rows(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def test_federation_export_is_for_organisers_only(client, world):
    t, people = world
    url = reverse("scoring:federation_export", args=[t.slug])
    assert client.get(url).status_code == 302  # to the login page
    assert login(client, people["referee"]).get(url).status_code == 403
    client.logout()
    assert login(client, people["outsider"]).get(url).status_code == 403
    client.logout()
    assert login(client, people["organiser"]).get(url + "?format=pdf").status_code == 404


def test_federation_export_csv_and_xlsx(client, world):
    """Full names and federation numbers in columns of their own, the totals and per round the
    opponent and result; the formula-like team and player names come out as text."""
    t, people = world
    login(client, people["organiser"])
    url = reverse("scoring:federation_export", args=[t.slug])
    rows = csv_rows(client.get(url + "?format=csv").content)
    head = rows[0]
    assert head[:7] == ["Rank", "Team", "Player 1", "Federation number 1", "Player 2", "Federation number 2",
                        "Affiliation"]
    assert head[-2:] == ["Round 1 opponent", "Round 1 result"]
    first = dict(zip(head, rows[1], strict=True))
    assert first["Rank"] == "1" and first["Team"] == "'" + EVIL  # OWASP prefix: inert
    assert (first["Player 1"], first["Federation number 1"]) == ("'" + EVIL + " Jansen", "NL1")
    assert (first["Player 2"], first["Federation number 2"]) == ("Anna de Vries", "NL2")  # full name
    assert (first["Match points"], first["Points scored"]) == ("2", "800")
    assert (first["Round 1 opponent"], first["Round 1 result"]) == ("Plain", "W 800-0")
    second = dict(zip(head, rows[2], strict=True))
    assert (second["Round 1 opponent"], second["Round 1 result"]) == ("'" + EVIL, "L 0-800")
    assert second["Federation number 2"] == ""

    wb = load_workbook(io.BytesIO(client.get(url + "?format=xlsx").content))
    ws = wb.active
    assert [c.data_type for row in ws.iter_rows() for c in row if c.data_type == "f"] == []
    sheet = [[c.value for c in row] for row in ws.iter_rows()]
    first = dict(zip(sheet[0], sheet[1], strict=True))
    assert first["Team"] == EVIL and first["Player 1"] == EVIL + " Jansen"  # exact text, a string cell
    assert first["Match points"] == 2 and first["Points scored"] == 800  # numbers stay numbers
    assert ws["B2"].data_type == "s" and ws["B2"].quotePrefix


def test_federation_export_of_a_four_player_tournament(client):
    t = TournamentFactory(slug="ct-sc", game="sichuan")
    people = staff(t)
    rnd = RoundFactory(tournament=t, number=1)
    from tests.factories import DEALS, TableFactory
    players = [PlayerFactory(tournament=t, name=n, federation_number=f"F{i}") for i, n in
               enumerate(["Ann East", "Bo South", "Cy West", "Di North"])]
    play(TableFactory(round=rnd, number=1, players=players), [DEALS["sichuan"][0]], people["referees"][0],
         end_reason="time", confirmer=people["referees"][1])
    login(client, people["organiser"])
    rows = csv_rows(client.get(reverse("scoring:federation_export", args=[t.slug])).content)
    assert rows[0] == ["Rank", "Player", "Federation number", "Affiliation", "Total points", "Round 1 opponent",
                       "Round 1 result"]
    assert rows[1] == ["1", "Ann East", "F0", "", "6", "Bo South / Cy West / Di North", "1st 6"]
