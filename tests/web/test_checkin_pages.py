"""The check-in pages (issue 23 item 3): the organiser's searchable list with its count, ticking
through htmx, the entrant's one tap on its private-link page, the absent list before the draw,
the no-show page, and withdraw / return of a team through the same service."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.draw import pairing, rounds
from scoring.models import CheckIn, Match, Round, Team, Withdrawal
from scoring.participants import checkins, links
from tests.factories import TeamFactory, TournamentFactory, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(client):
    t = TournamentFactory(checkin_required=True, seed=5)
    teams = [TeamFactory(tournament=t, name=f"Team {i:02d}") for i in range(40)]
    org = staff(t)["organiser"]
    client.force_login(org)
    return t, teams, org


def en(client):
    client.cookies["django_language"] = "en"


def test_list_counts_and_searches(client, hall, django_assert_max_num_queries):
    t, teams, org = hall
    for team in teams[:38]:
        checkins.set_checkin(t, org, team.pk)
    en(client)
    with django_assert_max_num_queries(14):
        page = client.get(reverse("scoring:checkin", args=[t.slug]))
    html = page.content.decode()
    assert page.status_code == 200 and "38 of 40 checked in" in html and html.count('class="tick"') == 40
    part = client.get(reverse("scoring:checkin", args=[t.slug]), {"q": "team 39"}, HTTP_HX_REQUEST="true")
    body = part.content.decode()
    assert part.status_code == 200 and "<html" not in body and body.count('class="tick"') == 1 and "38 of 40 checked in" in body


def test_tick_and_untick_through_htmx(client, hall):
    t, teams, _org = hall
    en(client)
    url = reverse("scoring:checkin_toggle", args=[t.slug, teams[3].pk])
    r = client.post(url, {"present": "1", "round": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "1 of 40 checked in" in r.content.decode()
    assert CheckIn.objects.get(team=teams[3]).present
    r = client.post(url, {"present": "0", "round": "1"}, HTTP_HX_REQUEST="true")
    assert "0 of 40 checked in" in r.content.decode() and not CheckIn.objects.get(team=teams[3]).present


def test_referee_cannot_tick(client, hall):
    t, teams, _org = hall
    client.force_login(staff(t)["referee"])
    r = client.post(reverse("scoring:checkin_toggle", args=[t.slug, teams[0].pk]), {"present": "1"})
    assert r.status_code == 403 and not CheckIn.objects.exists()


def _hold_link(client, team):
    """Open the team's private link on this client, as its phone does."""
    link = links.link_for(team)
    assert client.post(reverse("scoring:open_link"), {"code": links.token_of(link)}).status_code == 302


def test_entrant_checks_in_with_one_tap(client, hall):
    t, teams, _org = hall
    client.logout()
    en(client)
    _hold_link(client, teams[0])
    home = client.get(reverse("scoring:entrant_home", args=[t.slug])).content.decode()
    assert 'id="checkin-button"' in home and "Check-in for round 1" in home
    r = client.post(reverse("scoring:entrant_checkin", args=[t.slug]), {"round": "1", "present": "1"}, follow=True)
    assert "You are checked in for round 1." in r.content.decode() and 'id="checked-in"' in r.content.decode()
    assert CheckIn.objects.get(team=teams[0]).via_entrant == "Team 00"


def test_entrant_tap_after_the_draw_is_refused(client, hall):
    t, teams, org = hall
    for team in teams[1:]:
        checkins.set_checkin(t, org, team.pk)
    pairing.pair_next_round(t, org)
    client.logout()
    en(client)
    _hold_link(client, teams[0])
    r = client.post(reverse("scoring:entrant_checkin", args=[t.slug]), {"round": "1", "present": "1"}, follow=True)
    assert "Round 1 is already drawn: ask the organiser." in r.content.decode()
    assert not CheckIn.objects.filter(team=teams[0]).exists()


def test_pair_page_lists_who_is_absent(client, hall):
    t, teams, org = hall
    for team in teams[:38]:
        checkins.set_checkin(t, org, team.pk)
    en(client)
    html = client.get(reverse("scoring:round_pair", args=[t.slug])).content.decode()
    assert "2 absent: not drawn" in html and "Team 38" in html and "Team 39" in html and "not checked in" in html


def test_no_show_page_makes_a_bye(client, hall):
    t, teams, org = hall
    for team in teams[:4]:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.order_by("table").first()
    url = reverse("scoring:no_show", args=[t.slug, 1])
    assert client.get(url).status_code == 200
    r = client.post(url, {"result": match.pk, "absent": match.team_ew_id, "reason": "not here", "rule": "bye"})
    assert r.status_code == 302
    match = Match.objects.get(pk=match.pk)
    assert match.is_bye and match.status == Match.Status.FINISHED


def test_team_withdraw_and_return_through_the_service(client, hall):
    t, teams, org = hall
    url = reverse("scoring:team_edit", args=[t.slug, teams[0].pk])
    client.post(url, {"action": "withdraw", "reason": "train late"})
    w = Withdrawal.objects.get(team=teams[0])
    assert (w.after_round, w.reason, w.withdrawn_by) == (0, "train late", org)
    client.post(url, {"action": "return", "reason": "arrived"})
    w.refresh_from_db()
    assert w.returns_round == 1 and w.return_reason == "arrived"
    assert Team.objects.get(pk=teams[0].pk).withdrawn_after_round is None
    assert Round.objects.count() == 0


def test_draft_round_list_and_the_pair_again_link(client, hall):
    t, teams, org = hall
    for team in teams[:4]:
        checkins.set_checkin(t, org, team.pk)
    pairing.pair_next_round(t, org)
    en(client)
    pair = client.get(reverse("scoring:round_pair", args=[t.slug])).content.decode()
    assert "/checkin/?round=1" in pair
    html = client.get(reverse("scoring:checkin", args=[t.slug]), {"round": 1}).content.decode()
    assert "4 of 40 checked in" in html and "Round 1 is a draft: pair (seat) it again to use a change." in html
    r = client.post(reverse("scoring:checkin_toggle", args=[t.slug, teams[0].pk]), {"present": "0", "round": "1"},
                    HTTP_HX_REQUEST="true")
    assert "3 of 40 checked in" in r.content.decode()


def test_the_team_page_shows_its_withdrawals_and_returns(client, hall):
    t, teams, org = hall
    checkins.withdraw(t, org, teams[1].pk, after_round=0, reason="flat tyre")
    checkins.reinstate(t, org, teams[1].pk, from_round=2, reason="fixed")
    en(client)
    html = client.get(reverse("scoring:team_edit", args=[t.slug, teams[1].pk])).content.decode()
    assert "Withdrawn after round 0 by" in html and "flat tyre" in html and "Back from round 2 by" in html and "fixed" in html


def test_the_list_links_to_the_no_show_page_of_the_latest_round(client, hall):
    t, teams, org = hall
    en(client)
    assert 'id="no-show-link"' not in client.get(reverse("scoring:checkin", args=[t.slug])).content.decode()
    for team in teams[:2]:
        checkins.set_checkin(t, org, team.pk)
    pairing.pair_next_round(t, org)
    html = client.get(reverse("scoring:checkin", args=[t.slug])).content.decode()
    assert reverse("scoring:no_show", args=[t.slug, 1]) in html and "Check-in for round 2" in html


def test_the_team_form_field_withdraws_through_the_service(client, hall):
    t, teams, org = hall
    team = teams[4]
    data = {"name": team.name, "affiliation": "", "first_player_name": team.first_player.name,
            "second_player_name": team.second_player.name, "seed": "", "joined_round": 1, "withdrawn_after_round": 0}
    url = reverse("scoring:team_edit", args=[t.slug, team.pk])
    assert client.post(url, data).status_code == 302
    assert Team.objects.get(pk=team.pk).withdrawn_after_round == 0
    w = Withdrawal.objects.get(team=team)
    assert w.withdrawn_by == org and w.returns_round is None
    assert client.post(url, {**data, "withdrawn_after_round": ""}).status_code == 302
    w.refresh_from_db()
    assert Team.objects.get(pk=team.pk).withdrawn_after_round is None and w.returns_round == 1


def test_link_page_offers_check_in_only_between_rounds(client, hall):
    """fixes B3: once round 1 is drawn the link page shows no check-in card (only a small note);
    when every round is closed it offers check-in for round 2."""
    t, teams, org = hall
    for team in teams[1:]:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    client.logout()
    en(client)
    _hold_link(client, teams[0])
    home = client.get(reverse("scoring:entrant_home", args=[t.slug])).content.decode()
    assert 'id="checkin-button"' not in home and 'id="checkin-title"' not in home
    assert "Check-in for round 2 opens when round 1 is closed." in home
    r = client.post(reverse("scoring:entrant_checkin", args=[t.slug]), {"present": "1"}, follow=True)
    assert "Check-in for round 2 opens when round 1 is closed." in r.content.decode()
    assert not CheckIn.objects.filter(team=teams[0]).exists()
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    home = client.get(reverse("scoring:entrant_home", args=[t.slug])).content.decode()
    assert 'id="checkin-button"' in home and "Check-in for round 2" in home
