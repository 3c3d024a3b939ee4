"""The polled pages' state queries compiled once and run with other ids (``scoring.queries``):
the rows are those of the same query built by the ORM for the ids given, a result or round of
another tournament is never read, and a value the SQL does not carry is refused."""
import pytest

from scoring.kinds import MATCHES, TABLES
from scoring.models import Round
from scoring.queries import CompiledQuery
from scoring.standings.cache import state_key
from scoring.web.conditional import result_state, round_state
from tests.factories import RoundFactory, table_round, taipan_round

pytestmark = pytest.mark.django_db


def test_rows_are_the_orm_rows_for_every_id():
    rounds = [taipan_round(tables=n)[0] for n in (1, 2, 3)]
    query = CompiledQuery(lambda tid, shape: Round.objects.filter(tournament_id=tid).order_by()
                          .values_list("tournament_id", "number"))
    for rnd in rounds:
        assert query.rows([rnd.tournament_id], ("any",)) == [(rnd.tournament_id, 1)]
    assert query.rows([rounds[-1].tournament_id + 1000], ("any",)) == []


def test_a_result_or_round_of_another_tournament_is_not_read():
    (rnd_a, (match_a,)), (rnd_b, _) = taipan_round(), taipan_round()
    a, b = rnd_a.tournament, rnd_b.tournament
    assert result_state(None, a, match_a.pk, kind=MATCHES)[0] == match_a.version
    assert result_state(None, b, match_a.pk, kind=MATCHES) is None
    assert result_state(None, a, match_a.pk, kind=TABLES) is None  # another kind of result
    assert round_state(None, a, 1)[0] == rnd_a.pk and round_state(None, b, 1)[0] == rnd_b.pk
    assert round_state(None, a, 2) is None


def test_the_state_follows_the_data_of_each_tournament():
    (rnd_a, (match_a,)), (rnd_b, _) = taipan_round(), taipan_round()
    a, b = rnd_a.tournament, rnd_b.tournament
    before_a, before_b = round_state(None, a, 1), round_state(None, b, 1)
    key_b = state_key(b, "teams")
    match_a.team_ns = match_a.team_ew
    match_a.save()  # a pending match's pairing changed: its round's page counter moved
    assert round_state(None, a, 1) != before_a
    assert round_state(None, b, 1) == before_b and state_key(b, "teams") == key_b
    RoundFactory(tournament=a, number=2, status=Round.Status.DRAFT)
    assert round_state(None, a, 2) is None  # a draft is left to the view


def test_four_player_rounds_compile_their_own_query():
    rnd, (table,) = table_round("sichuan")
    state = round_state(None, rnd.tournament, 1)
    assert state[0] == rnd.pk and state[1] == Round.Status.PUBLISHED
    assert result_state(None, rnd.tournament, table.pk, kind=TABLES)[0] == table.version


def test_a_value_the_sql_does_not_carry_is_refused():
    query = CompiledQuery(lambda tid: Round.objects.filter(number=1).values_list("pk"))
    with pytest.raises(ValueError):
        query.rows([5])
