"""Printed private links (issue 15): the organiser's cards (one per entrant: name, QR code and the
code to type) and a round's score sheets with each side's QR code in its block. The public score
sheets and round packs never carry a link. PDFs are read back with pypdf; a QR code's content is
checked by the code printed next to it on the cards and by the link blocks on the sheets."""
from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.printing import cards, sheets
from tests.factories import TeamFactory, TournamentFactory

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


def test_round_sheets_with_links_have_a_qr_block_per_side_the_public_ones_none(world):
    with_links, pages = text_of(sheets.round_pack_pdf(world.match.round, base_url="https://nskt.example.org/", links=True))
    assert pages == 2  # one sheet per table, still one page each
    assert with_links.count("Private link of NS") == 2 and with_links.count("Private link of EW") == 2
    assert "NS · Alpha" in with_links and "EW · Bravo" in with_links
    public, _ = text_of(sheets.round_pack_pdf(world.match.round, base_url="https://nskt.example.org/"))
    assert "Private link" not in public
    one, _ = text_of(sheets.score_sheet_pdf(world.table, base_url="https://nskt.example.org/", links=True))
    for label, name in (("East", "Ann"), ("South", "Ben"), ("West", "Cas"), ("North", "Dee")):
        assert f"{label} · {name}" in one
    assert one.count("Private link of") == 4


def test_a_bye_has_no_link_block_for_its_empty_side(db):
    from scoring.models import Round
    from tests.factories import MatchFactory, RoundFactory

    t = TournamentFactory(player_entry=True)
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    bye = MatchFactory(round=rnd, table=1, team_ns=TeamFactory(tournament=t, name="Lonely"), team_ew=None)
    text, _ = text_of(sheets.score_sheet_pdf(bye, base_url="https://x.example/", links=True))
    assert text.count("Private link of") == 1


def test_the_organiser_downloads_the_cards_and_the_sheets(client, world):
    client.force_login(world.organiser)
    r = client.get(reverse("scoring:link_cards", args=["tp"]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and "no-store" in r["Cache-Control"]
    r = client.get(reverse("scoring:link_sheets", args=["sc", 1]))
    assert r.status_code == 200 and "Private link of" in text_of(r.content)[0]
    # The organiser's draft round too (organisers see drafts); a round that does not exist: 404.
    assert client.get(reverse("scoring:link_sheets", args=["tp", 2])).status_code == 200
    assert client.get(reverse("scoring:link_sheets", args=["tp", 9])).status_code == 404


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
