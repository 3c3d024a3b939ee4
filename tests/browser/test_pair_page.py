"""The organiser's pair page (issue 23 item 8): round 1 offers the five documented methods with the
tournament's default chosen, fits a phone, and pairing by fold keeps two teams of one club apart
(the note on the round page says so)."""
from __future__ import annotations

import pytest

from scoring.models import Membership, Round
from tests.browser.conftest import LAPTOP, PHONE, horizontal_overflow, shot
from tests.factories import MembershipFactory, TournamentFactory, UserFactory, named_teams

pytestmark = pytest.mark.django_db(transaction=True)


def test_round_one_by_fold_with_club_avoidance(new_page):
    t = TournamentFactory(name="NSKT 2026", slug="nskt", first_round_method="fold")
    organiser = UserFactory(username="org")
    organiser.set_password("pw-Secret-123")
    organiser.save()
    MembershipFactory(tournament=t, user=organiser, role=Membership.Role.ORGANISER)
    teams = named_teams(t, ["Draken", "Jade", "Kraanvogels", "Lotus", "Feniks", "Tijgers"])
    for seed, team in enumerate(teams, start=1):
        team.seed = seed
        team.affiliation = "Asopos" if team.name in ("Draken", "Tijgers") else ""
        team.save()
    for viewport, name in ((PHONE, "phone"), (LAPTOP, "laptop")):
        page = new_page(viewport, user=organiser, locale="en-GB")
        page.goto(page.base + "/t/nskt/round/pair/?lang=en")
        radios = page.locator("#fs-method input[type=radio]")
        assert radios.count() == 5
        assert page.locator("#fs-method input[value=fold]").is_checked()
        assert horizontal_overflow(page) == 0
        shot(page, f"pair-page-{name}")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    rnd = Round.objects.get(tournament=t, number=1)
    pairs = [(m.team_ns.name, m.team_ew.name) for m in rnd.matches.select_related("team_ns", "team_ew").order_by("table")]
    # fold: 1 v 6 would put Draken against Tijgers (one club); the nearest table swaps: 1 v 5, 2 v 6
    assert pairs == [("Draken", "Feniks"), ("Jade", "Tijgers"), ("Kraanvogels", "Lotus")]
    assert "Opponents swapped" in page.inner_text("main") or "geruild" in page.inner_text("main")
    shot(page, "pair-page-round-1-fold-laptop")
