"""Seating rounds of a four-player tournament through the service and the organiser pages
(issue 6 item 4): present players only (late entry, withdrawal), substitutes when the count is not
a multiple of four, repeats avoided and reported, deterministic per seed, draft re-seating.

Results are entered through the result sheet and confirmed (a four-player table without a fixed
number of deals is finished only when ended at the time limit); seating and publishing is done by
the trusted ``SYSTEM`` actor of the commands."""
from itertools import combinations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.draw import rounds, seating
from scoring.errors import NotAllowed
from scoring.models import Player, Round, TableSeat, Tournament
from scoring.policy import SYSTEM
from tests.factories import PlayerFactory, TournamentFactory, play, staff

pytestmark = pytest.mark.django_db

#: Sichuan case S17 with the seats as players: North wins 1 on West's discard, then East
#: self-draws (base 2); only South and West still pay, 3 each: E +6, S -3, W -4, N +1
#: (docs/engines/sichuan.md) - four different totals at every table.
FOUR_LEVELS = {"events": [
    {"type": "win", "player": "N", "discarder": "W", "hand": {
        "void": "s", "melds": [], "concealed": "123m 456m 789p 234p 55p",
        "win": {"tile": "5p", "how": "discard", "after_kong": False, "last_tile": False}}},
    {"type": "win", "player": "E", "hand": {
        "void": "s", "melds": ["pung 111m claimed", "pung 555m claimed"], "concealed": "777p 999p 33p",
        "win": {"tile": "3p", "how": "self", "after_kong": False, "last_tile": False}}},
], "exhaustion": None}


@pytest.fixture(autouse=True)
def _english(settings):
    """These tests read English messages; Dutch is the site default (tests/test_i18n.py)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def tournament(n: int, game: str = "sichuan") -> Tournament:
    t = TournamentFactory(game=game, seed=5)
    PlayerFactory.create_batch(n, tournament=t)
    return t


def seated(rnd):
    return [list(t.seats.order_by("seat").values_list("player_id", flat=True)) for t in rnd.tables.order_by("number")]


def close_with_results(rnd, record=None):
    """Publish the round, give every table one deal (``record``, default :data:`FOUR_LEVELS`),
    end it at the time limit, confirm it by a second referee and close the round."""
    if rnd.status == Round.Status.DRAFT:
        rounds.publish_round(rnd, SYSTEM)
    referee, confirmer = staff(rnd.tournament)["referees"]
    for table in rnd.tables.order_by("number"):
        play(table, [record or FOUR_LEVELS], referee, end_reason="time", confirmer=confirmer)
    rounds.close_round(rnd, SYSTEM)


def test_not_a_multiple_of_four_asks_for_substitutes():
    t = tournament(7)
    assert seating.seating_status(t) == {"round_number": 1, "present": 7, "substitutes_needed": 1, "reseat": False}
    with pytest.raises(NotAllowed, match="add 1 substitute"):
        seating.seat_round(t, SYSTEM)
    assert not Round.objects.exists()
    PlayerFactory(tournament=t, name="Sub", is_substitute=True)
    outcome = seating.seat_round(t, SYSTEM)
    tables = seated(outcome.round)
    assert len(tables) == 2 and all(len(x) == 4 for x in tables)
    assert sorted(p for x in tables for p in x) == sorted(Player.objects.values_list("pk", flat=True))
    assert outcome.round.status == Round.Status.DRAFT and outcome.result.repeat_count == 0


def test_only_an_organiser_seats():
    t = tournament(4)
    people = staff(t)
    with pytest.raises(PermissionDenied):
        seating.seat_round(t, people["referee"])
    assert not t.rounds.exists()
    assert seating.seat_round(t, people["organiser"]).round.number == 1


def test_late_entry_and_withdrawal():
    t = tournament(8)
    late = PlayerFactory(tournament=t, name="Late", joined_round=2)
    gone = t.players.order_by("pk").first()
    gone.withdrawn_after_round = 1
    gone.save()
    # round 1: 8 present (the late entry not yet), the withdrawn player still plays round 1
    rnd1 = seating.seat_round(t, SYSTEM).round
    ids1 = {p for x in seated(rnd1) for p in x}
    assert late.pk not in ids1 and gone.pk in ids1
    close_with_results(rnd1)
    # round 2: 8 - 1 + 1 = 8 present
    rnd2 = seating.seat_round(t, SYSTEM).round
    ids2 = {p for x in seated(rnd2) for p in x}
    assert late.pk in ids2 and gone.pk not in ids2 and len(ids2) == 8


def test_unavoidable_repeats_are_reported_on_the_tables():
    t = tournament(8)
    rnd1 = seating.seat_round(t, SYSTEM).round
    close_with_results(rnd1)
    outcome = seating.seat_round(t, SYSTEM)
    # 8 players who met in two groups of four: any table of four holds at least two players of
    # one group; the best split is 2 + 2, i.e. 2 repeated pairs per table, 4 in all
    assert outcome.result.repeat_count == 4
    assert len(outcome.repeat_notes) == 4
    notes = [tb.seating_note for tb in outcome.round.tables.order_by("number")]
    assert all(n.count("met 1x before") == 2 for n in notes)


def test_sixteen_players_second_round_without_repeats():
    t = tournament(16)
    rnd1 = seating.seat_round(t, SYSTEM).round
    close_with_results(rnd1)
    outcome = seating.seat_round(t, SYSTEM)
    assert outcome.result.repeat_count == 0 and outcome.repeat_notes == []
    first = {frozenset(p) for x in seated(rnd1) for p in combinations(x, 2)}
    second = {frozenset(p) for x in seated(outcome.round) for p in combinations(x, 2)}
    assert not first & second


def test_by_score_in_round_two():
    # Round 1: totals 6/-3/-4/1 (E/S/W/N) at each of 4 tables; round 2 seats the four winners
    # together (they never met), then the four on +1, the four on -3 and the four on -4.
    t = tournament(16)
    rnd1 = seating.seat_round(t, SYSTEM).round
    close_with_results(rnd1)
    rnd2 = seating.seat_round(t, SYSTEM).round
    totals = {s.player_id: s.total for s in TableSeat.objects.filter(table__round=rnd1)}
    assert sorted(totals.values()) == [-4] * 4 + [-3] * 4 + [1] * 4 + [6] * 4
    for table, expected in zip(seated(rnd2), [6, 1, -3, -4], strict=True):
        assert {totals[p] for p in table} == {expected}


def test_next_round_needs_the_previous_closed_and_draft_can_be_reseated():
    t = tournament(8)
    first = seating.seat_round(t, SYSTEM, seed=11)
    again = seating.seat_round(t, SYSTEM, seed=11)  # the draft is seated again, same seed, same seating
    assert again.round.pk == first.round.pk and Round.objects.count() == 1
    assert seated(again.round) == [list(x) for x in again.result.tables]
    assert again.result.tables == first.result.tables
    rounds.publish_round(again.round, SYSTEM)
    with pytest.raises(NotAllowed, match="not closed"):
        seating.seat_round(t, SYSTEM)
    with pytest.raises(NotAllowed, match="not confirmed"):
        rounds.close_round(again.round, SYSTEM)


def test_a_draft_with_deals_is_not_seated_again():
    """A draft round whose tables already have deals keeps its seating (set up directly: the
    result sheet refuses deals in a draft round)."""
    from scoring.models import Deal

    t = tournament(4)
    rnd = seating.seat_round(t, SYSTEM).round
    Deal.objects.create(table=rnd.tables.get(), number=1, record={}, net=[0, 0, 0, 0])
    with pytest.raises(NotAllowed, match="already has results"):
        seating.seat_round(t, SYSTEM)


def test_team_game_cannot_be_seated():
    t = tournament(4, game="taipan")
    with pytest.raises(NotAllowed):
        seating.seat_round(t, SYSTEM)


def test_organiser_pages_register_substitute_and_seat(client):
    t = tournament(3)
    org = staff(t)["organiser"]
    client.force_login(org)
    page = client.get(reverse("scoring:players", args=[t.slug])).content.decode()
    assert "Add 1 substitute" in page or "1 substitute" in page
    assert client.get(reverse("scoring:round_seat", args=[t.slug])).status_code == 200  # GET: the confirmation page
    assert not t.rounds.exists()
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": ""})
    assert r.status_code == 400 and "substitute" in r.content.decode()
    r = client.post(reverse("scoring:players", args=[t.slug]), {"name": "Sub", "joined_round": 1, "is_substitute": "on"})
    assert r.status_code == 302
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": "3"})
    assert r.status_code == 302 and r["Location"].endswith("/round/1/tables/")
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.seed == 3 and rnd.tables.count() == 1
    # the draft is visible to the organiser, not to the public
    assert client.get(r["Location"]).status_code == 200
    r = client.post(reverse("scoring:round_tables_publish", args=[t.slug, 1]))
    assert r.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    client.logout()
    assert client.get(reverse("scoring:round_tables", args=[t.slug, 1])).status_code == 200
    # withdraw a player after round 1
    p = t.players.exclude(name="Sub").order_by("pk").first()
    client.force_login(org)
    r = client.post(reverse("scoring:player_withdraw", args=[t.slug, p.pk]), {"after_round": 1})
    assert r.status_code == 302
    p.refresh_from_db()
    assert p.withdrawn_after_round == 1


def test_draft_tables_hidden_from_public_and_referees(client):
    """Draft rounds are hidden from referees too (was: only from the public)."""
    t = tournament(4)
    rnd = seating.seat_round(t, SYSTEM).round
    table = rnd.tables.first()
    urls = [reverse("scoring:round_tables", args=[t.slug, rnd.number]), reverse("scoring:table_detail", args=[t.slug, table.pk])]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(staff(t)["referee"])
    for url in urls:
        assert client.get(url).status_code == 404
