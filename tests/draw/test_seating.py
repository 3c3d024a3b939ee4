"""Seating rounds of a four-player tournament through the service and the organiser pages
(issue 6 item 4): present players only (late entry, withdrawal), substitutes when the count is not
a multiple of four, repeats avoided and reported, deterministic per seed, draft re-seating."""
from itertools import combinations

import pytest
from django.urls import reverse

from scoring.errors import NotAllowed
from scoring.models import Deal, Game, Membership, Player, Round, Table, TableSeat, Tournament
from scoring.results import tables as svc


@pytest.fixture(autouse=True)
def _english(settings):
    """These tests read English messages; Dutch is the site default (tests/test_i18n.py)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def tournament(n, game=Game.SICHUAN, slug="sichuan-cup"):
    t = Tournament.objects.create(name="Cup", slug=slug, game=game, seed=5)
    for i in range(n):
        Player.objects.create(tournament=t, name=f"P{i:02d}")
    return t


def seated(rnd):
    return [list(t.seats.order_by("seat").values_list("player_id", flat=True)) for t in rnd.tables.order_by("number")]


def close_with_results(rnd, nets=None):
    """Give every table one deal (seat totals as given) and close the round."""
    for table in rnd.tables.all():
        net = nets or [3, 1, -1, -3]
        Deal.objects.create(table=table, number=1, record={}, net=net)
        for s in table.seats.all():
            s.total = net[s.seat]
            s.save()
        table.status = Table.Status.PLAYING
        table.save()
    rnd.status = Round.Status.CLOSED
    rnd.save()


def test_not_a_multiple_of_four_asks_for_substitutes():
    t = tournament(7)
    assert svc.seating_status(t) == {"round_number": 1, "present": 7, "substitutes_needed": 1, "reseat": False}
    with pytest.raises(NotAllowed, match="add 1 substitute"):
        svc.seat_round(t)
    assert not Round.objects.exists()
    Player.objects.create(tournament=t, name="Sub", is_substitute=True)
    outcome = svc.seat_round(t)
    tables = seated(outcome.round)
    assert len(tables) == 2 and all(len(x) == 4 for x in tables)
    assert sorted(p for x in tables for p in x) == sorted(Player.objects.values_list("pk", flat=True))
    assert outcome.round.status == Round.Status.DRAFT and outcome.result.repeat_count == 0


def test_late_entry_and_withdrawal():
    t = tournament(8)
    late = Player.objects.create(tournament=t, name="Late", joined_round=2)
    gone = Player.objects.get(name="P00")
    gone.withdrawn_after_round = 1
    gone.save()
    # round 1: 8 present (the late entry not yet), the withdrawn player still plays round 1
    rnd1 = svc.seat_round(t).round
    ids1 = {p for x in seated(rnd1) for p in x}
    assert late.pk not in ids1 and gone.pk in ids1
    close_with_results(rnd1)
    # round 2: 8 - 1 + 1 = 8 present
    rnd2 = svc.seat_round(t).round
    ids2 = {p for x in seated(rnd2) for p in x}
    assert late.pk in ids2 and gone.pk not in ids2 and len(ids2) == 8


def test_unavoidable_repeats_are_reported_on_the_tables():
    t = tournament(8)
    rnd1 = svc.seat_round(t).round
    close_with_results(rnd1)
    outcome = svc.seat_round(t)
    # 8 players who met in two groups of four: any table of four holds at least two players of
    # one group; the best split is 2 + 2, i.e. 2 repeated pairs per table, 4 in all
    assert outcome.result.repeat_count == 4
    assert len(outcome.repeat_notes) == 4
    notes = [tb.seating_note for tb in outcome.round.tables.order_by("number")]
    assert all(n.count("met 1x before") == 2 for n in notes)


def test_sixteen_players_second_round_without_repeats():
    t = tournament(16)
    rnd1 = svc.seat_round(t).round
    close_with_results(rnd1)
    outcome = svc.seat_round(t)
    assert outcome.result.repeat_count == 0 and outcome.repeat_notes == []
    first = {frozenset(p) for x in seated(rnd1) for p in combinations(x, 2)}
    second = {frozenset(p) for x in seated(outcome.round) for p in combinations(x, 2)}
    assert not first & second


def test_by_score_in_round_two():
    # Round 1: totals 3/1/-1/-3 at each of 4 tables; round 2 seats the four winners together
    # (they never met), then the four seconds, and so on.
    t = tournament(16)
    rnd1 = svc.seat_round(t).round
    close_with_results(rnd1)
    rnd2 = svc.seat_round(t).round
    totals = {s.player_id: s.total for s in TableSeat.objects.filter(table__round=rnd1)}
    for table, expected in zip(seated(rnd2), [3, 1, -1, -3], strict=True):
        assert {totals[p] for p in table} == {expected}


def test_next_round_needs_the_previous_closed_and_draft_can_be_reseated():
    t = tournament(8)
    first = svc.seat_round(t, seed=11)
    again = svc.seat_round(t, seed=11)  # the draft is seated again, same seed, same seating
    assert again.round.pk == first.round.pk and Round.objects.count() == 1
    assert seated(again.round) == [list(x) for x in again.result.tables]
    assert again.result.tables == first.result.tables
    svc.publish_table_round(again.round)
    with pytest.raises(NotAllowed, match="not closed"):
        svc.seat_round(t)
    with pytest.raises(NotAllowed, match="not confirmed"):
        svc.close_table_round(again.round)


def test_team_game_cannot_be_seated():
    t = tournament(4, game=Game.TAIPAN, slug="tp")
    with pytest.raises(NotAllowed):
        svc.seat_round(t)


def test_organiser_pages_register_substitute_and_seat(client, user_factory):
    t = tournament(3)
    org = user_factory("org")
    Membership.objects.create(tournament=t, user=org, role=Membership.Role.ORGANISER)
    client.force_login(org)
    page = client.get(reverse("scoring:players", args=[t.slug])).content.decode()
    assert "Add 1 substitute" in page or "1 substitute" in page
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": ""})
    assert r.status_code == 400 and "substitute" in r.content.decode()
    r = client.post(reverse("scoring:players", args=[t.slug]), {"name": "Sub", "joined_round": 1, "is_substitute": "on"})
    assert r.status_code == 302
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": "3"})
    assert r.status_code == 302 and r["Location"].endswith("/round/1/tables/")
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.seed == 3 and rnd.tables.count() == 1
    # the draft is visible to the organiser, not to the public
    assert client.get(r["Location"]).status_code == 200
    r = client.post(reverse("scoring:round_tables_publish", args=[t.slug, 1]))
    assert r.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    client.logout()
    assert client.get(reverse("scoring:round_tables", args=[t.slug, 1])).status_code == 200
    # withdraw a player after round 1
    p = Player.objects.get(name="P00")
    client.force_login(org)
    r = client.post(reverse("scoring:player_withdraw", args=[t.slug, p.pk]), {"after_round": 1})
    assert r.status_code == 302
    p.refresh_from_db()
    assert p.withdrawn_after_round == 1


def test_draft_tables_hidden_from_public(client):
    t = tournament(4)
    rnd = svc.seat_round(t).round
    assert client.get(reverse("scoring:round_tables", args=[t.slug, rnd.number])).status_code == 404
    table = rnd.tables.first()
    assert client.get(reverse("scoring:table_detail", args=[t.slug, table.pk])).status_code == 404


def test_rebuild_tables_restores_derived_columns():
    from tests.test_tables_views import make_table

    t, table = make_table(Game.TIENGOW, slug="tg-rebuild")
    Deal.objects.create(table=table, number=1, record={"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}, net=[0, 0, 0, 0])
    assert svc.rebuild_tables(t) == 1
    table.refresh_from_db()
    # S-01: [-4, 10, -1, -5]; the banker passes to the last trick's winner
    assert Deal.objects.get(table=table).net == [-4, 10, -1, -5]
    assert [s.total for s in table.seats.order_by("seat")] == [-4, 10, -1, -5]
    assert table.state == {"banker": 1} and table.status == Table.Status.PLAYING


def test_rebuild_scores_command_also_rebuilds_four_player_tables():
    """``manage.py rebuild_scores`` restores tampered four-player derived columns (DESIGN.md 1)."""
    from io import StringIO

    from django.core.management import call_command

    from tests.test_tables_views import make_table

    t, table = make_table(Game.TIENGOW, slug="tg-rebuild-cmd")
    Deal.objects.create(table=table, number=1, record={"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}, net=[9, 9, 9, 9])
    out = StringIO()
    call_command("rebuild_scores", t.slug, stdout=out)
    assert "1 four-player tables" in out.getvalue()
    # Tien Gow case S-01: net [-4, 10, -1, -5]
    assert Deal.objects.get(table=table).net == [-4, 10, -1, -5]
    assert [s.total for s in table.seats.order_by("seat")] == [-4, 10, -1, -5]
