"""Four-player standings by total points (issue 6 item 4): a player who played no table has no
total yet and is listed after everyone who played, without a rank, so 0 does not beat negative
totals.

Changed on purpose (docs/results.md): only finished and confirmed tables count, so the played
table is finished here (it was playing); a playing table counts for nobody."""
import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import Round, Table
from scoring.standings import player_standings
from tests.factories import PlayerFactory, RoundFactory, TableFactory, table_round

pytestmark = pytest.mark.django_db


def test_players_without_a_table_are_listed_last_unranked(client, settings):
    settings.LANGUAGE_CODE = "en"
    rnd, (table,) = table_round("tiengow", names=["Anna", "Bart", "Cees", "Dirk"])
    t = rnd.tournament
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    for seat, total in zip(table.seats.order_by("seat"), [10, -4, -1, -5], strict=True):
        seat.total = total
        seat.save()
    PlayerFactory(tournament=t, name="Aaron")  # registered late, no table yet
    seated_idle = PlayerFactory(tournament=t, name="Zed")
    rnd2 = RoundFactory(tournament=t, number=2, status=Round.Status.PUBLISHED)
    TableFactory(round=rnd2, number=1, players=[seated_idle])  # no deals: not played
    rows = player_standings(t)
    assert [(r.name, r.rank, r.total) for r in rows] == [
        ("Anna", 1, 10),
        ("Cees", 2, -1),
        ("Bart", 3, -4),
        ("Dirk", 4, -5),
        ("Aaron", None, 0),
        ("Zed", None, 0),
    ]
    with translation.override("en"):
        page = client.get(reverse("scoring:player_standings", args=[t.slug])).content.decode()
    assert page.index("Dirk") < page.index("Aaron")
    assert "listed last, without a rank" in page


def test_a_playing_table_counts_for_nobody():
    rnd, (table,) = table_round("tiengow", names=["Anna", "Bart", "Cees", "Dirk"])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    for seat, total in zip(table.seats.order_by("seat"), [10, -4, -1, -5], strict=True):
        seat.total = total
        seat.save()
    rows = player_standings(rnd.tournament)
    assert all(r.rank is None and r.total == 0 and r.played == 0 for r in rows)
