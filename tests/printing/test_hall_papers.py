"""The round's papers for the hall (issue 23 item 7): table number cards (A4/A5, tent), the list
"name -> table" (PDF for the wall, page for the projector), the pairings per table, and the
draft watermark on every PDF of a draft round. Read back with pypdf (text, page sizes)."""
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, A5, landscape

from scoring import tasks
from scoring.models import Round
from scoring.printing import hall, sheets
from tests.factories import MatchFactory, RoundFactory, TournamentFactory, named_teams, staff, table_round
from tests.printing.conftest import read_pdf

pytestmark = pytest.mark.django_db


def sizes(data: bytes) -> list[tuple[int, int]]:
    """Width and height of every page, rounded to whole points."""
    return [(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in PdfReader(io.BytesIO(data)).pages]


def pts(size) -> tuple[int, int]:
    return round(size[0]), round(size[1])


def cup(status=Round.Status.PUBLISHED) -> Round:
    """Five teams, round 1: Alfa - Bravo at table 1, Charlie - Delta at table 2, Échec a bye."""
    t = TournamentFactory(name="Zeeuwse Taipan Cup", slug="ztc")
    teams = named_teams(t, ["Alfa", "Bravo", "Charlie", "Delta", "Échec"])
    rnd = RoundFactory(tournament=t, number=1, status=status)
    MatchFactory(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    MatchFactory(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    MatchFactory(round=rnd, table=3, team_ns=teams[4], team_ew=None)
    return rnd


@pytest.mark.parametrize(("size", "tent", "page"), [("A4", False, landscape(A4)), ("A5", False, landscape(A5)),
                                                     ("A5", True, A5), ("A4", True, A4)])
def test_table_cards_one_page_per_playing_table(size, tent, page):
    rnd = cup()
    data = hall.table_cards_pdf(rnd, size=size, tent=tent)
    pages = read_pdf(data)
    assert len(pages) == 2  # tables 1 and 2; the bye has no table
    assert sizes(data) == [pts(page)] * 2
    for number, text in zip((1, 2), pages, strict=True):
        assert str(number) in text and "Zeeuwse Taipan Cup" in text and "Round 1" in text
        assert "DRAFT" not in text
    if tent:  # both halves carry the card
        assert pages[0].count("Zeeuwse Taipan Cup") == 2


def test_table_card_number_is_big():
    """The number is readable across a hall: its font is at least 300 pt on A4 (about 11 cm
    digits) and 200 pt on A5."""
    rnd = cup()
    for size, least in (("A4", 300), ("A5", 200)):
        page = PdfReader(io.BytesIO(hall.table_cards_pdf(rnd, size=size))).pages[0]
        found: list[tuple[str, float]] = []

        def visit(text, cm, tm, font, fs, found=found):
            found.append((text.strip(), fs * tm[0]))

        page.extract_text(visitor_text=visit)
        assert max(fs for text, fs in found if text == "1") >= least


def test_name_list_teams_and_players_point_to_table_and_seat():
    rnd = cup()
    entries = hall.name_entries(rnd)
    got = {(e.name, e.table, e.seat) for e in entries}
    assert ("Alfa", 1, "NS") in got and ("Bravo", 1, "EW") in got and ("Delta", 2, "EW") in got
    assert ("Alfa A", 1, "N") in got and ("Alfa B", 1, "S") in got and ("Bravo A", 1, "E") in got and ("Bravo B", 1, "W") in got
    assert not any(e.name.startswith("Échec") for e in entries)  # the bye sits nowhere
    names = [e.name for e in entries]
    assert names == sorted(names, key=hall.sort_key) and names[0] == "Alfa"
    text = "\n".join(read_pdf(hall.name_list_pdf(rnd)))
    assert "Charlie B" in text and "Zeeuwse Taipan Cup" in text
    assert sizes(hall.name_list_pdf(rnd)) == [pts(A4)]


def test_name_list_accents_sort_with_plain_letters():
    assert sorted(["Zoë", "Émile", "eva", "Anna"], key=hall.sort_key) == ["Anna", "Émile", "eva", "Zoë"]
    assert sorted(["Team 10", "Team 4", "team 4b", "Team"], key=hall.sort_key) == ["Team", "Team 4", "team 4b", "Team 10"]


def test_name_list_long_field_flows_over_columns_and_pages():
    t = TournamentFactory(name="Groot toernooi", slug="groot")
    teams = named_teams(t, [f"Team {i:03d}" for i in range(120)])
    rnd = RoundFactory(tournament=t, number=1)
    for i in range(0, 120, 2):
        MatchFactory(round=rnd, table=i // 2 + 1, team_ns=teams[i], team_ew=teams[i + 1])
    data = hall.name_list_pdf(rnd)
    text = "\n".join(read_pdf(data))
    assert len(hall.name_entries(rnd)) == 360
    assert "Team 000" in text and "Team 119 B" in text
    assert 2 <= len(read_pdf(data)) <= 5  # three columns: 360 names (240 with their team under them) on a few pages


def test_four_player_names_with_seat():
    rnd, _tables = table_round("sichuan", tables=2, names=["Wim", "Anna", "Joop", "Bep"])
    seats = {e.name: (e.table, e.seat) for e in hall.name_entries(rnd)}
    labels = rnd.tournament.adapter.side_labels()
    assert seats["Wim"] == (1, labels[0]) and seats["Bep"] == (1, labels[3])
    assert len(seats) == 8
    text = "\n".join(read_pdf(hall.pairings_pdf(rnd)))
    assert "Anna" in text and labels[1] in text


def test_pairings_per_table():
    rnd = cup()
    data = hall.pairings_pdf(rnd)
    text = "\n".join(read_pdf(data))
    for name in ("Alfa", "Bravo", "Charlie", "Delta", "N: Alfa A", "W: Delta B"):
        assert name in text
    assert "Bye: Échec" in text
    assert sizes(data) == [pts(A4)]


def test_every_pdf_of_a_draft_round_is_watermarked():
    rnd = cup(status=Round.Status.DRAFT)
    match = rnd.matches.get(table=1)
    papers = {"cards": hall.table_cards_pdf(rnd), "tent": hall.table_cards_pdf(rnd, size="A5", tent=True),
              "names": hall.name_list_pdf(rnd), "pairings": hall.pairings_pdf(rnd),
              "pack": sheets.round_pack_pdf(rnd), "sheet": sheets.score_sheet_pdf(match)}
    for name, data in papers.items():
        assert all("DRAFT" in page for page in read_pdf(data)), name


def test_published_round_pack_has_no_watermark():
    rnd = cup()
    assert not any("DRAFT" in page for page in read_pdf(sheets.round_pack_pdf(rnd)))


def test_views_public_once_published_drafts_for_organisers(client):
    rnd = cup(status=Round.Status.DRAFT)
    names = ["round_table_cards_pdf", "round_names_pdf", "round_pairings_pdf", "round_names"]
    for name in names:
        assert client.get(reverse(f"scoring:{name}", args=["ztc", 1])).status_code == 404
    client.force_login(staff(rnd.tournament)["organiser"])
    for name in names:
        r = client.get(reverse(f"scoring:{name}", args=["ztc", 1]))
        assert r.status_code == 200, name
    r = client.get(reverse("scoring:round_table_cards_pdf", args=["ztc", 1]) + "?size=A5&tent=1")
    assert r["Content-Type"] == "application/pdf" and sizes(r.content) == [pts(A5)] * 2
    page = client.get(reverse("scoring:round_pairings", args=["ztc", 1])).content.decode()
    for name in names:
        assert reverse(f"scoring:{name}", args=["ztc", 1]) in page
    client.logout()
    rnd.publish()
    rnd.save()
    assert client.get(reverse("scoring:round_names_pdf", args=["ztc", 1])).status_code == 200


def test_projector_page_is_paged(client):
    t = TournamentFactory(name="Groot toernooi", slug="groot")
    teams = named_teams(t, [f"Team {i:02d}" for i in range(20)])
    rnd = RoundFactory(tournament=t, number=1)
    for i in range(0, 20, 2):
        MatchFactory(round=rnd, table=i // 2 + 1, team_ns=teams[i], team_ew=teams[i + 1])
    r = client.get(reverse("scoring:round_names", args=["groot", 1]) + "?projector=1&rows=20")
    html = r.content.decode()
    assert r.status_code == 200 and 'class="listing names paged"' in html and "projector.js" in html
    assert html.count('class="team off"') + html.count('class=" off"') == 60 - 20  # 3 pages of 20, first shown
    assert "1/3" in html


def test_publishing_gives_the_round_pack_a_new_key():
    """The stored pack of a draft carries the watermark: publishing must not serve it again."""
    rnd = cup(status=Round.Status.DRAFT)
    draft_key = tasks.round_pack_key(rnd)
    rnd.publish()
    rnd.save()
    assert tasks.round_pack_key(rnd) != draft_key
