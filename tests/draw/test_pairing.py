"""Pairing and round lifecycle through the ORM (scoring.draw.pairing / rounds), issue 4 items
1-2: drafts, notes, table numbers by rank, the previous round must be closed, byes saved as wins,
impossible pairings naming the blocking teams, hand-edited drafts with warnings.

Results are entered and confirmed through the result sheet (:func:`tests.factories.confirm_round`:
NS wins every match 800 : 0, NSKT rules); drawing and publishing is done by the trusted
``SYSTEM`` actor of the commands."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from scoring.draw import pairing, rounds
from scoring.errors import NotAllowed, PairingImpossible
from scoring.models import Match, Round, Team, Tournament
from scoring.policy import SYSTEM
from tests.factories import TeamFactory, TournamentFactory, confirm_round, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Pairing reasons and warnings are read in English here (they are shown in the reader's language)."""
    with translation.override("en"):
        yield


def make(n: int, **extra) -> tuple[Tournament, list[Team]]:
    """A Tai Pan tournament (pairing seed 42) with teams "Team 00" .. "Team n-1"."""
    t = TournamentFactory(seed=42, **extra)
    return t, [TeamFactory(tournament=t, name=f"Team {i:02d}") for i in range(n)]


@pytest.fixture
def finish_round():
    """``finish_round(rnd)``: publish a draft, play and confirm every match (NS wins), close it."""
    people: dict[int, dict] = {}

    def finish(rnd: Round) -> Round:
        crew = people.setdefault(rnd.tournament_id, staff(rnd.tournament))
        if rnd.status == Round.Status.DRAFT:
            rounds.publish_round(rnd, SYSTEM)
        confirm_round(rnd, *crew["referees"])
        return rounds.close_round(rnd, SYSTEM)
    return finish


def test_round_one_draft_and_determinism():
    t, teams = make(12)
    rnd = pairing.pair_next_round(t, SYSTEM)
    assert rnd.number == 1 and rnd.status == Round.Status.DRAFT and rnd.seed == 42
    matches = list(rnd.matches.order_by("table"))
    assert [m.table for m in matches] == [1, 2, 3, 4, 5, 6]
    assert sorted(x for m in matches for x in (m.team_ns_id, m.team_ew_id)) == sorted(t.pk for t in teams)
    assert all(m.pairing_reason_text() == "Round 1: random draw (seed 42)" for m in matches)
    first = [(m.team_ns_id, m.team_ew_id) for m in matches]
    rnd.delete()
    rnd = pairing.pair_next_round(t, SYSTEM)
    assert [(m.team_ns_id, m.team_ew_id) for m in rnd.matches.order_by("table")] == first


def test_only_an_organiser_pairs():
    t, _teams = make(4)
    people = staff(t)
    with pytest.raises(PermissionDenied):
        pairing.pair_next_round(t, people["referee"])
    with pytest.raises(PermissionDenied):
        pairing.pair_next_round(t, people["outsider"])
    assert not t.rounds.exists()
    assert pairing.pair_next_round(t, people["organiser"]).number == 1


def test_next_round_needs_the_previous_closed_then_swiss(finish_round):
    t, teams = make(8)
    r1 = pairing.pair_next_round(t, SYSTEM)
    with pytest.raises(NotAllowed, match="still a draft"):
        pairing.pair_next_round(t, SYSTEM)  # round 1 is a draft
    rounds.publish_round(r1, SYSTEM)
    with pytest.raises(NotAllowed) as err:
        pairing.pair_next_round(t, SYSTEM)
    assert "not confirmed" in str(err.value)
    finish_round(r1)
    r2 = pairing.pair_next_round(t, SYSTEM)
    met = {frozenset((m.team_ns_id, m.team_ew_id)) for m in r1.matches.all()}
    winners = {m.team_ns_id for m in r1.matches.all()}
    for m in r2.matches.order_by("table"):
        assert frozenset((m.team_ns_id, m.team_ew_id)) not in met
    # winners (2 points) meet winners at tables 1-2, losers at tables 3-4
    tables = list(r2.matches.order_by("table"))
    assert {tables[0].team_ns_id, tables[0].team_ew_id, tables[1].team_ns_id, tables[1].team_ew_id} == winners
    assert tables[0].pairing_reason_text() == "Same score group (2 match points)"


def test_a_fully_confirmed_round_is_closed_on_the_way():
    """Drawing the next round closes an earlier round whose every match is confirmed."""
    t, _teams = make(4)
    r1 = pairing.pair_next_round(t, SYSTEM)
    rounds.publish_round(r1, SYSTEM)
    confirm_round(r1, *staff(t)["referees"])
    r2 = pairing.pair_next_round(t, SYSTEM)
    r1.refresh_from_db()
    assert r1.status == Round.Status.CLOSED and r2.number == 2


def test_odd_field_gets_a_bye_saved_as_a_win(finish_round):
    t, teams = make(5)
    r1 = pairing.pair_next_round(t, SYSTEM)
    bye = r1.matches.get(team_ew=None)
    assert bye.table == 3 and bye.status == Match.Status.FINISHED and bye.points_ns == 2 and bye.winner_id == bye.team_ns_id
    finish_round(r1)
    r2 = pairing.pair_next_round(t, SYSTEM)
    bye2 = r2.matches.get(team_ew=None)
    assert bye2.team_ns_id != bye.team_ns_id
    assert bye2.pairing_reason_text().startswith("Bye: lowest-ranked team without a bye")


def test_withdrawn_and_late_teams(finish_round):
    t, teams = make(6)
    Team.objects.filter(pk=teams[5].pk).update(joined_round=2)
    r1 = pairing.pair_next_round(t, SYSTEM)
    assert r1.matches.count() == 3 and not r1.matches.filter(team_ns=teams[5]).exists()
    finish_round(r1)
    Team.objects.filter(pk=teams[0].pk).update(withdrawn_after_round=1)
    r2 = pairing.pair_next_round(t, SYSTEM)
    paired = {x for m in r2.matches.all() for x in (m.team_ns_id, m.team_ew_id) if x}
    assert teams[0].pk not in paired and teams[5].pk in paired and len(paired) == 5


def test_impossible_pairing_names_blocking_teams(finish_round):
    t, teams = make(4)
    for _ in range(3):
        finish_round(pairing.pair_next_round(t, SYSTEM))
    with pytest.raises(PairingImpossible) as err:
        pairing.pair_next_round(t, SYSTEM)
    assert sorted(err.value.blocking) == [tm.name for tm in teams]
    assert "Team 00" in str(err.value)
    assert Round.objects.filter(tournament=t).count() == 3


def test_set_draft_pairing_warnings(finish_round):
    t, teams = make(5)
    r1 = pairing.pair_next_round(t, SYSTEM)
    finish_round(r1)
    bye_team = r1.matches.get(team_ew=None).team_ns_id
    a, b = [(m.team_ns_id, m.team_ew_id) for m in r1.matches.exclude(team_ew=None).order_by("table")][:2]
    r2 = pairing.pair_next_round(t, SYSTEM)
    swiss = list(r2.matches.order_by("table").values_list("team_ns_id", "team_ew_id"))
    warnings = pairing.set_draft_pairing(r2, [a, (b[0], b[0]), (bye_team, None)], SYSTEM)
    names = {tm.pk: tm.name for tm in teams}
    assert f"Rematch: {names[a[0]]} - {names[a[1]]} have already played each other." in warnings
    assert f"Double booking: {names[b[0]]} is at more than one table." in warnings
    assert f"Second bye: {names[bye_team]} has already had a bye." in warnings
    assert f"Missing: {names[b[1]]} is not paired." in warnings
    assert list(r2.matches.order_by("table").values_list("team_ns_id", "team_ew_id")) == [a, (b[0], b[0]), (bye_team, None)]
    other, other_teams = make(2)
    with pytest.raises(NotAllowed):
        pairing.set_draft_pairing(r2, [(other_teams[0].pk, None)], SYSTEM)
    with pytest.raises(PermissionDenied):
        pairing.set_draft_pairing(r2, swiss, staff(t)["referee"])
    with pytest.raises(rounds.PublishRefused) as refused:  # a double booking and a missing team: never published
        rounds.publish_round(r2, SYSTEM, accept_warnings=True)
    assert not refused.value.needs_confirmation
    assert Round.objects.get(pk=r2.pk).status == Round.Status.DRAFT
    assert pairing.set_draft_pairing(r2, swiss, SYSTEM) == []
    rounds.publish_round(r2, SYSTEM)
    with pytest.raises(NotAllowed):
        pairing.set_draft_pairing(r2, [a], SYSTEM)


def test_a_rematch_is_published_only_when_accepted(finish_round):
    t, _teams = make(4)
    r1 = pairing.pair_next_round(t, SYSTEM)
    finish_round(r1)
    r2 = pairing.pair_next_round(t, SYSTEM)
    pairing.set_draft_pairing(r2, list(r1.matches.order_by("table").values_list("team_ns_id", "team_ew_id")), SYSTEM)
    with pytest.raises(rounds.PublishRefused) as refused:
        rounds.publish_round(r2, SYSTEM)
    assert refused.value.needs_confirmation and len(refused.value.problems) == 2
    assert "Publish anyway" in str(refused.value)
    assert Round.objects.get(pk=r2.pk).status == Round.Status.DRAFT
    rounds.publish_round(r2, SYSTEM, accept_warnings=True)
    assert r2.status == Round.Status.PUBLISHED


def test_round_lifecycle_errors(finish_round):
    t, teams = make(4)
    r1 = pairing.pair_next_round(t, SYSTEM)
    with pytest.raises(NotAllowed):
        rounds.start_round(r1, SYSTEM)
    with pytest.raises(NotAllowed):
        rounds.close_round(r1, SYSTEM)
    rounds.publish_round(r1, SYSTEM)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    with pytest.raises(NotAllowed):
        rounds.publish_round(r1, SYSTEM)
    rounds.start_round(r1, SYSTEM)
    assert r1.status == Round.Status.IN_PROGRESS
    with pytest.raises(NotAllowed) as err:
        rounds.close_round(r1, SYSTEM)
    assert "table(s) 1, 2" in str(err.value)
    finish_round(r1)
    assert Round.objects.get(pk=r1.pk).status == Round.Status.CLOSED
    empty = Round.objects.create(tournament=t, number=2)
    with pytest.raises(NotAllowed):
        rounds.publish_round(empty, SYSTEM)
