"""Check-in, no-show, withdraw and return through the API (issue 23 items 3 and 9): the same
services and refusals as the pages (tests/participants/test_checkins.py)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.draw import pairing, rounds, seating
from scoring.models import AuditEntry, CheckIn, Match, Membership, Withdrawal
from scoring.participants import checkins, links
from tests.api.conftest import api_url, client_for, db_state, issue_token
from tests.factories import MembershipFactory, PlayerFactory, TeamFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    t = TournamentFactory(slug="hall", checkin_required=True, seed=1)
    teams = [TeamFactory(tournament=t, name=f"Team {i}") for i in range(6)]
    org = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    ref = MembershipFactory(tournament=t).user
    return t, teams, org, client_for(issue_token(org)), client_for(issue_token(ref))


def link_client(entrant) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Link {links.token_of(links.link_for(entrant))}")
    return c


def test_list_tick_untick(hall):
    t, teams, org, c, _ref = hall
    r = c.put(api_url("checkin-detail", "hall", teams[0].pk), {}, format="json")
    assert r.status_code == 200, r.content
    assert r.json() == {"round": 1, "entrant": teams[0].pk, "checked_in": True, "drawn": False}
    c.put(api_url("checkin-detail", "hall", teams[1].pk), {"round": 1}, format="json")
    assert c.delete(api_url("checkin-detail", "hall", teams[1].pk)).json()["checked_in"] is False
    body = c.get(api_url("checkin-list", "hall")).json()
    assert (body["round"], body["checked_in"], body["expected"], body["drawn"]) == (1, 1, 6, False)
    row = next(e for e in body["entrants"] if e["id"] == teams[0].pk)
    assert row["checked_in"] is True and row["changed_by"] == org.username and row["absence"] == ""
    assert len(c.get(api_url("checkin-list", "hall"), {"q": "team 5"}).json()["entrants"]) == 1


@pytest.mark.parametrize("who,status", [("anonymous", 401), ("referee", 403)])
def test_only_organisers_tick(hall, who, status):
    t, teams, _org, _c, ref = hall
    c = APIClient() if who == "anonymous" else ref
    before = db_state()
    assert c.get(api_url("checkin-list", "hall")).status_code == (403 if who == "referee" else 401)
    assert c.put(api_url("checkin-detail", "hall", teams[0].pk), {}, format="json").status_code == status
    assert c.post(api_url("entrant-withdraw", "hall", teams[0].pk), {"after_round": 0}, format="json").status_code == status
    assert db_state() == before


def test_link_checks_itself_in_and_is_refused_after_the_draw(hall):
    t, teams, org, c, _ref = hall
    phone = link_client(teams[0])
    r = phone.post(api_url("checkin-mine", "hall"), {"round": 1}, format="json")
    assert r.status_code == 200 and r.json()["checked_in"] is True
    assert CheckIn.objects.get(team=teams[0]).via_entrant == "Team 0"
    assert phone.put(api_url("checkin-detail", "hall", teams[1].pk), {}, format="json").status_code == 403
    assert phone.get(api_url("checkin-list", "hall")).status_code == 403
    for team in teams[1:4]:
        c.put(api_url("checkin-detail", "hall", team.pk), {}, format="json")
    rnd = pairing.pair_next_round(t, org)
    assert {x for m in rnd.matches.all() for x in (m.team_ns_id, m.team_ew_id)} == {x.pk for x in teams[:4]}
    r = link_client(teams[5]).post(api_url("checkin-mine", "hall"), {"round": 1}, format="json")
    assert r.status_code == 409
    assert r.json()["errors"][0]["message"] == "Round 1 is already drawn: ask the organiser."


def test_check_in_off_is_a_conflict(hall):
    t, teams, _org, c, _ref = hall
    t.checkin_required = False
    t.save()
    assert c.put(api_url("checkin-detail", "hall", teams[0].pk), {}, format="json").status_code == 409
    assert c.get(api_url("tournament-detail", "hall")).json()["checkin_required"] is False


def test_no_show_gives_a_bye(hall):
    t, teams, org, c, _ref = hall
    for team in teams[:4]:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.order_by("table").first()
    url = api_url("no-show", "hall", 1)
    assert c.post(url, {"result": match.pk, "absent": match.team_ns_id}, format="json").status_code == 400
    r = c.post(url, {"result": match.pk, "absent": match.team_ns_id, "reason": "gone", "rule": "bye"}, format="json")
    assert r.status_code == 200 and r.json() == {"result": match.pk, "rule": "bye", "status": "finished"}
    m = Match.objects.get(pk=match.pk)
    assert m.is_bye and m.team_ns_id == match.team_ew_id
    assert AuditEntry.objects.get(match=m, object_type="no_show").reason == "gone"
    assert c.post(url, {"result": match.pk, "absent": m.team_ns_id, "reason": "x"}, format="json").status_code == 409


def test_no_show_at_a_table_takes_a_substitute():
    t = TournamentFactory(slug="sc-hall", game="sichuan")
    players = [PlayerFactory(tournament=t) for _ in range(4)]
    org = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    rnd = seating.seat_round(t, org).round
    sub = PlayerFactory(tournament=t, is_substitute=True, joined_round=2)
    table = rnd.tables.get()
    r = client_for(issue_token(org)).post(api_url("no-show", "sc-hall", 1), {
        "result": table.pk, "absent": players[0].pk, "substitute": sub.pk, "reason": "ill"}, format="json")
    assert r.status_code == 200 and r.json()["rule"] == "substitute"
    assert sub.pk in set(table.seats.values_list("player_id", flat=True))


def test_withdraw_and_return(hall):
    t, teams, org, c, _ref = hall
    r = c.post(api_url("entrant-withdraw", "hall", teams[2].pk), {"after_round": 0, "reason": "late train"}, format="json")
    assert r.status_code == 201 and r.json() == {"entrant": teams[2].pk, "after_round": 0, "returns_round": None,
                                                 "reason": "late train", "return_reason": ""}
    assert c.post(api_url("entrant-withdraw", "hall", teams[2].pk), {"after_round": 0}, format="json").status_code == 409
    r = c.post(api_url("entrant-return", "hall", teams[2].pk), {"reason": "arrived"}, format="json")
    assert r.status_code == 200 and r.json()["returns_round"] == 1
    assert Withdrawal.objects.get(team=teams[2]).returned_by == org


def test_no_show_forfeit_by_default(hall):
    t, teams, org, c, _ref = hall
    for team in teams[:2]:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.get()
    r = c.post(api_url("no-show", "hall", 1), {"result": match.pk, "absent": match.team_ew_id, "reason": "gone"}, format="json")
    assert r.status_code == 200 and r.json() == {"result": match.pk, "rule": "forfeit", "status": "finished"}
    m = Match.objects.get(pk=match.pk)
    assert (m.total_ns, m.total_ew, m.points_ns, m.points_ew) == (800, 0, 2, 0)  # NSKT target 800, a win's 2
    assert c.get(api_url("tournament-detail", "hall")).json()["forfeit_score"] is None


def test_link_check_in_mid_round_is_a_conflict(hall):
    """fixes B3: the API asks the same rule as the link page: no link check-in while a round is
    drawn and not closed."""
    t, teams, org, c, _ref = hall
    for team in teams[:4]:
        c.put(api_url("checkin-detail", "hall", team.pk), {}, format="json")
    pairing.pair_next_round(t, org)
    r = link_client(teams[5]).post(api_url("checkin-mine", "hall"), {}, format="json")
    assert r.status_code == 409
    assert r.json()["errors"][0]["message"] == "Check-in for round 2 opens when round 1 is closed."
    assert not CheckIn.objects.filter(team=teams[5]).exists()
