"""The organiser's "People to check" page on a phone (issue 26): at 360×740 the page does not
scroll sideways and both decision buttons lie inside the screen. Screenshot:
``<tmp>/persons-review-phone.png`` (looked at by hand, never committed)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.models import Membership
from scoring.participants import persons
from tests.browser.conftest import PHONE
from tests.factories import MembershipFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_review_page_fits_a_phone(new_page):
    here, other = TournamentFactory(name="Voorjaarstoernooi van de Hoofdstad"), TournamentFactory()
    user = UserFactory(username="org")
    MembershipFactory(tournament=here, user=user, role=Membership.Role.ORGANISER)
    TeamFactory(tournament=here, first_player=persons.create_player(here, "Annemarie van der Vliet-Hoogenboom"),
                second_player=persons.create_player(here, "Bram Jansen"))
    persons.create_player(other, "Annemarie Vliet-Hoogenboom", federation_number="NL1001")
    persons.create_player(other, "Bram Janssen")
    page = new_page(PHONE, user=user)
    page.goto(page.base + reverse("scoring:persons_review", args=[here.slug]))
    buttons = page.locator("form.persons-decision button")
    assert buttons.count() == 4
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(Path(tempfile.gettempdir()) / "persons-review-phone.png"), full_page=True)
