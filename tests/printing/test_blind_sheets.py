"""Score sheets and round packs under blind confirmation (docs/results.md): whoever may not see an
unconfirmed result's totals (:func:`scoring.results.sheet.totals_hidden`: the public and the side
that is to confirm) gets the empty sheet to fill in, as printed at publication; members get the
sheet with every entered record. The stored round pack is the public's, so it never carries a
hidden total, whoever downloads it; a confirmation gives a new pack with the result filled in.

Values from the rules: a Grand Tai Pan called by N with a double victory of NS is 400 : 0 (NSKT),
two of them finish the match at 800 : 0. A Sichuan self-drawn
win by East (:data:`~tests.factories.DEALS`) is East +6, the others -2 each."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import tasks
from scoring.models import Tournament
from scoring.policy import SYSTEM
from scoring.printing import sheets
from scoring.results import sheet
from tests.factories import DEALS, GRAND_DOUBLE_VICTORY_NS, play, staff, table_round, taipan_round


def body(response) -> bytes:
    """A response's bytes, streamed (a stored round pack) or not."""
    return b"".join(response.streaming_content) if response.streaming else response.content

pytestmark = pytest.mark.django_db


@pytest.fixture
def blind_match():
    """A blind Tai Pan tournament: round 1 published, table 1 finished 800 : 0, not confirmed."""
    rnd, (m,) = taipan_round(blind_confirmation=True, slug="blind")
    people = staff(rnd.tournament)
    play(m, [GRAND_DOUBLE_VICTORY_NS] * 2, people["referees"][0])
    assert m.status == m.Status.FINISHED
    return m, people


def filled(text: str) -> bool:
    """True when the Tai Pan sheet's records are printed: the hand scores (400) and the running
    total after hand 2 (800). (The legend under the table explains "GT" on every sheet.)"""
    return "400" in text and "800" in text


def test_the_public_sheet_of_an_unconfirmed_blind_result_is_the_empty_one(blind_match, pdf_text):
    m, people = blind_match
    public, pages = pdf_text(sheets.score_sheet_pdf(m, base_url="https://nskt.example.org/"))
    # No score or total (whole numbers: a factory's "Team 1800" is not a total).
    assert pages == 1 and not re.search(r"\b(400|800)\b", public)
    assert "20" in public and "Final total NS" in public  # every row to write in, as at publication
    assert filled(pdf_text(sheets.score_sheet_pdf(m, viewer=people["referees"][1]))[0])
    m.refresh_from_db()
    sheet.confirm(m, people["referees"][1], expected_version=m.version, totals=[800, 0])
    assert filled(pdf_text(sheets.score_sheet_pdf(m))[0])


def test_without_blind_confirmation_the_public_sheet_shows_the_hands(pdf_text):
    rnd, (m,) = taipan_round()
    play(m, [GRAND_DOUBLE_VICTORY_NS] * 2, staff(rnd.tournament)["referee"])
    assert filled(pdf_text(sheets.score_sheet_pdf(m))[0])


def test_the_sheet_view_prints_for_the_visitor(client, blind_match, pdf_text):
    m, people = blind_match
    url = reverse("scoring:score_sheet_pdf", args=["blind", m.pk])
    assert not filled(pdf_text(body(client.get(url)))[0])
    client.force_login(people["referees"][1])
    assert filled(pdf_text(body(client.get(url)))[0])


def test_a_four_player_table_sheet_is_empty_for_the_public_until_confirmed(client, pdf_text):
    rnd, (t,) = table_round("sichuan", blind_confirmation=True, slug="blind-sc")
    people = staff(rnd.tournament)
    play(t, [DEALS["sichuan"][0]], SYSTEM, end_reason="time")
    url = reverse("scoring:table_sheet_pdf", args=["blind-sc", t.pk])
    public, _ = pdf_text(body(client.get(url)))
    assert "-2" not in public and "16" in public and "Final total East" in public
    assert "-2" in pdf_text(sheets.score_sheet_pdf(t, viewer=people["referee"]))[0]
    t.refresh_from_db()
    sheet.confirm(t, people["referee"], expected_version=t.version, totals=[6, -2, -2, -2])
    assert "-2" in pdf_text(body(client.get(url)))[0]


def test_the_stored_round_pack_never_carries_a_hidden_total(client, blind_match, pdf_text):
    """The pack is built once per state for the public and served to everyone, members too; the
    organiser's own sheet of the match is built for the organiser; the confirmation
    changes the pack's key, and the new pack prints the match."""
    m, people = blind_match
    url = reverse("scoring:round_pack_pdf", args=["blind", 1])
    assert not filled(pdf_text(body(client.get(url)))[0])
    client.force_login(people["organiser"])
    assert not filled(pdf_text(body(client.get(url)))[0])  # the stored (public) pack
    assert filled(pdf_text(body(client.get(reverse("scoring:score_sheet_pdf", args=["blind", m.pk]))))[0])
    assert filled(pdf_text(sheets.round_pack_pdf(m.round, viewer=people["organiser"]))[0])
    key = tasks.round_pack_key(m.round)
    m.refresh_from_db()
    sheet.confirm(m, people["referees"][1], expected_version=m.version, totals=[800, 0])
    assert tasks.round_pack_key(m.round) != key
    client.logout()
    assert filled(pdf_text(body(client.get(url)))[0])


def test_the_pack_key_changes_with_the_blind_setting(blind_match):
    """A pack built without blind confirmation (results printed) is never served once it is on."""
    m, _people = blind_match
    with_blind = tasks.round_pack_key(m.round)
    Tournament.objects.filter(pk=m.round.tournament_id).update(blind_confirmation=False)
    m.round.tournament.refresh_from_db()
    assert tasks.round_pack_key(m.round) != with_blind
