"""Check-in in the hall on phones (issue 23 item 3): the organiser ticks teams off on the
searchable list (search as you type, one big tap per team, "n of m checked in"), a team checks
in with one tap on its private link, the pair page names who is absent, and the draw pairs only
those checked in. Every page fits a 360 px phone without sideways scrolling."""
import pytest

from scoring.models import Membership, Round
from scoring.participants import links
from tests.browser.conftest import LAPTOP, PHONE, horizontal_overflow, shot
from tests.factories import MembershipFactory, TeamFactory, TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)


def english(page):
    """The page in English: the site shows Dutch whatever the browser asks for, until the language
    switch sets Django's language cookie (the words asserted here are the English msgids)."""
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": page.base}])
    return page


def test_check_in_on_phones_then_draw(new_page):
    t = TournamentFactory(slug="hall", name="NSKT 2026", checkin_required=True, seed=3)
    teams = [TeamFactory(tournament=t, name=name) for name in
             ["Draken", "Feniksen", "Honden", "Mussen", "Zwaluwen", "Uilen", "Kraaien", "Reigers", "Spechten", "Valken",
              "Ganzen", "Eenden"]]
    org = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER, user__username="org").user

    # The Draken scan their card and tap once.
    phone = english(new_page(PHONE, locale="en-GB"))
    phone.goto(f"{phone.base}/p/#{links.token_of(links.link_for(teams[0]))}")
    phone.wait_for_url("**/t/hall/mine/")
    assert "Check-in for round 1" in phone.inner_text("#checkin")
    shot(phone, "checkin-link-phone-before")
    phone.click("#checkin-button")
    phone.wait_for_selector("#checked-in")
    assert horizontal_overflow(phone) == 0
    shot(phone, "checkin-link-phone")

    # The organiser ticks nine more on the list, searching each by part of its name.
    desk = english(new_page(PHONE, user=org, locale="en-GB"))
    desk.goto(f"{desk.base}/t/hall/checkin/")
    assert "1 of 12 checked in" in desk.inner_text("#checkin-count")
    for n, team in enumerate(teams[1:10], start=2):
        desk.fill("#checkin-q", team.name[:4].lower())
        desk.wait_for_function("n => document.querySelectorAll('#checkin-rows button.tick').length === n", arg=1)
        desk.click(f"#checkin-{team.pk} button.tick")
        desk.wait_for_function("n => document.querySelector('#checkin-count').innerText.startsWith(n + ' of 12')", arg=n)
    desk.fill("#checkin-q", "")
    desk.wait_for_function("() => document.querySelectorAll('#checkin-rows button.tick').length === 12")
    assert "10 of 12 checked in" in desk.inner_text("#checkin-count")
    assert horizontal_overflow(desk) == 0
    box = desk.locator(f"#checkin-{teams[11].pk} button.tick").bounding_box()
    assert box["height"] >= 48  # a big tap target
    shot(desk, "checkin-list-phone")
    wide = english(new_page(LAPTOP, user=org, locale="en-GB"))
    wide.goto(f"{wide.base}/t/hall/checkin/")
    shot(wide, "checkin-list-laptop")

    # Before drawing the organiser sees who is absent; the draw pairs the ten.
    desk.goto(f"{desk.base}/t/hall/round/pair/")
    absent = desk.inner_text("#absent")
    assert "2 absent" in absent and "Ganzen" in absent and "Eenden" in absent
    shot(desk, "checkin-pair-phone")
    desk.click("label[for=id_method_0]")
    desk.locator("form button[type=submit]").last.click()
    desk.wait_for_url("**/t/hall/round/1/**")
    rnd = Round.objects.get(tournament=t, number=1)
    paired = {x for m in rnd.matches.all() for x in (m.team_ns_id, m.team_ew_id)}
    assert paired == {team.pk for team in teams[:10]}

    # A team does not show up: the organiser records a forfeit on the no-show page (phone).
    from scoring.draw import rounds
    from scoring.models import Match
    rounds.publish_round(rnd, org)
    match = rnd.matches.exclude(team_ew=None).order_by("table").first()
    desk.goto(f"{desk.base}/t/hall/round/1/no-show/")
    assert horizontal_overflow(desk) == 0
    shot(desk, "checkin-noshow-phone")
    item = desk.locator(f"#result-{match.pk}")
    item.locator("summary").click()
    item.locator(f"input[name=absent][value='{match.team_ew_id}']").check()
    item.locator("input[name=reason]").fill("not at the table at 10:15")
    item.locator("button[type=submit]").click()
    desk.wait_for_load_state()
    match = Match.objects.get(pk=match.pk)
    assert (match.forfeit, match.total_ns, match.total_ew, match.points_ns) == ("EW", 800, 0, 2)
