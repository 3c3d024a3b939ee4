"""Pairing and round lifecycle through the ORM (scoring.draw.pairing / rounds), issue 4 items
1-2: drafts, notes, table numbers by rank, the previous round must be closed, byes saved as wins,
impossible pairings naming the blocking teams, hand-edited drafts with warnings."""
from __future__ import annotations

import pytest
from django.utils import translation

from scoring.draw import pairing, rounds
from scoring.errors import NotAllowed, PairingImpossible
from scoring.models import Match, Player, Round, Team, Tournament


@pytest.fixture(autouse=True)
def _english():
    """Pairing reasons are read in English here (they are shown in the reader's language)."""
    from django.utils import translation

    with translation.override("en"):
        yield


pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def make(n, slug="p", **extra):
    t = Tournament.objects.create(name=slug, slug=slug, seed=42, **extra)
    teams = []
    for i in range(n):
        a = Player.objects.create(tournament=t, name=f"A{i}")
        b = Player.objects.create(tournament=t, name=f"B{i}")
        teams.append(Team.objects.create(tournament=t, name=f"Team {i:02d}", first_player=a, second_player=b))
    return t, teams


def finish_round(rnd, *, ns_wins=True):
    """Play every match of ``rnd``: NS wins 800:700 (or EW), confirmed; then close the round."""
    rounds.publish_round(rnd) if rnd.status == Round.Status.DRAFT else None
    for m in rnd.matches.exclude(team_ew=None):
        winner = m.team_ns if ns_wins else m.team_ew
        Match.objects.filter(pk=m.pk).update(
            status=Match.Status.CONFIRMED, total_ns=800 if ns_wins else 700, total_ew=700 if ns_wins else 800,
            points_ns=2 if ns_wins else 0, points_ew=0 if ns_wins else 2, winner=winner)
    rounds.close_round(rnd)


def test_round_one_draft_and_determinism():
    t, teams = make(12)
    rnd = pairing.pair_next_round(t)
    assert rnd.number == 1 and rnd.status == Round.Status.DRAFT and rnd.seed == 42
    matches = list(rnd.matches.order_by("table"))
    assert [m.table for m in matches] == [1, 2, 3, 4, 5, 6]
    assert sorted(x for m in matches for x in (m.team_ns_id, m.team_ew_id)) == sorted(t.pk for t in teams)
    assert all(m.pairing_reason_text() == "Round 1: random draw (seed 42)" for m in matches)
    first = [(m.team_ns_id, m.team_ew_id) for m in matches]
    rnd.delete()
    rnd = pairing.pair_next_round(t)
    assert [(m.team_ns_id, m.team_ew_id) for m in rnd.matches.order_by("table")] == first


def test_next_round_needs_the_previous_closed_then_swiss():
    t, teams = make(8, slug="sw")
    r1 = pairing.pair_next_round(t)
    with pytest.raises(NotAllowed):
        pairing.pair_next_round(t)  # round 1 is a draft
    rounds.publish_round(r1)
    with pytest.raises(NotAllowed) as err:
        pairing.pair_next_round(t)
    assert "not confirmed" in str(err.value)
    finish_round(r1)
    r2 = pairing.pair_next_round(t)
    met = {frozenset((m.team_ns_id, m.team_ew_id)) for m in r1.matches.all()}
    winners = {m.team_ns_id for m in r1.matches.all()}
    for m in r2.matches.order_by("table"):
        assert frozenset((m.team_ns_id, m.team_ew_id)) not in met
    # winners (2 points) meet winners at tables 1-2, losers at tables 3-4
    tables = list(r2.matches.order_by("table"))
    assert {tables[0].team_ns_id, tables[0].team_ew_id, tables[1].team_ns_id, tables[1].team_ew_id} == winners
    assert tables[0].pairing_reason_text() == "Same score group (2 match points)"


def test_odd_field_gets_a_bye_saved_as_a_win():
    t, teams = make(5, slug="odd")
    r1 = pairing.pair_next_round(t)
    bye = r1.matches.get(team_ew=None)
    assert bye.table == 3 and bye.status == Match.Status.FINISHED and bye.points_ns == 2 and bye.winner_id == bye.team_ns_id
    finish_round(r1)
    r2 = pairing.pair_next_round(t)
    bye2 = r2.matches.get(team_ew=None)
    assert bye2.team_ns_id != bye.team_ns_id
    assert bye2.pairing_reason_text().startswith("Bye: lowest-ranked team without a bye")


def test_withdrawn_and_late_teams():
    t, teams = make(6, slug="wl")
    Team.objects.filter(pk=teams[5].pk).update(joined_round=2)
    r1 = pairing.pair_next_round(t)
    assert r1.matches.count() == 3 and not r1.matches.filter(team_ns=teams[5]).exists()
    finish_round(r1)
    Team.objects.filter(pk=teams[0].pk).update(withdrawn_after_round=1)
    r2 = pairing.pair_next_round(t)
    paired = {x for m in r2.matches.all() for x in (m.team_ns_id, m.team_ew_id) if x}
    assert teams[0].pk not in paired and teams[5].pk in paired and len(paired) == 5


def test_impossible_pairing_names_blocking_teams():
    t, teams = make(4, slug="imp")
    for _ in range(3):
        finish_round(pairing.pair_next_round(t))
    with pytest.raises(PairingImpossible) as err:
        pairing.pair_next_round(t)
    assert sorted(err.value.blocking) == [tm.name for tm in teams]
    assert "Team 00" in str(err.value)
    assert Round.objects.filter(tournament=t).count() == 3


def test_set_draft_pairing_warnings():
    t, teams = make(5, slug="ed")
    r1 = pairing.pair_next_round(t)
    finish_round(r1)
    bye_team = r1.matches.get(team_ew=None).team_ns_id
    a, b = [(m.team_ns_id, m.team_ew_id) for m in r1.matches.exclude(team_ew=None).order_by("table")][:2]
    r2 = pairing.pair_next_round(t)
    swiss = list(r2.matches.order_by("table").values_list("team_ns_id", "team_ew_id"))
    warnings = pairing.set_draft_pairing(r2, [a, (b[0], b[0]), (bye_team, None)])
    names = {tm.pk: tm.name for tm in teams}
    assert f"Rematch: {names[a[0]]} - {names[a[1]]} have already played each other." in warnings
    assert f"Double booking: {names[b[0]]} is at more than one table." in warnings
    assert f"Second bye: {names[bye_team]} has already had a bye." in warnings
    assert f"Missing: {names[b[1]]} is not paired." in warnings
    assert list(r2.matches.order_by("table").values_list("team_ns_id", "team_ew_id")) == [a, (b[0], b[0]), (bye_team, None)]
    other, _ = make(2, slug="other")
    with pytest.raises(NotAllowed):
        pairing.set_draft_pairing(r2, [(other.teams.first().pk, None)])
    with pytest.raises(rounds.PublishRefused):  # a double booking and a missing team: never published
        rounds.publish_round(r2, accept_warnings=True)
    assert Round.objects.get(pk=r2.pk).status == Round.Status.DRAFT
    assert pairing.set_draft_pairing(r2, swiss) == []
    rounds.publish_round(r2)
    with pytest.raises(NotAllowed):
        pairing.set_draft_pairing(r2, [a])


def test_round_lifecycle_errors():
    t, teams = make(4, slug="lc")
    r1 = pairing.pair_next_round(t)
    with pytest.raises(NotAllowed):
        rounds.start_round(r1)
    with pytest.raises(NotAllowed):
        rounds.close_round(r1)
    rounds.publish_round(r1)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    with pytest.raises(NotAllowed):
        rounds.publish_round(r1)
    rounds.start_round(r1)
    assert r1.status == Round.Status.IN_PROGRESS
    with pytest.raises(NotAllowed) as err:
        rounds.close_round(r1)
    assert "table(s) 1, 2" in str(err.value)
    finish_round(r1)
    assert Round.objects.get(pk=r1.pk).status == Round.Status.CLOSED
    empty = Round.objects.create(tournament=t, number=2)
    with pytest.raises(NotAllowed):
        rounds.publish_round(empty)
