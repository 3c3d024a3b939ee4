"""Drawing and running rounds through the organiser's pages: pairing the next round (a draft),
the blocking teams when no pairing exists, editing a draft pairing with warnings, seating a
four-player round, and the round lifecycle buttons (issue 2 item 9, issue 4 items 1, 2 and 5).
Who may use them: ``tests/web/test_permissions.py``."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Match, Round, Table
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    round_of_teams,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_round_actions_refuse_get_and_pairing_asks_first(client, cup):
    """Changed on purpose: GET of ``round_pair`` shows a confirmation page (was 405) whose form
    posts the pairing; nothing is paired by the GET. The round actions still refuse GET."""
    t = cup.tournament
    client.force_login(cup.organiser)
    response = client.get(reverse("scoring:round_pair", args=[t.slug]))
    assert response.status_code == 200
    assert response.context["number"] == 1 and '<form method="post">' in response.content.decode()
    assert not t.rounds.exists()
    round_of_teams(t)
    for name in ("round_publish", "round_start", "round_close"):
        assert client.get(reverse(f"scoring:{name}", args=[t.slug, 1])).status_code == 405, name


def test_pair_next_round_creates_a_draft(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    response = client.post(reverse("scoring:round_pair", args=[t.slug]))
    assert response.status_code == 302
    rnd = t.rounds.get()
    assert rnd.status == Round.Status.DRAFT and rnd.matches.count() == 2
    assert response["Location"] == reverse("scoring:round_pairings", args=[t.slug, 1])


def test_pairing_impossible_names_the_blocking_teams(client):
    """Two teams that already met in round 1: round 2 has no rematch-free pairing."""
    t = TournamentFactory(name="Tiny", slug="tiny")
    a, b = TeamFactory(tournament=t, name="Alpha"), TeamFactory(tournament=t, name="Beta")
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED)
    MatchFactory(round=rnd, table=1, team_ns=a, team_ew=b, status=Match.Status.CONFIRMED,
                 total_ns=800, total_ew=200, points_ns=2, winner=a)
    organiser = MembershipFactory(tournament=t, role="organiser").user
    client.force_login(organiser)
    response = client.post(reverse("scoring:round_pair", args=[t.slug]), follow=True)
    page = response.content.decode()
    assert "Alpha" in page and "Beta" in page
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert t.rounds.count() == 1


def test_pair_refused_while_last_round_open(client, cup):
    t = cup.tournament
    round_of_teams(t, 1, status=Round.Status.IN_PROGRESS)
    client.force_login(cup.organiser)
    response = client.post(reverse("scoring:round_pair", args=[t.slug]), follow=True)
    assert t.rounds.count() == 1
    assert [m.level_tag for m in response.context["messages"]] == ["error"]


def test_edit_draft_pairing_with_rematch_warning(client, cup):
    t = cup.tournament
    teams = list(t.teams.order_by("name"))
    old = round_of_teams(t, 1, status=Round.Status.CLOSED)
    Match.objects.filter(round=old).update(status=Match.Status.CONFIRMED)
    round_of_teams(t, 2)  # same pairs again: Team 0 - Team 1, Team 2 - Team 3
    client.force_login(cup.organiser)
    url = reverse("scoring:round_edit", args=[t.slug, 2])
    page = client.get(url).content.decode()
    assert "Team 0" in page
    data = {"t-TOTAL_FORMS": "3", "t-INITIAL_FORMS": "2", "t-MIN_NUM_FORMS": "0", "t-MAX_NUM_FORMS": "1000",
            "t-0-team_ns": teams[0].pk, "t-0-team_ew": teams[2].pk,
            "t-1-team_ns": teams[1].pk, "t-1-team_ew": teams[3].pk,
            "t-2-team_ns": "", "t-2-team_ew": ""}
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    pairs = set(Round.objects.get(tournament=t, number=2).matches.values_list("team_ns__name", "team_ew__name"))
    assert pairs == {("Team 0", "Team 2"), ("Team 1", "Team 3")}
    # now a rematch of round 1: saved with a warning, shown again on the draft and edit pages
    data.update({"t-0-team_ew": teams[1].pk, "t-1-team_ns": teams[2].pk})
    response = client.post(url, data, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Draft pairing saved with 2 warnings."]
    warnings = ["Rematch: Team 0 - Team 1 have already played each other.",
                "Rematch: Team 2 - Team 3 have already played each other."]
    assert response.context["draft_warnings"] == warnings
    assert "Rematch: Team 0 - Team 1" in response.content.decode()
    assert client.get(url).context["draft_warnings"] == warnings
    assert client.get(reverse("scoring:round_pairings", args=[t.slug, 2])).context["draft_warnings"] == warnings


def test_same_team_twice_in_a_row_is_a_field_error(client, cup):
    t = cup.tournament
    round_of_teams(t)
    team = t.teams.first()
    client.force_login(cup.organiser)
    data = {"t-TOTAL_FORMS": "1", "t-INITIAL_FORMS": "0", "t-MIN_NUM_FORMS": "0", "t-MAX_NUM_FORMS": "1000",
            "t-0-team_ns": team.pk, "t-0-team_ew": team.pk}
    response = client.post(reverse("scoring:round_edit", args=[t.slug, 1]), data)
    assert response.status_code == 200
    assert response.context["formset"].forms[0].errors["team_ew"]


def test_round_lifecycle_buttons(client, cup):
    t = cup.tournament
    rnd = round_of_teams(t)
    client.force_login(cup.organiser)
    client.post(reverse("scoring:round_publish", args=[t.slug, 1]), follow=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    client.post(reverse("scoring:round_start", args=[t.slug, 1]), follow=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    response = client.post(reverse("scoring:round_close", args=[t.slug, 1]), follow=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS  # matches not confirmed
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    rnd.matches.update(status=Match.Status.CONFIRMED)
    client.post(reverse("scoring:round_close", args=[t.slug, 1]))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_seat_a_four_player_round(client):
    """New (issue 10): GET of ``round_seat`` shows the seating page (players present, a seed);
    POST seats the next round as a draft, eight players at two tables, and the round page
    lists them (organisers only while it is a draft)."""
    t = TournamentFactory(name="Mahjong", slug="mj", game="sichuan")
    names = [f"Speler {i}" for i in range(8)]
    for name in names:
        PlayerFactory(tournament=t, name=name)
    organiser = MembershipFactory(tournament=t, role="organiser").user
    client.force_login(organiser)
    url = reverse("scoring:round_seat", args=[t.slug])
    response = client.get(url)
    assert response.status_code == 200 and response.context["status"]["present"] == 8
    assert not t.rounds.exists()
    response = client.post(url, {"seed": "3"})
    assert response.status_code == 302 and response["Location"] == reverse("scoring:round_tables", args=[t.slug, 1])
    rnd = t.rounds.get()
    assert rnd.status == Round.Status.DRAFT
    assert sorted(s.player.name for table in Table.objects.filter(round=rnd) for s in table.seats.all()) == names
    page = client.get(response["Location"]).content.decode()
    assert all(name in page for name in names)
    assert f'href="{url}">Seat again</a>' in page  # the draft is seated again, not "Edit pairing"
    client.logout()
    assert client.get(reverse("scoring:round_tables", args=[t.slug, 1])).status_code == 404
