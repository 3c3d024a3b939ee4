"""List pages of a four-player tournament answer in a fixed number of queries whatever the number
of tables (the player standings and a round's tables page), with the values the tables hold.

Changed on purpose (docs/results.md): four-player standings count finished and confirmed tables
only, so the field's tables are finished here (they were playing). The standings are cached on a
result-state key (``scoring.standings.cache``) instead of signals and a fingerprint: reading that
key costs queries of its own, so the fixed number is higher than the old two, and the round page
has a query for its links to the other rounds."""
import pytest
from django.urls import reverse

from scoring.models import Table
from tests.factories import PlayerFactory, RoundFactory, TableFactory, TournamentFactory

pytestmark = pytest.mark.django_db

#: Totals per seat at every table of the field (they sum to zero, as deals do).
SEAT_TOTALS = [10, -4, -1, -5]


def field_with_results(n_tables, slug):
    """A Tien Gow tournament ("Field") whose round 1 has ``n_tables`` finished tables, seat totals
    :data:`SEAT_TOTALS`, players ``P<table>-<seat>``."""
    t = TournamentFactory(name="Field", slug=slug, game="tiengow")
    rnd = RoundFactory(tournament=t, number=1)
    for k in range(n_tables):
        table = TableFactory(round=rnd, number=k + 1, status=Table.Status.FINISHED,
                             players=[PlayerFactory(tournament=t, name=f"P{k}-{seat}") for seat in range(4)])
        for seat in table.seats.all():
            seat.total = SEAT_TOTALS[seat.seat]
            seat.save()
    return t


@pytest.mark.parametrize("n_tables", [1, 5])
def test_standings_fixed_queries(client, django_assert_num_queries, n_tables):
    t = field_with_results(n_tables, f"field{n_tables}")
    url = reverse("scoring:player_standings", args=[t.slug])
    # the tournament with the page's state counters (one query, the ETag); the standings' state
    # key (one query, read only when the page is rendered); the standings; the played rounds for
    # the round links
    with django_assert_num_queries(4):
        r = client.get(url)
    assert r.status_code == 200
    rows = [row.record for row in r.context["table"].rows]
    assert [row.total for row in rows[:n_tables]] == [10] * n_tables
    assert rows[0].rank == 1 and rows[n_tables - 1].rank == 1  # equal totals share the rank
    assert rows[n_tables].rank == n_tables + 1 and rows[n_tables].total == -1


@pytest.mark.parametrize("n_tables, n_rounds", [(1, 1), (5, 1), (5, 3)])
def test_round_tables_page_fixed_queries(client, django_assert_num_queries, n_tables, n_rounds):
    t = field_with_results(n_tables, f"rt{n_tables}-{n_rounds}")
    for number in range(2, n_rounds + 1):
        RoundFactory(tournament=t, number=number)
    url = reverse("scoring:round_tables", args=[t.slug, 1])
    # tournament, the page's state (conditional GET: one compiled aggregate), round, tables, seats
    # with players (prefetch), the rounds for the round links
    with django_assert_num_queries(6):
        r = client.get(url)
    assert r.status_code == 200
    assert r.content.decode().count("P0-0") == 1
