"""Dutch is the default language, English the second (every user-visible string translatable)."""
import pytest
from django.urls import reverse
from django.utils import translation

from engines.errors import Violation
from scoring.games.entry import violation_message

pytestmark = pytest.mark.django_db


def test_pages_are_dutch_by_default(client):
    page = client.get(reverse("scoring:tournament_list")).content.decode()
    assert 'lang="nl"' in page
    assert "Toernooien" in page


def test_pages_switch_to_english(client):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("scoring:tournament_list")).content.decode()
    assert 'lang="en"' in page and "Tournaments" in page


def test_engine_messages_are_translated():
    """Engine violations carry an English template that the catalogue turns into Dutch."""
    v = Violation("card_points.NS", "Card points must be a multiple of 5, not {value}.", {"value": 72})
    with translation.override("nl"):
        assert violation_message(v) == "Kaartpunten moeten een veelvoud van 5 zijn, niet 72."
    with translation.override("en"):
        assert violation_message(v) == "Card points must be a multiple of 5, not 72."


def test_catalogue_is_complete():
    """Every message of the Dutch catalogue has a translation (none empty or fuzzy)."""
    from pathlib import Path

    import polib

    po = polib.pofile(str(Path(__file__).resolve().parents[2] / "locale/nl/LC_MESSAGES/django.po"))
    assert po.percent_translated() == 100
    assert not po.fuzzy_entries()


def test_pairing_reason_is_translated_when_shown():
    """The pairing service stores the untranslated reason; each reader sees their own language."""
    from scoring.models import Match

    m = Match(pairing_note="x", pairing_reason={"template": "Same score group ({points} match points)", "params": {"points": 4}})
    with translation.override("en"):
        assert m.pairing_reason_text() == "Same score group (4 match points)"
    with translation.override("nl"):
        text = m.pairing_reason_text()
    assert "4" in text and text != "Same score group (4 match points)"


def test_an_english_browser_still_gets_dutch_until_it_switches(client):
    """Dutch is the championship's language: a browser asking for English (a projector, a phone)
    sees Dutch until the visitor picks English with the switch."""
    page = client.get(reverse("scoring:tournament_list"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert 'lang="nl"' in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(reverse("scoring:tournament_list"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'lang="en"' in page
