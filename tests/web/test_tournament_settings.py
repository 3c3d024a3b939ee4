"""Tournament settings pages: create (staff, the creator becomes organiser) and edit with
engine-validated rules, settings fixed once round 1 exists, finishing and resuming a tournament,
and the JSON backup (issue 2 item 9, issue 4 items 1 and 6). Who may use these pages:
``tests/web/test_permissions.py``."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.draw import rounds
from scoring.models import Membership, Round, Tournament
from scoring.policy import SYSTEM
from tests.factories import MembershipFactory, TournamentFactory, UserFactory, confirm_result, round_of_teams

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def tournament_data(**extra):
    data = {"name": "Open 2026", "slug": "open-2026", "game": "taipan", "rules_preset": "nskt", "rules_overrides": "",
            "round_format": "target", "hands_per_round": "", "seed": "7", "venue": "Utrecht", "starts_on": "",
            "tiebreak_1": "point_difference", "tiebreak_2": "buchholz"}
    data.update(extra)
    return data


def test_create_tournament_permissions_and_creator_becomes_organiser(client):
    url = reverse("scoring:tournament_create")
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(UserFactory(username="plain"))
    assert client.get(url).status_code == 403
    staff = UserFactory(username="staff", is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200
    response = client.post(url, tournament_data())
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(slug="open-2026")
    assert t.rules == {"preset": "nskt"}
    assert t.tiebreaks == ["point_difference", "buchholz"]
    assert Membership.objects.get(tournament=t, user=staff).role == Membership.Role.ORGANISER


def test_rules_violations_are_shown_next_to_the_rules_field_and_input_kept(client):
    client.force_login(UserFactory(is_staff=True))
    response = client.post(reverse("scoring:tournament_create"),
                           tournament_data(rules_overrides='{"target": "high", "targett": 1000}'))
    assert response.status_code == 200
    form = response.context["form"]
    errors = form.errors["rules_overrides"]
    assert any("targett" in e for e in errors) and any("target" in e for e in errors)
    page = response.content.decode()
    assert 'id="id_rules_overrides_errors"' in page
    assert "targett" in page and 'value="Open 2026"' in page  # input kept
    assert not Tournament.objects.filter(slug="open-2026").exists()


def test_many_rules_violations_show_the_first_fifty_and_a_count(client):
    """Issue 22 item 7: errors are capped at the first 50 and a count of the rest, on pages as in
    the API; 60 unknown option names give 50 messages and "... and 10 more errors."."""
    client.force_login(UserFactory(is_staff=True))
    overrides = json.dumps({f"unknown_option_{i:02d}": 1 for i in range(60)})
    response = client.post(reverse("scoring:tournament_create"), tournament_data(rules_overrides=overrides))
    assert response.status_code == 200
    errors = list(response.context["form"].errors["rules_overrides"])
    assert len(errors) == 51
    assert errors[-1] == "\u2026 and 10 more errors."
    assert sum("unknown_option_" in e for e in errors[:50]) == 50


def test_unknown_preset_is_shown_next_to_the_preset_field(client):
    """Changed on purpose (issue 11 item 9): the preset is chosen from a list of the game's
    presets (no free text), so an unknown one is refused next to the select, and a preset of
    another game too."""
    client.force_login(UserFactory(is_staff=True))
    response = client.post(reverse("scoring:tournament_create"), tournament_data(rules_preset="nope"))
    assert response.status_code == 200
    assert "rules_preset" in response.context["form"].errors
    assert 'id="id_rules_preset_errors"' in response.content.decode()
    response = client.post(reverse("scoring:tournament_create"), tournament_data(rules_preset="cap16"))  # Taiwanese
    assert "rules_preset" in response.context["form"].errors
    assert not Tournament.objects.exists()


def test_the_preset_select_lists_the_chosen_games_presets_with_the_target(client):
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("scoring:tournament_create")).content.decode()
    assert '<select name="rules_preset"' in page
    assert 'data-game="taipan"' in page and 'data-game="taiwanese"' not in page  # only the game's own (issue 24)
    assert "nskt (to 800 points, default)" in page and "standard (to 1000 points)" in page
    page = client.get(reverse("scoring:tournament_create") + "?game=taiwanese").content.decode()
    assert 'data-game="taiwanese"' in page and 'data-game="taipan"' not in page


def test_overrides_must_be_a_json_object(client):
    client.force_login(UserFactory(is_staff=True))
    response = client.post(reverse("scoring:tournament_create"), tournament_data(rules_overrides="[1, 2"))
    assert "rules_overrides" in response.context["form"].errors


def test_fixed_hands_needs_hands_per_round_and_tiebreaks_are_unique(client):
    client.force_login(UserFactory(is_staff=True))
    response = client.post(reverse("scoring:tournament_create"),
                           tournament_data(round_format="fixed_hands", tiebreak_2="point_difference"))
    errors = response.context["form"].errors
    assert "hands_per_round" in errors and "tiebreak_2" in errors


def test_edit_tournament_and_settings_fixed_once_round_1_exists(client, cup):
    """Changed on purpose: the status is no longer a field of the form (a posted ``status`` is
    ignored); it moves through ``tournament_state`` and publishing rounds (next test)."""
    t = cup.tournament
    client.force_login(cup.organiser)
    url = reverse("scoring:tournament_edit", args=[t.slug])
    response = client.post(url, tournament_data(slug="nskt", rules_preset="standard", rules_overrides='{"target": 900}',
                                                status="finished"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.rules == {"preset": "standard", "target": 900}
    assert t.status == Tournament.Status.SETUP
    round_of_teams(t)
    response = client.post(url, tournament_data(slug="nskt", name="Renamed", rules_preset="atp", tiebreak_1="buchholz",
                                                status="running"))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "Renamed" and t.status == Tournament.Status.SETUP  # a draft round does not start it
    assert t.rules == {"preset": "standard", "target": 900}  # fixed: the posted preset is ignored
    assert t.tiebreaks == ["point_difference", "buchholz"]
    response = client.post(url, tournament_data(slug="other-slug", name="Renamed"))
    assert response.status_code == 200 and "slug" in response.context["form"].errors  # printed sheets carry it


def test_finish_and_resume_the_tournament(client, cup):
    """New (issue 10): ``tournament_state`` finishes a running tournament once every round is
    closed, and resumes a finished one; otherwise it says why and changes nothing."""
    t = cup.tournament
    rnd = round_of_teams(t, status=Round.Status.PUBLISHED)
    client.force_login(cup.organiser)
    url = reverse("scoring:tournament_state", args=[t.slug])
    response = client.post(url, {"action": "finish"}, follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING  # publishing round 1 started it
    confirmer = MembershipFactory(tournament=t).user
    for match in rnd.matches.all():
        confirm_result(match, confirmer)
    rounds.close_round(rnd, SYSTEM)
    page = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert 'name="action" value="finish"' in page
    response = client.post(url, {"action": "finish"}, follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["success"]
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert 'name="action" value="resume"' in response.content.decode()
    client.post(url, {"action": "resume"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_tournament_json_download(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    response = client.get(reverse("scoring:tournament_export", args=[t.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    data = json.loads(response.content)
    assert data["slug"] == "nskt" and sorted(team["name"] for team in data["teams"]) == ["Team 0", "Team 1", "Team 2", "Team 3"]


def test_json_backup_is_offered_for_four_player_tournaments_too(client):
    """Changed on purpose: the tournament JSON now holds four-player tournaments completely
    (players, rounds, tables, seats, deals; tests/io/test_tournament_json.py), so their organisers
    are offered the backup like Tai Pan organisers."""
    t = TournamentFactory(name="TG", slug="tg-json", game="tiengow")
    organiser = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    client.force_login(organiser)
    page = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert reverse("scoring:tournament_export", args=[t.slug]) in page
    response = client.get(reverse("scoring:tournament_export", args=[t.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert json.loads(response.content)["game"] == "tiengow"
