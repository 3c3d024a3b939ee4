"""Check-in, withdrawals and returns per round, and the no-show rule (issue 23 item 3;
scoring.participants.checkins, scoring.draw.noshow): who is paired or seated follows the list."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from scoring.draw import noshow, pairing, rounds, seating
from scoring.errors import NotAllowed, ServiceError
from scoring.models import AuditEntry, CheckIn, Match, Player, Round, Team, Withdrawal
from scoring.participants import checkins, links
from scoring.policy import EntrantActor
from tests.factories import PlayerFactory, TeamFactory, TournamentFactory, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def teams(n: int, **extra):
    t = TournamentFactory(seed=7, checkin_required=True, **extra)
    return t, [TeamFactory(tournament=t, name=f"Team {i:02d}") for i in range(n)], staff(t)["organiser"]


def drawn_ids(rnd: Round) -> set[int]:
    return {x for m in rnd.matches.all() for x in (m.team_ns_id, m.team_ew_id) if x}


def test_only_checked_in_teams_are_paired():
    t, ts, org = teams(12)
    for team in ts[:10]:
        checkins.set_checkin(t, org, team.pk)
    listing = checkins.checkin_list(t)
    assert (listing.number, listing.checked_in, listing.expected) == (1, 10, 12)
    assert checkins.absences(t, 1) == {ts[10].pk: checkins.NOT_CHECKED_IN, ts[11].pk: checkins.NOT_CHECKED_IN}
    rnd = pairing.pair_next_round(t, org)
    assert drawn_ids(rnd) == {x.pk for x in ts[:10]}
    assert rnd.matches.count() == 5  # ten teams: five tables, no bye


def test_untick_before_the_draw_leaves_the_team_out_and_gives_a_bye():
    t, ts, org = teams(4)
    for team in ts:
        checkins.set_checkin(t, org, team.pk)
    checkins.set_checkin(t, org, ts[0].pk, False)
    rnd = pairing.pair_next_round(t, org)
    assert drawn_ids(rnd) == {x.pk for x in ts[1:]}
    assert rnd.matches.filter(team_ew=None).count() == 1
    row = CheckIn.objects.get(team=ts[0], round_number=1)
    assert row.present is False and row.changed_by == org


def test_check_in_off_everyone_registered_is_present():
    t, ts, org = teams(4)
    t.checkin_required = False
    t.save()
    assert checkins.absences(t, 1) == {}
    with pytest.raises(NotAllowed):
        checkins.set_checkin(t, org, ts[0].pk)
    assert drawn_ids(pairing.pair_next_round(t, org)) == {x.pk for x in ts}


def test_an_entrant_checks_in_itself_only_and_not_after_the_draw():
    t, ts, org = teams(4)
    me = EntrantActor(links.link_for(ts[0]))
    out = checkins.set_checkin(t, me, ts[0].pk)
    assert (out.round_number, out.present, out.drawn) == (1, True, False)
    row = CheckIn.objects.get(team=ts[0], round_number=1)
    assert row.changed_by is None and row.via_entrant == "Team 00"
    with pytest.raises(PermissionDenied):
        checkins.set_checkin(t, me, ts[1].pk)
    for team in ts[1:]:
        checkins.set_checkin(t, org, team.pk)
    pairing.pair_next_round(t, org)
    with pytest.raises(NotAllowed, match="Round 1 is already drawn: ask the organiser."):
        checkins.set_checkin(t, me, ts[0].pk, False, round_number=1)
    # Without a round number the tap is for the round drawn next: still round 1 is drawn, so 2.
    assert checkins.open_round(t) == 2


def test_organiser_untick_after_the_draft_blocks_publishing_until_paired_again():
    t, ts, org = teams(4)
    for team in ts:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    out = checkins.set_checkin(t, org, ts[2].pk, False, round_number=1)
    assert out.drawn is True
    codes = [code for code, _text in pairing.draft_problems(rnd)]
    assert "not_present" in codes
    with pytest.raises(NotAllowed):
        rounds.publish_round(rnd, org)
    pairing.repair_draft(rnd, org)
    assert drawn_ids(rnd) == {ts[0].pk, ts[1].pk, ts[3].pk}


def test_referees_and_strangers_cannot_tick():
    t, ts, _org = teams(2)
    with pytest.raises(PermissionDenied):
        checkins.set_checkin(t, staff(t)["referee"], ts[0].pk)


def test_withdraw_after_round_one_and_return_for_round_three():
    t = TournamentFactory(seed=3)
    ts = [TeamFactory(tournament=t, name=f"T{i}") for i in range(6)]
    org = staff(t)["organiser"]
    w = checkins.withdraw(t, org, ts[0].pk, after_round=1, reason="ill")
    ts[0].refresh_from_db()
    assert ts[0].withdrawn_after_round == 1 and w.withdrawn_by == org and w.reason == "ill"
    with pytest.raises(NotAllowed):
        checkins.withdraw(t, org, ts[0].pk, after_round=1)
    with pytest.raises(NotAllowed):  # round 1 is not drawn yet, but a return must come after the withdrawal
        checkins.reinstate(t, org, ts[0].pk, from_round=1)
    back = checkins.reinstate(t, org, ts[0].pk, from_round=3, reason="better")
    ts[0].refresh_from_db()
    assert ts[0].withdrawn_after_round is None and back.returns_round == 3 and back.returned_by == org
    assert [checkins.absences(t, n).get(ts[0].pk) for n in (1, 2, 3, 4)] == [None, checkins.WITHDRAWN, None, None]
    assert Team.objects.filter(pk=ts[0].pk).exists() and Withdrawal.objects.filter(team=ts[0]).count() == 1


def test_seating_leaves_out_players_not_checked_in():
    t = TournamentFactory(game="sichuan", checkin_required=True)
    players = [PlayerFactory(tournament=t, name=f"P{i}") for i in range(9)]
    org = staff(t)["organiser"]
    for p in players[:8]:
        checkins.set_checkin(t, org, p.pk)
    assert seating.seating_status(t)["present"] == 8
    outcome = seating.seat_round(t, org)
    seated = set(outcome.round.tables.values_list("seats__player_id", flat=True))
    assert seated == {p.pk for p in players[:8]}


def test_no_show_makes_the_match_a_bye_for_the_present_team():
    t, ts, org = teams(4)
    for team in ts:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.order_by("table").first()
    absent, present = match.team_ns, match.team_ew
    with pytest.raises(ServiceError):
        noshow.match_no_show(match, org, absent_team_id=absent.pk, reason=" ", rule="bye")
    noshow.match_no_show(match, org, absent_team_id=absent.pk, reason="not at the table at 10:15", rule="bye")
    match = Match.objects.get(pk=match.pk)
    assert match.team_ns == present and match.team_ew is None and match.is_bye
    assert match.status == Match.Status.FINISHED and match.winner == present
    assert match.points_ns == t.adapter.bye_points(t)  # the game's bye points, as for a drawn bye
    entry = AuditEntry.objects.get(match=match, object_type="no_show")
    assert entry.reason == "not at the table at 10:15" and entry.user == org and entry.new["absent"] == absent.pk
    with pytest.raises(NotAllowed):
        noshow.match_no_show(match, org, absent_team_id=present.pk, reason="again", rule="bye")


def test_no_show_at_a_table_of_four_seats_a_substitute():
    t = TournamentFactory(game="sichuan")
    players = [PlayerFactory(tournament=t, name=f"P{i}") for i in range(4)]
    sub = PlayerFactory(tournament=t, name="Sub", is_substitute=True)
    org = staff(t)["organiser"]
    sub_out = checkins.withdraw(t, org, sub.pk, after_round=0)
    assert sub_out.after_round == 0
    rnd = seating.seat_round(t, org).round
    table = rnd.tables.get()
    noshow.table_no_show(table, org, absent_player_id=players[1].pk, substitute_id=sub.pk, reason="absent")
    assert set(table.seats.values_list("player_id", flat=True)) == {players[0].pk, sub.pk, players[2].pk, players[3].pk}
    with pytest.raises(NotAllowed):  # the substitute has a seat now
        noshow.table_no_show(table, org, absent_player_id=players[0].pk, substitute_id=sub.pk, reason="absent")
    assert Player.objects.filter(pk=players[1].pk).exists()


def test_setting_travels_through_the_tournament_json():
    from scoring.io import tournament_json
    t = TournamentFactory(checkin_required=True, slug="ci-export")
    data = tournament_json.export_tournament(t)
    assert data["checkin_required"] is True
    copy = tournament_json.import_tournament(data, slug="ci-import")
    assert copy.checkin_required is True
    t.checkin_required = False
    t.save()
    assert "checkin_required" not in tournament_json.export_tournament(t)


def test_forfeit_gives_the_present_team_the_forfeit_score_and_points_and_is_rebuilt():
    from scoring.results import sheet
    from scoring.standings import team_standings
    t, ts, org = teams(4)
    for team in ts:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.order_by("table").first()
    absent, present = match.team_ew, match.team_ns
    noshow.match_no_show(match, org, absent_team_id=absent.pk, reason="no-show")
    match = Match.objects.get(pk=match.pk)
    # Defaults: the match target of the NSKT rules (800) to 0, a win's match points (2) to 0.
    assert (match.forfeit, match.total_ns, match.total_ew, match.points_ns, match.points_ew) == ("EW", 800, 0, 2, 0)
    assert match.winner == present and match.status == Match.Status.FINISHED and match.team_ew == absent
    # Configured: 500 card points, 3 match points; the numbers are rebuilt from the stored match.
    t.forfeit_score, t.forfeit_points = 500, 3
    t.save()
    Match.objects.filter(pk=match.pk).update(total_ns=0, points_ns=0, winner=None)
    sheet.rebuild(Match.objects.filter(pk=match.pk))
    match = Match.objects.get(pk=match.pk)
    assert (match.total_ns, match.total_ew, match.points_ns, match.points_ew, match.winner_id) == (500, 0, 3, 0, present.pk)
    # A second person confirms it like any finished result; the standings read it.
    sheet.confirm(match, staff(t)["referee"], expected_version=match.version)
    rows = {r.team_id: r for r in team_standings(t)}
    assert rows[present.pk].match_points == 3 and rows[absent.pk].match_points == 0


def test_a_forfeit_travels_through_the_tournament_json():
    from scoring.io import tournament_json
    t, ts, org = teams(4)
    t.forfeit_score, t.forfeit_points = 600, 2
    t.save()
    for team in ts:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    rounds.publish_round(rnd, org)
    match = rnd.matches.order_by("table").first()
    noshow.match_no_show(match, org, absent_team_id=match.team_ns_id, reason="late")
    t.refresh_from_db()
    data = tournament_json.export_tournament(t)
    exported = data["rounds"][0]["matches"][0]
    assert exported["forfeit"] == "NS" and exported["hands"] == [] and data["forfeit_score"] == 600
    copy = tournament_json.import_tournament(data, slug="forfeit-copy")
    m = Match.objects.get(round__tournament=copy, table=match.table)
    assert (m.forfeit, m.total_ns, m.total_ew, m.points_ns, m.points_ew, m.status) == ("NS", 0, 600, 0, 2, "finished")


def test_a_seated_player_unticked_in_the_draft_is_a_warning():
    t = TournamentFactory(game="sichuan", checkin_required=True)
    players = [PlayerFactory(tournament=t, name=f"P{i}") for i in range(4)]
    org = staff(t)["organiser"]
    for p in players:
        checkins.set_checkin(t, org, p.pk)
    rnd = seating.seat_round(t, org).round
    assert seating.draft_warnings(rnd) == []
    checkins.set_checkin(t, org, players[2].pk, False, round_number=1)
    assert seating.draft_warnings(rnd) == ["Table 1: P2 is not present in this round: seat the round again."]


@pytest.mark.parametrize("status", [Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS])
def test_entrant_checks_in_only_between_rounds(status):
    """fixes B3: mid-round (a draft, published or in-progress round) a link's tap is refused, never
    counted for the next round; the organiser may tick for the next round; once every round is
    closed the link checks in for the next one."""
    t, ts, org = teams(4)
    for team in ts[:2]:
        checkins.set_checkin(t, org, team.pk)
    rnd = pairing.pair_next_round(t, org)
    Round.objects.filter(pk=rnd.pk).update(status=status)
    late = EntrantActor(links.link_for(ts[3]))
    assert checkins.entrant_checkin_open(t) is False
    with pytest.raises(NotAllowed, match="Check-in for round 2 opens when round 1 is closed."):
        checkins.set_checkin(t, late, ts[3].pk)
    with pytest.raises(NotAllowed, match="Round 1 is already drawn: ask the organiser."):
        checkins.set_checkin(t, late, ts[3].pk, round_number=1)
    assert not CheckIn.objects.filter(team=ts[3]).exists()
    assert checkins.set_checkin(t, org, ts[2].pk).round_number == 2  # the organiser's list stays open
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    assert checkins.entrant_checkin_open(t) is True
    assert checkins.set_checkin(t, late, ts[3].pk).round_number == 2
