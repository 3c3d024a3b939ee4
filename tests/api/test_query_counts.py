"""The list endpoints read a fixed number of queries whatever the number of tables, rounds or
tournaments (``django_assert_max_num_queries``)."""
from __future__ import annotations

import pytest

from tests.api.conftest import api_url, client_for
from tests.factories import TableFactory, played_taipan_tournament, table_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("teams", [8, 32])
def test_taipan_reads_do_not_grow_with_the_field(django_assert_max_num_queries, teams):
    t = played_taipan_tournament(teams, 3)
    c = client_for(None)
    with django_assert_max_num_queries(6):
        assert c.get(api_url("round-detail", t.slug, 2)).status_code == 200
    with django_assert_max_num_queries(8):
        assert c.get(api_url("standings", t.slug)).status_code == 200
    with django_assert_max_num_queries(6):
        assert c.get(api_url("tournament-detail", t.slug)).status_code == 200
    with django_assert_max_num_queries(3):
        assert c.get(api_url("tournament-list")).status_code == 200


@pytest.mark.parametrize("tables", [1, 6])
def test_four_player_round_does_not_grow_with_its_tables(django_assert_max_num_queries, tables):
    rnd, _ = table_round("sichuan", tables=tables)
    assert TableFactory._meta.model.objects.filter(round=rnd).count() == tables
    with django_assert_max_num_queries(6):
        assert client_for(None).get(api_url("round-detail", rnd.tournament.slug, 1)).status_code == 200
