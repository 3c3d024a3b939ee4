"""The referee guide (issue 14 item 4): one page in the app and a printable PDF, Dutch first and
English second, linked from "Mijn tafels" and the entry page, readable without logging in, every
text in the Dutch catalogue."""
from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.printing import referee_guide
from tests.factories import one_result

pytestmark = pytest.mark.django_db


def test_the_guide_page_is_dutch_then_english_for_everyone(client):
    response = client.get(reverse("scoring:referee_guide"))
    assert response.status_code == 200
    html = response.content.decode()
    nl, en = html.index('lang="nl" id="guide-nl"'), html.index('lang="en" id="guide-en"')
    assert nl < en
    assert "<h1>Handleiding voor scheidsrechters</h1>" in html and "Referee guide</h2>" in html
    for key in ("sheet", "enter", "errors", "confirm", "time", "hall", "stale"):
        assert f'id="nl-{key}"' in html and f'id="en-{key}"' in html
    # the button names the referee sees, in each language
    assert "„Beëindigen wegens tijdslimiet…”" in html and "“End at the time limit…”" in html
    assert "„Verder spelen”" in html and "„Opnieuw laden”" in html
    # the hall (fixes B6): zones, claiming, calls and time's up with the grace period
    assert "„Scheidsrechter roepen”" in html and "„Beantwoord”" in html and "„Claimen”" in html
    assert "“Call a referee”" in html and "“Answered”" in html and "finish the hand in play" in html
    assert reverse("scoring:referee_guide_pdf") in html
    assert client.post(reverse("scoring:referee_guide")).status_code == 405


def test_the_guide_is_linked_from_my_tables_and_the_entry_page(client):
    match, people = one_result("match")
    client.force_login(people["referee"])
    guide = reverse("scoring:referee_guide")
    assert guide in client.get(reverse("scoring:my_tables")).content.decode()
    page = client.get(reverse("scoring:match_enter", args=[match.round.tournament.slug, match.pk]))
    assert page.status_code == 200 and guide in page.content.decode()


def test_the_pdf_has_the_dutch_page_then_the_english_page(client):
    response = client.get(reverse("scoring:referee_guide_pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    assert len(pages) == 2
    first, second = (" ".join(p.extract_text().split()) for p in pages)
    assert "Handleiding voor scheidsrechters Eén pagina" in first and "De tijdslimiet" in first
    assert "Referee guide One page" in second and "The time limit" in second
    assert "Referee guide" not in first


def test_every_text_of_the_guide_has_its_dutch_translation():
    english, dutch = referee_guide.guide_in("en"), referee_guide.guide_in("nl")
    texts_en = [english["title"], english["intro"]] + [t for s in english["sections"] for t in [s["title"], *s["paragraphs"]]]
    texts_nl = [dutch["title"], dutch["intro"]] + [t for s in dutch["sections"] for t in [s["title"], *s["paragraphs"]]]
    assert len(texts_en) == len(texts_nl) >= 18
    for en, nl in zip(texts_en, texts_nl, strict=True):
        assert en != nl, f"no Dutch translation: {en!r}"
    with translation.override("nl"):
        assert referee_guide.guides()[0]["language"] == "nl"
