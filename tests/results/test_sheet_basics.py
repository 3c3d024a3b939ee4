"""The result sheet's lifecycle on both kinds of table (docs/tournaments.md; docs/results.md): values
from the NSKT rules (Tai Pan call 100, target 800, match points 2/1/0) and the Sichuan rules."""
import pytest

from scoring.errors import Locked, NotAllowed, StaleVersion
from scoring.models import AuditEntry, Round
from scoring.results import sheet
from tests.factories import PLAIN_HAND, TAI_PAN_HAND, staff, table_round, taipan_round

pytestmark = pytest.mark.django_db

#: A Sichuan self-drawn win by East: all chows, one pair, no fan items -> base 1, each other
#: player pays 1 + 1 for the self-draw (docs/engines/sichuan.md), East +6.
SICHUAN_SELF_DRAW = {"events": [{"type": "win", "player": "E", "hand": {
    "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
    "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None}


def test_taipan_hands_to_the_target_then_confirm_by_another_person():
    rnd, (match,) = taipan_round()
    people = staff(rnd.tournament)
    referee, other = people["referees"]
    for _ in range(5):  # 5 x (175 : 25): NS 875 >= 800 after hand 5
        sheet.add_record(match, TAI_PAN_HAND, referee, expected_version=match.version)
    assert (match.total_ns, match.total_ew) == (875, 125)
    assert match.status == match.Status.FINISHED and match.winner_id == match.team_ns_id
    assert (match.points_ns, match.points_ew) == (2, 0)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    with pytest.raises(NotAllowed):
        sheet.confirm(match, referee, expected_version=match.version)
    confirmation = sheet.confirm(match, other, expected_version=match.version)
    assert confirmation.totals == {"NS": 875, "EW": 125}
    assert match.status == match.Status.CONFIRMED
    with pytest.raises(Locked):
        sheet.add_record(match, PLAIN_HAND, referee, expected_version=match.version)


def test_a_confirmation_of_an_old_version_is_refused():
    rnd, (match,) = taipan_round()
    referee, other = staff(rnd.tournament)["referees"]
    sheet.add_record(match, PLAIN_HAND, referee, expected_version=match.version)
    seen = match.version
    sheet.end_at_time(match, referee, expected_version=seen, reason="time")
    with pytest.raises(StaleVersion):
        sheet.confirm(match, other, expected_version=seen)


def test_end_at_time_and_resume_play():
    rnd, (match,) = taipan_round()
    referee = staff(rnd.tournament)["referee"]
    sheet.add_record(match, PLAIN_HAND, referee, expected_version=match.version)
    sheet.end_at_time(match, referee, expected_version=match.version, reason="90 minutes")
    assert match.status == match.Status.FINISHED and match.ended == "time"
    assert match.winner_id == match.team_ns_id  # 75 : 25, the higher total wins
    sheet.resume_play(match, referee, expected_version=match.version, reason="clock was wrong")
    assert match.status == match.Status.PLAYING and match.ended == ""
    assert list(AuditEntry.objects.filter(match=match).values_list("action", flat=True).order_by("id")) == ["create", "end", "resume"]


def test_reopen_in_a_closed_round_only_by_an_organiser_and_the_round_reopens():
    rnd, (match,) = taipan_round()
    people = staff(rnd.tournament)
    referee, other = people["referees"]
    sheet.add_record(match, PLAIN_HAND, referee, expected_version=match.version)
    sheet.end_at_time(match, referee, expected_version=match.version, reason="time")
    sheet.confirm(match, other, expected_version=match.version)
    from scoring.draw import rounds
    rounds.close_round(rnd, people["organiser"])
    from django.core.exceptions import PermissionDenied
    with pytest.raises(PermissionDenied):
        sheet.reopen(match, referee, "typo", expected_version=match.version)
    sheet.reopen(match, people["organiser"], "typo", expected_version=match.version)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS and match.status == match.Status.FINISHED


def test_sichuan_table_deals_end_and_confirm():
    rnd, (table,) = table_round("sichuan")
    referee, other = staff(rnd.tournament)["referees"]
    sheet.add_record(table, SICHUAN_SELF_DRAW, referee, expected_version=table.version)
    totals = [s.total for s in table.seats.order_by("seat")]
    assert sum(totals) == 0 and totals[0] > 0
    assert table.status == table.Status.PLAYING
    with pytest.raises(NotAllowed):
        sheet.confirm(table, other, expected_version=table.version)
    sheet.end_at_time(table, referee, expected_version=table.version, reason="time")
    sheet.confirm(table, other, expected_version=table.version, totals=totals)
    assert table.status == table.Status.CONFIRMED
