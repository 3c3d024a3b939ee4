"""Issue 24 item 4: the tournament form shows only the chosen game's options. The adapter declares
its round formats, default and counts (scoring.games.base.GameAdapter.round_formats); the form
leaves out the field groups the game does not show (Tai Pan tie-breaks, forfeits, round 1
pairing); a change of game draws the form again instead of saving; the Taiwanese wind-round
format ends a table when the deal has passed every seat; migration 0014 moves an unreachable
format to the time limit."""
from __future__ import annotations

import importlib
import json
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from scoring.games import registry
from scoring.games.base import RuleViolation
from scoring.models import Tournament
from scoring.web.forms.organiser import TournamentForm
from tests.factories import DEALS, TournamentFactory, UserFactory, form_data

pytestmark = pytest.mark.django_db



@pytest.fixture(autouse=True)
def _english(settings, client):
    """Messages in English, the source language (Dutch is the site's default)."""
    settings.LANGUAGE_CODE = "en"
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


TIEBREAK_AND_TEAM_FIELDS = {"tiebreak_1", "forfeit_score", "forfeit_points", "first_round_method", "avoid_same_club"}


@pytest.mark.parametrize(("game", "formats", "default", "count"), [
    ("taipan", ["target", "fixed_hands"], "target", None),
    ("sichuan", ["fixed_hands", "time_limit"], "fixed_hands", 8),
    ("taiwanese", ["fixed_hands", "wind_rounds", "time_limit"], "fixed_hands", 8),
    ("tiengow", ["fixed_hands", "time_limit"], "fixed_hands", 16),
])
def test_a_new_form_offers_the_games_formats_and_starts_at_its_default(game, formats, default, count):
    form = TournamentForm(game=game)
    assert [value for value, _label in form.fields["round_format"].choices] == formats
    assert form["round_format"].value() == default and form["hands_per_round"].value() == count
    assert [g["game"] for g in form.preset_groups] == [game]  # only the game's presets
    shown = TIEBREAK_AND_TEAM_FIELDS & set(form.fields)
    # Four-player games: round-1 seeding, club avoidance (the seating) and the players' own
    # tie-breaks, never the Tai Pan forfeit or team tie-breaks.
    four_player = {"tiebreak_1", "first_round_method", "avoid_same_club"}
    assert shown == (TIEBREAK_AND_TEAM_FIELDS if game == "taipan" else four_player)
    keys = {value for value, _label in form.fields["tiebreak_1"].choices if value}
    assert keys == ({"point_difference", "points_scored", "buchholz", "median_buchholz", "sonneborn_berger",
                     "head_to_head", "wins"} if game == "taipan" else {"firsts", "seconds", "best_table", "average_place"})


def sichuan_data(**extra) -> dict:
    return form_data(TournamentForm(game="sichuan")) | {"name": "Mahjong Open", "slug": "open", **extra}


def test_a_four_player_game_refuses_the_target_and_a_fixed_format_without_a_count():
    form = TournamentForm(sichuan_data(round_format="target"))
    assert not form.is_valid() and "round_format" in form.errors
    form = TournamentForm(sichuan_data(hands_per_round=""))
    assert not form.is_valid() and "hands_per_round" in form.errors
    form = TournamentForm(sichuan_data(round_format="time_limit", hands_per_round="8"))
    assert form.is_valid(), form.errors
    t = form.save()
    assert (t.round_format, t.hands_per_round, t.tiebreaks) == ("time_limit", None, ["firsts", "seconds", "best_table"])
    assert t.round_format_text == "Until the time limit (tables end when time is called)"


def test_a_change_of_game_draws_the_form_again_and_saves_nothing(client):
    user = UserFactory(is_staff=True)
    client.force_login(user)
    data = form_data(TournamentForm(game="taipan")) | {"name": "", "slug": "", "game": "sichuan"}
    response = client.post(reverse("scoring:tournament_create"), data)
    page = response.content.decode()
    assert response.status_code == 200 and not Tournament.objects.exists()
    # The game was chosen first: the form is drawn again without complaints about the empty name.
    assert list(response.context["form"].errors) == ["__all__"]
    assert "The game changed to" in page and 'value="buchholz"' not in page and 'value="firsts"' in page
    assert 'value="time_limit"' in page and 'value="target"' not in page
    # Saved as drawn again: the Sichuan default, 8 deals.
    form = response.context["form"]
    response = client.post(reverse("scoring:tournament_create"), form_data(form) | {"name": "Open", "slug": "open"})
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get()
    assert (t.game, t.round_format, t.hands_per_round) == ("sichuan", "fixed_hands", 8)


def taiwanese_deal(seat: str) -> dict:
    """The factories' Taiwanese self-drawn win (tests.factories.DEALS), won by ``seat``."""
    return {**DEALS["taiwanese"][0], "seat": seat}


def test_one_wind_round_ends_when_the_deal_has_passed_every_seat():
    """Taiwanese rule text ("De dealer en doorgeven"): the dealer stays on a win, else the deal
    passes E -> S -> W -> N; the wind round is over when it passes from North back to East."""
    adapter = registry.get("taiwanese")
    settings = SimpleNamespace(rules={}, round_format="wind_rounds", hands_per_round=1)
    # Dealers E, S, W, N; the winners S, W, N, E take the deal on each time: done after 4 deals.
    four = [taiwanese_deal(s) for s in "SWNE"]
    assert not adapter.evaluate(four[:3], settings).finished
    done = adapter.evaluate(four, settings)
    assert done.finished and done.ended == "target"
    # West wins as dealer (deal 3): West deals again, so the round takes 5 deals.
    five = [taiwanese_deal(s) for s in "SWWNE"]
    assert not adapter.evaluate(five[:4], settings).finished
    assert adapter.evaluate(five, settings).finished
    with pytest.raises(RuleViolation) as refused:
        adapter.evaluate([*five, taiwanese_deal("S")], settings)
    assert refused.value.violations[0].field == "records[5]"


def test_only_a_game_with_a_dealer_offers_wind_rounds():
    registry.get("taiwanese").check_round_format("wind_rounds", 1)
    for game in ("sichuan", "tiengow"):
        with pytest.raises(RuleViolation):
            registry.get(game).check_round_format("wind_rounds", 1)
    with pytest.raises(RuleViolation):
        registry.get("taipan").check_round_format("time_limit", None)


def test_the_migration_moves_an_unreachable_target_to_the_time_limit():
    migration = importlib.import_module("scoring.migrations.0014_round_formats")
    sichuan = TournamentFactory(game="sichuan")
    taipan = TournamentFactory(game="taipan")
    Tournament.objects.filter(pk=sichuan.pk).update(round_format="target")  # as before 0014
    migration.reachable_formats(apps, None)
    assert Tournament.objects.get(pk=sichuan.pk).round_format == "time_limit"
    assert Tournament.objects.get(pk=taipan.pk).round_format == "target"
    assert TournamentFactory(game="tiengow").round_format == "time_limit"  # made by a script: the fallback


def test_an_import_reads_an_old_four_player_target_as_the_time_limit_and_refuses_a_format_of_another_game():
    from scoring.io.tournament_json import ImportRefused, load_tournament
    from tests.games.kits import kit
    from tests.io.played import USERNAMES

    for username in USERNAMES:
        UserFactory(username=username)
    data = json.loads(kit("sichuan").export.read_text(encoding="utf-8"))
    old = dict(data, round_format="target")  # exported before round formats were per game
    imported = load_tournament(json.dumps(old).encode())
    assert imported.tournament.round_format == "time_limit"
    wrong = dict(data, round_format="wind_rounds", hands_per_round=1, slug="other")
    with pytest.raises(ImportRefused) as refused:
        load_tournament(json.dumps(wrong).encode())
    assert "$.round_format" in str(refused.value)


def test_every_games_overrides_example_is_valid_for_that_game():
    for adapter in registry.all_games():
        if adapter.override_example:
            adapter.resolve_rules(json.loads(adapter.override_example))
            form = TournamentForm(game=adapter.key)
            assert adapter.override_example in str(form.fields["rules_overrides"].help_text)


@pytest.mark.parametrize(("game", "round_format", "ended", "text"), [
    ("taipan", "target", "target", "Target reached"),
    ("taipan", "fixed_hands", "target", "All hands of the round played"),
    ("sichuan", "fixed_hands", "target", "All deals of the round played"),
    ("taiwanese", "wind_rounds", "target", "All wind rounds of the round played"),
    ("tiengow", "time_limit", "time", "Time limit"),
    ("sichuan", "fixed_hands", "", ""),
])
def test_what_ended_a_result_is_said_in_the_games_own_words(game, round_format, ended, text):
    """A four-player table never "reaches the target" (it has none): it played every deal of its
    round format, or time was called (docs/tournaments.md "Round formats")."""
    settings = SimpleNamespace(rules={}, round_format=round_format, hands_per_round=8)
    assert registry.get(game).ended_text(ended, settings) == text
