"""Seating through the service (issue 24 item 3; scoring.draw.seating): round 1 spreads the seeds
(by seed number or rating, substitutes last), same-club pairs are avoided or noted on their tables
and in the draft's warnings, and later rounds follow the standings' row order."""
from types import SimpleNamespace

import pytest

from scoring.draw import rounds, seating
from scoring.errors import NotAllowed
from scoring.policy import SYSTEM
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def tables_of(rnd):
    return [list(t.seats.order_by("seat").values_list("player_id", flat=True)) for t in rnd.tables.order_by("number")]


def test_sixty_five_seeded_players_and_three_substitutes():
    t = TournamentFactory(game="sichuan", seed=5)
    players = [PlayerFactory(tournament=t, seed=s) for s in range(1, 66)]
    subs = [PlayerFactory(tournament=t, is_substitute=True) for _ in range(3)]
    rnd = seating.seat_round(t, SYSTEM).round  # automatic: every regular player is seeded -> by seed
    tables = tables_of(rnd)
    assert len(tables) == 17
    seed_of = {p.pk: p.seed for p in players}
    # 68 players: quarters of 17; seeds 1-17 are the top quarter, one per table
    for table in tables:
        quarters = sorted((seed_of[p] - 1) // 17 if p in seed_of else 3 for p in table)
        assert quarters == [0, 1, 2, 3]
    assert 1 in {seed_of.get(p) for p in tables[0]}  # table 1 holds seed 1
    assert len({i for i, table in enumerate(tables) for p in table if p in {s.pk for s in subs}}) == 3


def test_by_rating_when_the_tournament_says_so():
    # Seed quarters are players 0-3, 4-7, ...; rating quarters are i % 4 (players 3, 7, 11, 15
    # have the four highest ratings): the draw spreads the quarters of the method asked for.
    t = TournamentFactory(game="sichuan", seed=1, first_round_method="rating")
    players = [PlayerFactory(tournament=t, seed=i + 1, rating=1000 + 100 * (i % 4) + i) for i in range(16)]
    index = {p.pk: i for i, p in enumerate(players)}
    tables = tables_of(seating.seat_round(t, SYSTEM).round)
    assert all(sorted(3 - index[p] % 4 for p in table) == [0, 1, 2, 3] for table in tables)
    tables = tables_of(seating.seat_round(t, SYSTEM, method="seeded").round)  # the draft again
    assert all(sorted(index[p] // 4 for p in table) == [0, 1, 2, 3] for table in tables)
    with pytest.raises(NotAllowed, match="Unknown round 1"):
        seating.seat_round(t, SYSTEM, method="swiss")


@pytest.mark.parametrize("avoid", [True, False])
def test_unavoidable_club_pairs_are_noted(avoid):
    # Seeds 1-4 are one club (written two ways); 8 players: pots {1, 2}, {3, 4}, {5, 6}, {7, 8},
    # so each table holds one of seeds 1-2 and one of 3-4: two club pairs, whatever the draw.
    t = TournamentFactory(game="sichuan", seed=2, avoid_same_club=avoid)
    clubs = ["HMC Utrecht", "hmc  utrecht", "HMC Utrecht ", "Hmc Utrecht", "", "", "Other", ""]
    for s, club in enumerate(clubs, start=1):
        PlayerFactory(tournament=t, seed=s, affiliation=club)
    outcome = seating.seat_round(t, SYSTEM)
    warnings = rounds.draft_warnings(outcome.round)
    if avoid:
        assert outcome.result.club_pairs == 2 and outcome.result.lower_bound.club_pairs == 2
        assert len(outcome.club_notes) == 2 and all("are both of" in n for n in outcome.club_notes)
        assert sum("are both of" in w for w in warnings) == 2
    else:
        assert outcome.result.club_pairs == 0 and outcome.club_notes == [] and warnings == []


def test_later_rounds_follow_the_standings_row_order(monkeypatch):
    # Whatever the standings rank by (totals, placement points), the seating takes their rows'
    # order: the first four rows belong at table 1, and so on.
    t = TournamentFactory(game="sichuan", seed=3)
    players = [PlayerFactory(tournament=t) for _ in range(8)]
    order = [players[i].pk for i in (5, 2, 7, 0, 1, 6, 3, 4)]
    calls = []

    def fake(tournament, *, through_round=None):
        calls.append(through_round)
        return [SimpleNamespace(player_id=pk) for pk in order]

    monkeypatch.setattr(seating, "standings", fake)
    entrants = seating._entrants(t, list(reversed(players)), 3, 0, None)
    assert [e.id for e in entrants] == order and calls == [2]
