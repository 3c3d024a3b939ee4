"""Management commands: load_demo, pair_round, standings, rebuild_scores, export_tournament /
import_tournament (issue 2 item 10, issue 4 item 6); rebuilding derived columns of matches and
four-player tables (docs/architecture.md: derived data can always be rebuilt from the records)."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from scoring.games import registry
from scoring.io.demo import HANDS_FILE, real_hand_records
from scoring.models import Deal, Hand, Match, Membership, Round, Table, Tournament
from scoring.results import sheet
from tests.factories import DEALS, TeamFactory, TournamentFactory, play, staff, table_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_real_hands_become_records_with_the_same_totals():
    """Every real hand goes through check-totals; scoring the record gives the recorded totals."""
    real = json.loads(HANDS_FILE.read_text(encoding="utf-8"))["hands"]
    records = real_hand_records()
    assert len(records) == len(real) == 30
    t = Tournament(rules={"preset": "nskt"})
    adapter = registry.get("taipan")
    for hand, record in zip(real, records, strict=True):
        outcome = adapter.evaluate_record(record, adapter.initial_state(), t)
        assert outcome.scores == (hand["totals"]["NS"], hand["totals"]["EW"])


def test_load_demo_end_to_end(tmp_path):
    out = run("load_demo")
    assert "organiser" in out and "nskt-organiser-demo" in out and "nskt-referee-demo" in out
    t = Tournament.objects.get(slug="nskt-demo")
    assert t.name == "NSKT demo" and t.teams.count() == 16
    assert len(set(t.teams.values_list("affiliation", flat=True))) == 8
    assert list(t.rounds.order_by("number").values_list("number", "status")) == [
        (1, "closed"), (2, "closed"), (3, "closed"), (4, "published")]
    played = Match.objects.filter(round__tournament=t, round__number__lte=3)
    assert played.count() == 24 and set(played.values_list("status", flat=True)) == {"confirmed"}
    for m in played:
        assert max(m.total_ns, m.total_ew) >= 800 and m.total_ns != m.total_ew and m.ended == "target"
    # the hands replay the real file in order, cycling: the first match's first hands are the first real hands
    records = real_hand_records()
    first = Match.objects.get(round__tournament=t, round__number=1, table=1)
    n = first.hands.count()
    assert [h.record for h in first.hands.order_by("number")] == records[:n]
    total_hands = Hand.objects.filter(match__round__tournament=t).count()
    assert total_hands > len(records)  # cycled
    # no rematches in 4 rounds
    pairs = [frozenset(p) for p in Match.objects.filter(round__tournament=t).values_list("team_ns", "team_ew")]
    assert len(pairs) == len(set(pairs)) == 32
    # logins and roles
    users = get_user_model().objects
    assert users.get(username="organiser").check_password("nskt-organiser-demo")
    assert Membership.objects.get(tournament=t, user__username="referee").role == "referee"
    assert Membership.objects.get(tournament=t, user__username="organiser").role == "organiser"
    # --if-empty leaves it alone but prints the logins
    out = run("load_demo", "--if-empty")
    assert "already exists" in out and "nskt-referee-demo" in out
    assert Tournament.objects.get(slug="nskt-demo").pk == t.pk

    # standings command: JSON and CSV agree with the services
    rows = json.loads(run("standings", "nskt-demo", "--format", "json"))
    assert len(rows) == 16 and rows[0]["rank"] == 1 and sum(r["match_points"] for r in rows) == 48
    csv = run("standings", "nskt-demo", "--format", "csv").splitlines()
    assert csv[0].startswith("Rank,Team,Players") and len(csv) == 17
    assert csv[1].split(",")[1] == rows[0]["name"]
    # after a round: after round 2 of the 3 played, 8 matches a round at 2 match points each; a
    # round the demo does not have (9), or has not played (4: published, nothing entered), is refused
    after2 = json.loads(run("standings", "nskt-demo", "--round", "2"))
    assert sum(r["match_points"] for r in after2) == 2 * 8 * 2
    for fmt in ("json", "csv"):
        with pytest.raises(CommandError, match=r"Round 9 of 'nskt-demo' does not exist: standings exist after round 1, 2, 3\."):
            run("standings", "nskt-demo", "--round", "9", "--format", fmt)
    with pytest.raises(CommandError, match=r"Round 4 of 'nskt-demo' is not played yet: standings exist after round 1, 2, 3\."):
        run("standings", "nskt-demo", "--round", "4")

    # rebuild_scores restores tampered derived columns
    m = Match.objects.get(round__tournament=t, round__number=2, table=3)
    good = (m.total_ns, m.total_ew, m.points_ns, m.points_ew, m.winner_id)
    hand = m.hands.get(number=1)
    good_hand = (hand.ns, hand.ew)
    Match.objects.filter(pk=m.pk).update(total_ns=5, total_ew=5, points_ns=1, points_ew=1, winner=None)
    Hand.objects.filter(pk=hand.pk).update(ns=0, ew=0)
    assert "Recomputed 32 matches" in run("rebuild_scores")
    m.refresh_from_db()
    hand.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.points_ns, m.points_ew, m.winner_id) == good and (hand.ns, hand.ew) == good_hand
    assert m.status == "confirmed"

    # export -> import -> export: byte-identical
    first_file = tmp_path / "one.json"
    run("export_tournament", "nskt-demo", "--output", str(first_file))
    text = first_file.read_text(encoding="utf-8")
    assert text == run("export_tournament", "nskt-demo")
    out = run("import_tournament", str(first_file), "--slug", "copy")
    assert "16 teams, 4 rounds" in out
    data = json.loads(text)
    data["slug"] = "copy"
    assert run("export_tournament", "copy") == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    with pytest.raises(CommandError):
        run("import_tournament", str(first_file))  # slug exists

    # pair_round: round 4 is not done yet
    with pytest.raises(CommandError, match="not confirmed"):
        run("pair_round", "nskt-demo")


def test_pair_round_prints_tables():
    t = TournamentFactory(name="T pr", slug="pr")
    TeamFactory.create_batch(5, tournament=t)
    out = run("pair_round", "pr", "--seed", "3")
    lines = out.splitlines()
    assert lines[0] == "T pr - round 1 (draft)"
    assert len(lines) == 4 and "BYE" in lines[-1]
    assert Round.objects.get(tournament=t).status == "draft"
    with pytest.raises(CommandError):
        run("pair_round", "nope")


def test_demo_organiser_may_create_a_tournament(client):
    call_command("load_demo", stdout=StringIO())
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.is_staff and not organiser.is_superuser
    client.force_login(organiser)
    assert client.get(reverse("scoring:tournament_create")).status_code == 200
    client.force_login(get_user_model().objects.get(username="referee"))
    assert client.get(reverse("scoring:tournament_create")).status_code == 403


#: Tien Gow case S-01 as a stored deal: banker seat 1 settles columns 2/3/3/0, seat 2 takes the
#: last trick with an ordinary group: net [-4, 10, -1, -5], the bank passes to seat 2.
TIEN_GOW_SETTLE = DEALS["tiengow"][0]


def test_rebuild_tables_restores_derived_columns():
    rnd, (table,) = table_round("tiengow")
    Deal.objects.create(table=table, number=1, record=TIEN_GOW_SETTLE, net=[0, 0, 0, 0])
    assert sheet.rebuild(Table.objects.filter(round__tournament=rnd.tournament)) == 1
    table.refresh_from_db()
    # S-01: [-4, 10, -1, -5]; the banker passes to the last trick's winner
    assert Deal.objects.get(table=table).net == [-4, 10, -1, -5]
    assert [s.total for s in table.seats.order_by("seat")] == [-4, 10, -1, -5]
    assert table.state == {"banker": 1} and table.status == Table.Status.PLAYING


def test_rebuild_scores_command_also_rebuilds_four_player_tables():
    """``manage.py rebuild_scores`` restores tampered four-player derived columns (docs/architecture.md)."""
    rnd, (table,) = table_round("tiengow")
    Deal.objects.create(table=table, number=1, record=TIEN_GOW_SETTLE, net=[9, 9, 9, 9])
    out = run("rebuild_scores", rnd.tournament.slug)
    assert "1 four-player tables" in out
    # Tien Gow case S-01: net [-4, 10, -1, -5]
    assert Deal.objects.get(table=table).net == [-4, 10, -1, -5]
    assert [s.total for s in table.seats.order_by("seat")] == [-4, 10, -1, -5]


def test_rebuild_keeps_a_confirmed_table_confirmed():
    """Rebuilding changes derived numbers, never the confirmation."""
    rnd, (table,) = table_round("sichuan")
    referee, confirmer = staff(rnd.tournament)["referees"]
    play(table, [DEALS["sichuan"][0]], referee, end_reason="time", confirmer=confirmer)
    table.seats.update(total=0)
    assert "Recomputed 0 matches and 1 four-player tables." in run("rebuild_scores")
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED and table.ended == Table.Ended.TIME
    assert [s.total for s in table.seats.order_by("seat")] == DEALS["sichuan"][1]


def test_standings_command_of_a_four_player_tournament():
    rnd, (table,) = table_round("taiwanese")
    referee, confirmer = staff(rnd.tournament)["referees"]
    play(table, [DEALS["taiwanese"][0]], referee, end_reason="time", confirmer=confirmer)
    rows = json.loads(run("standings", rnd.tournament.slug, "--format", "json"))
    south = table.seats.get(seat=1).player.name
    # South self-drew: +47, the others -17 (East, the dealer) and -15
    assert (rows[0]["rank"], rows[0]["name"], rows[0]["total"]) == (1, south, 47)
    assert [r["total"] for r in rows] == [47, -15, -15, -17]
    csv = run("standings", rnd.tournament.slug, "--format", "csv").splitlines()
    assert csv[0].startswith("Rank,Player") and len(csv) == 5


def test_standings_command_refuses_a_round_that_is_not_played():
    """``--round N`` of a draft round, or of a published round without a finished result, is
    refused (CommandError) rather than answered with the current standings."""
    rnd, (table,) = table_round("taiwanese")
    referee, confirmer = staff(rnd.tournament)["referees"]
    slug = rnd.tournament.slug
    with pytest.raises(CommandError, match=r"Round 1 of '.+' is not played yet: no round is played yet\."):
        run("standings", slug, "--round", "1")
    play(table, [DEALS["taiwanese"][0]], referee, end_reason="time", confirmer=confirmer)
    assert len(json.loads(run("standings", slug, "--round", "1"))) == 4
    Round.objects.create(tournament=rnd.tournament, number=2, status=Round.Status.DRAFT)
    with pytest.raises(CommandError, match=r"Round 2 of '.+' is not played yet: standings exist after round 1\."):
        run("standings", slug, "--round", "2", "--format", "csv")
    with pytest.raises(CommandError, match="Round 0 .* does not exist"):
        run("standings", slug, "--round", "0")
