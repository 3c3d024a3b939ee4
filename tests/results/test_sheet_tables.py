"""The result sheet on four-player tables: deals, the end of a table and its confirmation.

Changed on purpose (docs/results.md): a table without a fixed number of deals is finished only
when a referee ends it at the time limit, and only a finished table can be confirmed (was: any
table with deals). Values: Taiwanese T01 (tests/web/entry_data.py, from the seed004 worked
example: S self-draws 6 tai, S +47, the dealer E -17, the others -15), Tien Gow S-01 and a
Taiwanese draw (nobody pays)."""
import pytest

from scoring.errors import Locked, NotAllowed
from scoring.models import AuditEntry, Round, Table
from scoring.results import sheet
from tests.factories import staff, table_round

pytestmark = pytest.mark.django_db

#: T01 as the Taiwanese engine reads it (what the entry form builds from tests/web/entry_data.T01).
T01 = {"seat": "S", "flowers": [], "melds": ["pung 555z claimed"], "concealed": "123p 456p 789p 222p 99p",
       "win": {"tile": "6p", "how": "self"}, "flags": []}
T01_NET = [-17, 47, -15, -15]
DRAW = {"draw": True}
#: Tien Gow S-01: banker index 0, columns 2/3/3/0, index 1 wins the last trick: -4, +10, -1, -5.
TG_S01 = {"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}


def table_with_staff(game="taiwanese", **tournament):
    rnd, (table,) = table_round(game, **tournament)
    return table, staff(rnd.tournament, referees=3)


def totals(table):
    return [s.total for s in table.seats.order_by("seat")]


def test_four_player_table_ended_at_the_time_limit_then_confirmed():
    table, people = table_with_staff()
    ref, other, _ = people["referees"]
    sheet.add_record(table, T01, ref, expected_version=table.version)
    assert totals(table) == T01_NET and table.status == Table.Status.PLAYING
    assert table.state == {"dealer": "S", "streak": 0, "round_wind": "E"}
    table.round.refresh_from_db()
    assert table.round.status == Round.Status.IN_PROGRESS  # the first deal starts a four-player round too
    # playing, not finished: nothing to confirm yet
    with pytest.raises(NotAllowed, match="finished"):
        sheet.confirm(table, other, expected_version=table.version)
    sheet.end_at_time(table, ref, expected_version=table.version, reason="the round's time is up")
    assert table.status == Table.Status.FINISHED and table.ended == Table.Ended.TIME
    assert totals(table) == T01_NET  # the totals so far are the result
    with pytest.raises(Locked):
        sheet.add_record(table, DRAW, ref)
    with pytest.raises(NotAllowed) as err:
        sheet.confirm(table, other, expected_version=table.version, totals=[-17, 47, -15, -16])
    assert err.value.field == "totals"
    confirmation = sheet.confirm(table, other, expected_version=table.version, totals=T01_NET)
    assert confirmation.totals == T01_NET and confirmation.active
    assert table.status == Table.Status.CONFIRMED
    assert list(AuditEntry.objects.filter(table=table).order_by("id").values_list("action", flat=True)) == ["create", "end", "confirm"]
    with pytest.raises(Locked):
        sheet.edit_record(table, 1, DRAW, ref, reason="typo")


def test_fixed_hands_table_is_confirmed_only_with_all_its_deals():
    """docs/tournaments.md: "N hands per round"; with 1 of its 4 deals a table is playing and cannot be
    confirmed; with the 4th it is finished by itself and can."""
    table, people = table_with_staff("tiengow", round_format="fixed_hands", hands_per_round=4)
    ref, other, _ = people["referees"]
    sheet.add_record(table, TG_S01, ref)
    assert totals(table) == [-4, 10, -1, -5] and table.status == Table.Status.PLAYING
    with pytest.raises(NotAllowed, match="Only a finished result can be confirmed"):
        sheet.confirm(table, other)
    for _ in range(3):
        sheet.add_record(table, TG_S01, ref)
    assert table.status == Table.Status.FINISHED and table.ended == Table.Ended.TARGET
    with pytest.raises(Locked):
        sheet.add_record(table, TG_S01, ref)  # a fifth deal
    sheet.confirm(table, other)
    assert table.status == Table.Status.CONFIRMED


def test_deleting_the_last_deal_of_a_fixed_hands_table_reopens_play():
    table, people = table_with_staff(round_format="fixed_hands", hands_per_round=2)
    ref = people["referee"]
    sheet.add_record(table, DRAW, ref)
    sheet.add_record(table, DRAW, ref)
    assert table.status == Table.Status.FINISHED
    sheet.delete_record(table, 2, ref, reason="entered twice")
    assert table.status == Table.Status.PLAYING and table.ended == ""
    # a draw keeps the dealer and counts the streak (docs/engines/taiwanese.md): one draw left, streak 1
    assert table.state == {"dealer": "E", "streak": 1, "round_wind": "E"}


def test_edit_of_a_deal_carries_the_state_to_later_deals():
    """T01 won by S (not the dealer) passes the deal to S; a draw then keeps S with streak 1.
    Changed to a draw, deal 1 keeps E as dealer: E deals both, streak 2."""
    table, people = table_with_staff()
    ref = people["referee"]
    sheet.add_record(table, T01, ref)
    sheet.add_record(table, DRAW, ref)
    assert table.state == {"dealer": "S", "streak": 1, "round_wind": "E"}
    sheet.edit_record(table, 1, DRAW, ref, expected_version=table.version, reason="nobody won")
    assert totals(table) == [0, 0, 0, 0]
    assert table.state == {"dealer": "E", "streak": 2, "round_wind": "E"}
    assert [d.record.get("dealer") for d in table.deals.order_by("number")] == ["E", "E"]
