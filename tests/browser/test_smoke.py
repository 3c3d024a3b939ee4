"""The browser can open the site on a phone: the tournament list renders and fits 360 px."""
import pytest

from tests.browser.conftest import PHONE, horizontal_overflow
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_tournament_list_opens_on_a_phone(new_page):
    TournamentFactory(name="NSKT 2026")
    page = new_page(PHONE)
    page.goto(page.base + "/")
    assert "NSKT 2026" in page.inner_text("main")
    assert horizontal_overflow(page) == 0
