"""The organiser's round actions in the API (issue 23 item 9; scoring.api.views.rounds): draw
(pair or seat) the next round, draw a draft again, publish, start and close, through the same
services and policy as the round pages: organisers only (a referee 403, anonymous 401, nothing
changed), refusals 409 with the service's message (publish: its problems; close: the open
tables; no pairing: the blocking teams), the OpenAPI schema covering them, ``Idempotency-Key``."""
from __future__ import annotations

import pytest

from scoring.draw import pairing
from scoring.models import Membership, Round
from tests.api.conftest import api_url, client_for, db_state, issue_token
from tests.factories import (
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    closed_round,
    confirm_round,
    named_teams,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    """A Tai Pan tournament ``cup`` with six teams (seeds 1..6, T1 and T5 of one club) and a
    Sichuan tournament ``mj`` with eight players; an organiser and two referees of both."""
    cup = TournamentFactory(slug="cup", seed=7)
    mj = TournamentFactory(slug="mj", game="sichuan")
    users = {name: UserFactory(username=name) for name in ("organiser", "referee", "confirmer", "outsider")}
    for t in (cup, mj):
        MembershipFactory(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
        MembershipFactory(tournament=t, user=users["referee"])
        MembershipFactory(tournament=t, user=users["confirmer"])
    teams = named_teams(cup, [f"T{i}" for i in range(1, 7)])
    for i, team in enumerate(teams, start=1):
        team.seed = i
        team.rating = 2000 - 100 * i
        team.affiliation = "Draak" if i in (1, 5) else ""
        team.save()
    for i in range(8):
        PlayerFactory(tournament=mj, name=f"P{i}")
    clients = {name: client_for(issue_token(user)) for name, user in users.items()}
    clients["anonymous"] = client_for(None)
    return {"cup": cup, "mj": mj, "users": users, "teams": teams, "c": clients}


def pairs_of(data) -> list[tuple]:
    return [tuple(s["name"] for s in t["sides"] if s["name"]) for t in data["tables"]]


ACTIONS = [("round-draw", ()), ("round-draw-again", (1,)), ("round-publish", (1,)), ("round-start", (1,)),
           ("round-close", (1,))]


@pytest.mark.parametrize("name,args", ACTIONS)
@pytest.mark.parametrize("who,code", [("anonymous", 401), ("referee", 403), ("outsider", 403)])
def test_only_organisers_may_act_on_rounds(hall, name, args, who, code):
    hall["c"]["organiser"].post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json")
    before = db_state()
    r = hall["c"][who].post(api_url(name, "cup", *args), {}, format="json")
    assert r.status_code == code, r.json()
    assert r.json()["code"] == {401: "not_authenticated", 403: "permission_denied"}[code]
    assert db_state() == before


def test_a_whole_round_through_the_api(hall):
    c = hall["c"]["organiser"]
    r = c.post(api_url("round-draw", "cup"), {"method": "fold"}, format="json")
    assert r.status_code == 201, r.json()
    data = r.json()
    assert data["number"] == 1 and data["status"] == "draft" and data["warnings"] == []
    assert r["Location"].endswith(api_url("round-detail", "cup", 1))
    # fold by seed number: 1 v 6, 2 v 5, 3 v 4 (no club meets: T1 and T5 are apart anyway)
    assert pairs_of(data) == [("T1", "T6"), ("T2", "T5"), ("T3", "T4")]
    assert data["tables"][0]["note"] == "Round 1: by seed numbers, fold (1 v n)"
    assert c.post(api_url("round-publish", "cup", 1), {}, format="json").json()["status"] == "published"
    assert c.post(api_url("round-start", "cup", 1), format="json").json()["status"] == "in_progress"
    refused = c.post(api_url("round-close", "cup", 1), format="json")
    assert refused.status_code == 409
    assert refused.json() == {"code": "conflict", "errors": [{"field": "", "message": (
        "Round 1 cannot be closed: the result of table(s) 1, 2, 3 is not confirmed yet.")}]}
    refused = c.post(api_url("round-draw", "cup"), {}, format="json")
    assert refused.status_code == 409 and "table(s) 1, 2, 3" in refused.json()["errors"][0]["message"]
    confirm_round(Round.objects.get(tournament=hall["cup"], number=1), hall["users"]["referee"], hall["users"]["confirmer"])
    closed = c.post(api_url("round-close", "cup", 1), format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    # Round 2, Swiss (NS won every match): three tables, no rematch.
    second = c.post(api_url("round-draw", "cup"), format="json")
    assert second.status_code == 201 and second.json()["number"] == 2
    tables = [frozenset(p) for p in pairs_of(second.json())]
    assert len(tables) == 3 and not {frozenset(p) for p in [("T1", "T6"), ("T2", "T5"), ("T3", "T4")]} & set(tables)


def test_round_one_methods_and_draw_again(hall):
    c = hall["c"]["organiser"]
    slide = c.post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json").json()
    # slide: 1 v 4, 2 v 5, 3 v 6
    assert pairs_of(slide) == [("T1", "T4"), ("T2", "T5"), ("T3", "T6")]
    again = c.post(api_url("round-draw-again", "cup", 1), {"method": "rating"}, format="json")
    assert again.status_code == 200
    # by rating: T1 (1900) ... T6 (1400), the same order: slide 1 v 4, 2 v 5, 3 v 6
    assert pairs_of(again.json()) == [("T1", "T4"), ("T2", "T5"), ("T3", "T6")]
    assert again.json()["tables"][0]["note"] == "Round 1: by rating (1 v n/2+1)"
    a = c.post(api_url("round-draw-again", "cup", 1), {"method": "random", "seed": 11}, format="json").json()
    b = c.post(api_url("round-draw-again", "cup", 1), {"method": "random", "seed": 11}, format="json").json()
    assert pairs_of(a) == pairs_of(b)  # the same seed gives the same draw
    assert Round.objects.filter(tournament=hall["cup"]).count() == 1
    bad = c.post(api_url("round-draw-again", "cup", 1), {"method": "swiss"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "method"
    c.post(api_url("round-publish", "cup", 1), format="json")
    refused = c.post(api_url("round-draw-again", "cup", 1), {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["message"] == "Only a draft round can be paired again; round 1 is Published."


def test_club_avoidance_in_round_one(hall):
    c = hall["c"]["organiser"]
    hall["teams"][3].affiliation = "draak"  # T4 now of T1's club (compared without case)
    hall["teams"][3].save()
    data = c.post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json").json()
    # Slide: T1 v T4 (one club), T2 v T5, T3 v T6. Swapping with the nearest table (T2 v T5)
    # leaves a clash either way (T1 v T5, or T4 v T5); with table 3: T1 v T6 and T3 v T4, none.
    assert pairs_of(data) == [("T1", "T6"), ("T2", "T5"), ("T3", "T4")]
    swapped = "Opponents swapped with another table of the same score groups, so that two teams of one club do not meet."
    assert [t["note"] for t in data["tables"]] == [f"Round 1: by seed numbers · {swapped}", "Round 1: by seed numbers",
                                                   f"Round 1: by seed numbers · {swapped}"]
    hall["cup"].avoid_same_club = False
    hall["cup"].save()
    plain = c.post(api_url("round-draw-again", "cup", 1), {"method": "seeded"}, format="json").json()
    assert pairs_of(plain)[0] == ("T1", "T4")


def test_publish_refusal_lists_the_problems(hall):
    c = hall["c"]["organiser"]
    t1, t2, t3, t4, t5, t6 = hall["teams"]
    u = hall["users"]
    closed_round(hall["cup"], [(t1, t2), (t3, t4), (t5, t6)], referee=u["referee"], confirmer=u["confirmer"],
                 organiser=u["organiser"])
    assert c.post(api_url("round-draw", "cup"), format="json").status_code == 201
    rnd = Round.objects.get(tournament=hall["cup"], number=2)
    pairing.set_draft_pairing(rnd, [(t1.pk, t2.pk), (t3.pk, t5.pk), (t4.pk, t6.pk)], u["organiser"])
    refused = c.post(api_url("round-publish", "cup", 2), {}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "publish_refused" and body["needs_confirmation"] is True
    assert body["problems"] == ["Rematch: T1 - T2 have already played each other."]
    ok = c.post(api_url("round-publish", "cup", 2), {"accept_warnings": True}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "published"
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED


def test_a_missing_team_is_refused_without_confirmation(hall):
    c = hall["c"]["organiser"]
    t1, t2, t3, t4, t5, t6 = hall["teams"]
    c.post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json")
    rnd = Round.objects.get(tournament=hall["cup"], number=1)
    pairing.set_draft_pairing(rnd, [(t1.pk, t2.pk), (t3.pk, t4.pk)], hall["users"]["organiser"])
    body = c.post(api_url("round-publish", "cup", 1), {"accept_warnings": True}, format="json").json()
    assert body["code"] == "publish_refused" and body["needs_confirmation"] is False
    assert body["problems"] == ["Missing: T5 is not paired.", "Missing: T6 is not paired."]


def test_no_pairing_names_the_blocking_teams(hall):
    cup = hall["cup"]
    t1, t2, *rest = hall["teams"]
    for team in rest:
        team.withdrawn_after_round = 0
        team.save()
    u = hall["users"]
    closed_round(cup, [(t1, t2)], referee=u["referee"], confirmer=u["confirmer"], organiser=u["organiser"])
    r = hall["c"]["organiser"].post(api_url("round-draw", "cup"), format="json")
    assert r.status_code == 409
    assert r.json()["code"] == "no_pairing" and r.json()["blocking"] == ["T1", "T2"]
    assert Round.objects.filter(tournament=cup).count() == 1


def test_four_player_rounds_are_seated(hall):
    c = hall["c"]["organiser"]
    r = c.post(api_url("round-draw", "mj"), {"seed": 3}, format="json")
    assert r.status_code == 201
    data = r.json()
    assert len(data["tables"]) == 2 and all(len(t["sides"]) == 4 for t in data["tables"])
    again = c.post(api_url("round-draw-again", "mj", 1), {"seed": 4}, format="json")
    assert again.status_code == 200 and Round.objects.get(tournament=hall["mj"], number=1).seed == 4
    assert c.post(api_url("round-publish", "mj", 1), format="json").json()["status"] == "published"
    refused = c.post(api_url("round-draw-again", "mj", 1), {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["message"] == "Only a draft round can be drawn again; round 1 is Published."


def test_a_draw_sent_twice_with_one_key_is_stored_once(hall):
    c = hall["c"]["organiser"]
    first = c.post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = c.post(api_url("round-draw", "cup"), {"method": "seeded"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Round.objects.filter(tournament=hall["cup"]).count() == 1


def test_the_round_actions_are_in_the_schema(hall):
    from rest_framework.test import APIClient

    spec = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path in ("rounds/draw", "rounds/{number}/draw", "rounds/{number}/publish", "rounds/{number}/start",
                 "rounds/{number}/close"):
        op = spec["paths"][f"/api/v1/tournaments/{{slug}}/{path}"]["post"]
        assert {"tokenAuth": []} in op["security"] and "409" in op["responses"] and "403" in op["responses"]
