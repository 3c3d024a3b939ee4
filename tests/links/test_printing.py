"""Printed private links (issues 15 and 22): the organiser's cards (one per entrant: name, QR code
and the code to type) carry the links; no score sheet does. PDFs are read back with pypdf; every QR
code of a round's papers is decoded in ``test_qr_codes.py``."""
from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.printing import cards, sheets
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def text_of(data: bytes) -> tuple[str, int]:
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    return "\n".join(pages), len(pages)


def test_every_team_gets_a_card_with_its_code(world):
    from scoring.participants import links

    data = cards.entrant_cards_pdf(world.tp, base_url="https://nskt.example.org/")
    text, pages = text_of(data)
    assert pages == 1  # four cards, eight to a page
    for name in ("Alpha", "Bravo", "Charlie", "Delta"):
        assert name in text
        groups = links.grouped(world.token(name)).split("-")
        assert "-".join(groups[:3]) + "\n" + "-".join(groups[3:]) in text
    assert "Alpha A & Alpha B" in text and "nskt.example.org/p/" in text
    assert "Keep it to\nyourself" in text or "Keep it to yourself" in text


def test_four_player_cards_and_many_pages(db):
    t = TournamentFactory(game="sichuan", slug="big")
    from tests.factories import PlayerFactory

    for i in range(17):
        PlayerFactory(tournament=t, name=f"Speler {i:02d}", affiliation="SV Sichuan")
    text, pages = text_of(cards.entrant_cards_pdf(t, base_url="https://x.example/"))
    assert pages == 3 and len(re.findall(r"Speler \d\d", text)) == 17 and "SV Sichuan" in text


def test_cards_of_a_tournament_without_entrants(db):
    text, pages = text_of(cards.entrant_cards_pdf(TournamentFactory(), base_url="https://x.example/"))
    assert pages == 1 and "no entrants yet" in text


def test_no_score_sheet_carries_a_private_link(world):
    """Issue 22: a sheet lies on the table for both sides, so it carries the referee's QR code
    (labelled) and the match code, never a side's private link (Tai Pan teams and four-player
    players alike)."""
    from scoring.draw.match_codes import code_of
    from scoring.participants import links

    pack, pages = text_of(sheets.round_pack_pdf(world.match.round, base_url="https://nskt.example.org/"))
    one, _ = text_of(sheets.score_sheet_pdf(world.table, base_url="https://nskt.example.org/"))
    assert pages == 2  # one sheet per table, one page each
    for text in (pack, one):
        assert "Private link" not in text and "/p/" not in text
        assert text.count("Referee: enter result") == (2 if text is pack else 1)
        for name in world.links:
            token = world.token(name)
            assert token not in text and links.grouped(token)[:9] not in text, name
    assert f"Match code: {code_of(world.match)}" in pack and f"Match code: {code_of(world.match2)}" in pack
    assert f"Match code: {code_of(world.table)}" in one


def test_the_organiser_downloads_the_cards_and_the_sheets_with_links_are_gone(client, world):
    client.force_login(world.organiser)
    r = client.get(reverse("scoring:link_cards", args=["tp"]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and "no-store" in r["Cache-Control"]
    assert client.get("/t/tp/round/1/sheets-with-links.pdf").status_code == 404
    page = client.get(reverse("scoring:links", args=["tp"])).content.decode()
    assert "Which paper carries what" in page and "never lies on a table" in page
    assert "/t/tp/round/" in page and "/pack.pdf" in page  # the current round's sheets


def test_blind_the_confirming_side_downloads_the_empty_sheet_the_entering_side_its_hands(client, world):
    """Blind confirmation: the blind result page of the side that is to confirm links to the score
    sheet; that sheet must not show what the page hides. Alpha entered 800 : 0 (two Grand Tai Pan
    double victories, 400 : 0 each); Bravo's sheet is the empty one, Alpha's shows both hands."""
    from django.test import Client

    from scoring.models import Tournament
    from scoring.results import sheet
    from tests.factories import GRAND_DOUBLE_VICTORY_NS
    from tests.links.conftest import open_link

    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=True)
    m = world.match
    for _ in range(2):
        sheet.add_record(m, GRAND_DOUBLE_VICTORY_NS, world.actor("Alpha"), expected_version=m.version)
    url = reverse("scoring:score_sheet_pdf", args=["tp", m.pk])
    open_link(client, world.token("Bravo"))
    bravo, _ = text_of(client.get(url).content)
    assert "400" not in bravo and "800" not in bravo and "Final total NS" in bravo
    alpha = Client()
    open_link(alpha, world.token("Alpha"))
    mine, _ = text_of(alpha.get(url).content)
    assert "400" in mine and "800" in mine
