"""Issue 24 acceptance: nothing Tai Pan-specific appears in a four-player tournament's pages. Every
page of a Sichuan tournament that an organiser, a referee and the public reach (tournament page,
settings form, round pages, projector, result and entry pages, standings, player page, check-in,
progress board, time's up, printed PDFs) is read in Dutch and in English, and none names Tai Pan
things: the game, its calls (Grand Tai Pan), card points, the NS/EW team columns, match or victory
points, the team tie-breaks (Buchholz, Sonneborn-Berger) or double victories. (The shared texts
that say "team or player" are the same for every game and not counted; nor is the settings form's
game select, which names every game.)"""
from __future__ import annotations

import html as html_module
import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.draw import rounds
from scoring.kinds import kind_for
from scoring.models import Membership, Round
from tests.factories import MembershipFactory, RoundFactory, TableFactory, confirm_round, staff, table_round

pytestmark = pytest.mark.django_db

#: Words that belong to Tai Pan only (English and Dutch), as whole words, any case.
TAI_PAN_WORDS = re.compile(
    r"tai[ -]?pan|\bgrand\b|card points|kaartpunten|\bNS\b|\bEW\b|match points|matchpunten|wedstrijdpunten|dubbelspel|"
    r"victory points|overwinningspunten|buchholz|sonneborn|double victor|dubbele overwinning|target score|doelscore|\btarget\b",
    re.IGNORECASE)


def text_of(response) -> str:
    """The visible text of a page (tags, scripts and styles dropped), of a PDF or of a CSV."""
    if not response["Content-Type"].startswith(("text/html", "application/pdf")):
        return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()
    if response["Content-Type"].startswith("application/pdf"):
        body = b"".join(response.streaming_content) if response.streaming else response.content
        return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    # The settings form's game select lists every game by name (Tai Pan among them): a choice, not a setting.
    html = re.sub(r'<select name="game".*?</select>', " ", html, flags=re.S)
    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


def offending(client, urls: list[str]) -> list[str]:
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        text = text_of(response)
        for m in TAI_PAN_WORDS.finditer(text):
            found.append(f"{url}: {m.group(0)!r} in …{text[max(0, m.start() - 50):m.end() + 50].strip()}…")
    return found


@pytest.mark.parametrize("language", ["nl", "en"])
def test_no_tai_pan_words_on_any_page_of_a_four_player_tournament(client, settings, language):
    settings.LANGUAGE_CODE = language
    client.cookies["django_language"] = language
    rnd1, _tables = table_round("sichuan", tables=2, names=["Anna", "Bram", "Cas", "Dirk"])
    t = rnd1.tournament
    people = staff(t, referees=2)
    head = MembershipFactory(tournament=t, role=Membership.Role.HEAD_REFEREE).user
    confirm_round(rnd1, people["referees"][0], people["referees"][1])
    rounds.close_round(rnd1, people["organiser"])
    rnd2 = RoundFactory(tournament=t, number=2, status=Round.Status.PUBLISHED)
    table = TableFactory(round=rnd2, number=1)
    kind = kind_for(t.adapter)
    played = kind.in_round(rnd1)[0]
    player = played.seats.first().player
    slug = t.slug

    def url(name, *args):
        return reverse(f"scoring:{name}", args=[slug, *args])

    public = [url("tournament_detail"), url("round_tables", 1), url("round_tables", 2), url("round_tables", 1) + "?projector=1",
              url("standings"), url("standings") + "?projector=1", url("player_page", player.pk),
              reverse(kind.url_name("detail"), args=[slug, played.pk]), url("find_table") + "?q=Anna", url("round_names", 2),
              url("standings_pdf"), url("round_pairings_pdf", 2), url("round_names_pdf", 2),
              url("standings_export") + "?format=csv", url("pairings_export", 1) + "?format=csv"]
    referee = [reverse(kind.url_name("enter"), args=[slug, table.pk]), reverse(kind.url_name("detail"), args=[slug, table.pk]),
               reverse("scoring:my_tables"), url("find_match"),
               reverse(kind.url_name("detail"), args=[slug, played.pk]) + "sheet.pdf"]
    organiser = [url("tournament_edit"), reverse("scoring:tournament_create") + "?game=sichuan", url("players"),
                 url("checkin"), url("round_board", 2), url("round_times_up", 2), url("round_zones", 2), url("links"),
                 url("members"), url("announcements"), url("tournament_detail"), url("round_tables", 2),
                 url("round_table_cards_pdf", 2), url("link_cards"), url("round_seat"), url("players_import")]
    found = offending(client, public)
    client.force_login(people["referees"][0])
    found += offending(client, referee)
    client.force_login(head)
    found += offending(client, [url("round_board", 2)])
    people["organiser"].is_staff = True  # may create tournaments (the new-tournament form)
    people["organiser"].save(update_fields=["is_staff"])
    client.force_login(people["organiser"])
    found += offending(client, organiser)
    assert found == [], "\n".join(found)
