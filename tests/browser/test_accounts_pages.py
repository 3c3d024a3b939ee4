"""Accounts at the venue in a real browser (issue 22 item 3): the organiser makes a login link on
the members page, a phone opens its address (the token in the fragment, posted by
``static/js/invite.js``) and is logged in on its account page; a second phone with the same
address is refused. Every new page fits a 360 px phone and axe-core finds no serious or critical
violation on it."""
import re

import pytest

from scoring.models import Invitation, Membership
from tests.browser.conftest import LAPTOP, PHONE, horizontal_overflow, shot
from tests.browser.test_referee_pages import serious_violations
from tests.factories import MembershipFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def look(page, name: str) -> None:
    page.wait_for_load_state()
    assert horizontal_overflow(page) == 0, name
    shot(page, name)
    assert serious_violations(page) == [], name


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_login_link_from_the_organisers_screen_to_the_referees_phone(new_page, viewport):
    t = TournamentFactory(name="NSKT Studenten 2026", slug="nskt")
    org = MembershipFactory(tournament=t, user=UserFactory(username="org"), role=Membership.Role.ORGANISER).user
    desk = new_page(viewport, user=org)
    desk.goto(desk.base + "/t/nskt/members/")
    assert desk.input_value("#id_invite-role") == "referee"
    desk.fill("#id_invite-username", "ref-anna")
    desk.locator("form[action$='/members/invite/'] button[type=submit]").click()
    look(desk, f"invitation-{viewport['width']}")
    url = desk.inner_text("#invitation-url")
    assert re.fullmatch(r"http://[^/]+/invite/#[a-z2-9]{24}", url)
    assert desk.locator("#invitation-qr svg").count() == 1

    desk.reload()  # never a new link: the page says it was shown already
    look(desk, f"invitation-shown-{viewport['width']}")
    assert desk.locator("#invitation-shown").count() == 1 and desk.locator("#invitation-url").count() == 0
    assert Invitation.objects.count() == 1

    phone = new_page(PHONE)
    phone.goto(url)
    phone.wait_for_url("**/account/")
    assert "#" not in phone.url
    look(phone, "account-after-link")
    assert phone.locator("a.who").inner_text() == "ref-anna"
    phone.goto(phone.base + "/account/set-password/")
    look(phone, "account-set-password")

    other = new_page(PHONE)
    other.goto(url)
    other.wait_for_selector("#invitation-error")
    look(other, "invitation-used")
    assert other.locator("a.who").count() == 0

    MembershipFactory(tournament=t, user=MembershipFactory(role=Membership.Role.ORGANISER).user)
    desk.goto(desk.base + "/t/nskt/members/")
    look(desk, f"members-{viewport['width']}")
    assert desk.locator(".refusal").count() == 1
    desk.goto(desk.base + "/account/")
    look(desk, f"account-{viewport['width']}")
    desk.goto(desk.base + "/accounts/password_change/")
    look(desk, f"password-change-{viewport['width']}")


def test_login_page_without_mail_and_the_lockout_page(new_page, settings):
    settings.AXES_ENABLED = True
    settings.MAIL_CONFIGURED = False
    UserFactory(username="anna")
    page = new_page(PHONE)
    page.goto(page.base + "/accounts/login/")
    assert page.locator("#ask-organiser").count() == 1 and page.locator("#forgot-password").count() == 0
    look(page, "login-no-mail")
    for _ in range(5):
        page.goto(page.base + "/accounts/login/")
        page.fill("input[name=username]", "anna")
        page.fill("input[name=password]", "wrong")
        page.locator("main form button[type=submit]").click()
        page.wait_for_load_state()
    assert page.locator("#locked-out").count() == 1
    look(page, "login-locked-out")
