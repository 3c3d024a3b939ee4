"""Tournament JSON validated against a declared schema (issue 12 item 3).

- export -> import -> export is byte-identical for all four games (the slug aside), through the
  service and through the commands;
- the hostile files of ``tests/io/hostile/`` (derived from real exports by ``make.py``: the 27
  kinds the issue lists, more Tai Pan ones and four-player ones) are all refused by
  ``import_tournament``: exit status 1, every problem with its JSON path, no traceback, nothing
  created (no tournament, entrant, round, result, account or role);
- accounts are never created and a superuser never gets a role: ``members`` and ``confirmed_by``
  naming a missing account or a superuser are dropped with a warning; ``--organiser`` makes an
  existing account the organiser;
- the JSON backup of a four-player tournament is offered and downloads its players and tables.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scoring.io.demo import DEMO_SLUG
from scoring.io.tournament_json import ImportRefused, delete_tournament, dumps, export_tournament, load_tournament
from scoring.models import (
    Confirmation,
    Deal,
    Hand,
    Match,
    Membership,
    Player,
    Round,
    Table,
    TableSeat,
    Team,
    Tournament,
)
from tests.factories import UserFactory
from tests.games.kits import kit
from tests.io.hostile import make
from tests.io.played import USERNAMES, played

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
HOSTILE = Path(make.HERE)

#: The first JSON path each hostile file is refused at (the reason it is hostile).
EXPECTED = {
    "01-deep-nesting.json": "$",
    "02-huge-seed.json": "$.seed",
    "03-non-numeric-seed.json": "$.seed",
    "04-round-number-one-as-text.json": "$.rounds[0].number",
    "05-negative-round-number.json": "$.rounds[1].number",
    "06-duplicate-round.json": "$.rounds[2].number",
    "07-teams-as-a-string.json": "$.teams",
    "08-team-without-a-name.json": "$.teams[1].name",
    "09-team-name-null.json": "$.teams[1].name",
    "10-invalid-date.json": "$.starts_on",
    "11-negative-table.json": "$.rounds[0].matches[0].table",
    "12-negative-joined-round.json": "$.teams[0].joined_round",
    "13-team-plays-itself.json": "$.rounds[1].matches[0].ew",
    "14-team-twice-in-a-round.json": "$.rounds[1].matches[1].ew",
    "15-game-chess.json": "$.game",
    "16-bogus-tournament-status.json": "$.status",
    "17-bogus-round-status.json": "$.rounds[0].status",
    "18-bogus-tiebreaks.json": "$.tiebreaks[1]",
    "19-slug-path-traversal.json": "$.slug",
    "20-slug-bad-characters.json": "$.slug",
    "21-unknown-preset.json": "$.rules.preset",
    "22-hand-breaks-the-rules.json": "$.rounds[1].matches[0].hands[0].card_points",
    "23-unknown-team-in-a-match.json": "$.rounds[1].matches[0].ew",
    "24-bye-with-hands.json": "$.rounds[0].matches[1].hands",
    "25-closed-round-unconfirmed.json": "$.rounds[0].matches[0].confirmed_by",
    "26-confirmation-of-unfinished-match.json": "$.rounds[1].matches[0].confirmed_by",
    "27-confirmed-by-not-a-username.json": "$.rounds[0].matches[0].confirmed_by",
    "28-three-players.json": "$.teams[0].players",
    "29-nul-byte-in-a-name.json": "$.teams[0].name",
    "30-zero-width-name.json": "$.teams[1].name",
    "31-case-variant-duplicate-team.json": "$.teams[1].name",
    "32-name-too-long.json": "$.teams[0].players[0]",
    "33-not-json.json": "$",
    "34-top-level-array.json": "$",
    "35-unknown-field.json": "$.is_superuser",
    "36-ended-target-but-unfinished.json": "$.rounds[1].matches[0].ended",
    "37-seed-as-text-number.json": "$.teams[0].seed",
    "38-boolean-as-text.json": "$.blind_confirmation",
    "39-plays-after-withdrawal.json": "$.rounds[1].matches[0].ns",
    "40-hands-per-round-zero.json": "$.hands_per_round",
    "41-draft-round-not-last.json": "$.rounds[0].status",
    "42-registration-with-played-rounds.json": "$.status",
    "43-finished-with-open-round.json": "$.status",
    "44-huge-table-number.json": "$.rounds[0].matches[0].table",
    "45-hand-is-not-an-object.json": "$.rounds[1].matches[0].hands[0]",
    "46-players-in-a-taipan-file.json": "$.players",
    "47-rules-override-out-of-range.json": "$.rules.target",
    "48-format-version-2.json": "$.format",
    "49-member-role-superuser.json": "$.members[0].role",
    "50-accent-variant-duplicate-team.json": "$.teams[1].name",
    "51-unknown-field-in-a-hand.json": "$.rounds[1].matches[0].hands[0].evil",
    "52-long-string-in-a-hand.json": "$.rounds[1].matches[0].hands[0]",
    "53-hand-too-large.json": "$.rounds[1].matches[0].hands[0]",
    "54-hand-nested-too-deep.json": "$.rounds[1].matches[0].hands[0]",
    "55-long-string-in-the-rules.json": "$.rules",
    "fp-01-sichuan-teams-instead-of-players.json": "$.teams",
    "fp-02-sichuan-three-seats.json": "$.rounds[1].tables[0].seats",
    "fp-03-sichuan-same-player-twice-at-a-table.json": "$.rounds[1].tables[0].seats[1]",
    "fp-04-sichuan-player-twice-in-a-round.json": "$.rounds[1].tables[1].seats[0]",
    "fp-05-sichuan-unknown-player.json": "$.rounds[1].tables[0].seats[2]",
    "fp-06-sichuan-deal-breaks-the-rules.json": "$.rounds[1].tables[0].deals[0].events[0].hand.concealed",
    "fp-07-taiwanese-bad-seat-in-a-deal.json": "$.rounds[1].tables[0].deals[0].seat",
    "fp-08-tiengow-columns-do-not-add-up.json": "$.rounds[1].tables[0].deals[0].columns",
    "fp-09-tiengow-matches-instead-of-tables.json": "$.rounds[1].matches",
    "fp-10-taiwanese-duplicate-table-number.json": "$.rounds[1].tables[1].table",
    "fp-11-sichuan-confirmed-but-playing.json": "$.rounds[1].tables[0].confirmed_by",
    "fp-12-tiengow-substitute-as-text.json": "$.players[8].substitute",
    "fp-13-sichuan-withdrawn-player-seated.json": "$.rounds[1].tables[0].seats[1]",
    "fp-14-taiwanese-closed-round-unconfirmed.json": "$.rounds[0].tables[1].confirmed_by",
    "fp-15-tiengow-deal-is-a-list.json": "$.rounds[0].tables[0].deals[0]",
    "fp-16-sichuan-ended-time-but-no-end.json": "$.rounds[1].tables[1].ended",
    "fp-17-sichuan-unknown-field-in-a-deal.json": "$.rounds[1].tables[0].deals[0].evil",
    "fp-18-sichuan-unknown-field-in-a-winning-hand.json": "$.rounds[1].tables[0].deals[0].events[0].hand.win.evil",
    "fp-19-tiengow-unknown-field-in-the-last-trick.json": "$.rounds[1].tables[0].deals[0].last_trick.evil",
    "fp-20-taiwanese-unknown-field-in-a-deal.json": "$.rounds[1].tables[0].deals[0].evil",
    "fp-21-tiengow-long-string-in-a-deal.json": "$.rounds[1].tables[0].deals[0]",}

MODELS = (Tournament, Membership, Player, Team, Round, Match, Hand, Table, TableSeat, Deal, Confirmation, get_user_model())


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


@pytest.mark.every_game
def test_export_import_export_is_byte_identical(game):
    t = played(game)
    first = dumps(export_tournament(t))
    copy = load_tournament(first, slug=f"copy-{game}")
    assert copy.warnings == []
    again = dumps(export_tournament(copy.tournament))
    assert again == first.replace(f'"slug": "{t.slug}"', f'"slug": "copy-{game}"')
    # and with the original gone, under its own slug: exactly the same text
    delete_tournament(t)
    assert dumps(export_tournament(load_tournament(first).tournament)) == first


@pytest.mark.parametrize("game", ["taipan", "tiengow"])
def test_round_trip_through_the_commands(game, tmp_path):
    t = played(game)
    path = tmp_path / "export.json"
    call_command("export_tournament", t.slug, "--output", str(path))
    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", "copied", stdout=out, stderr=io.StringIO())
    assert "Imported" in out.getvalue()
    again = io.StringIO()
    call_command("export_tournament", "copied", stdout=again)
    assert again.getvalue() == path.read_text(encoding="utf-8").replace(f'"slug": "{t.slug}"', '"slug": "copied"')


def test_four_player_import_rebuilds_tables_and_confirmations():
    t = played("taiwanese")
    text = dumps(export_tournament(t))
    copy = load_tournament(text, slug="tw-copy").tournament
    tables = Table.objects.filter(round__tournament=copy).order_by("round__number", "number")
    assert [tb.status for tb in tables] == ["confirmed", "confirmed", "playing", "finished"]
    first = tables[0]
    assert [s.total for s in first.seats.order_by("seat")] == [-17, 47, -15, -15]
    assert Confirmation.objects.get(table=first).totals == [-17, 47, -15, -15]
    assert tables[3].ended == "time"
    assert Round.objects.get(tournament=copy, number=1).status == "closed"


@pytest.mark.every_game
def test_base_files_are_real_exports(game):
    """The hostile files derive from these: each game's kit keeps the export of its played
    tournament (``tests/games/<game>/export.json``). ``REFRESH_EXPORTS=1`` writes it (a new game's,
    or after a deliberate change of the format); a test run otherwise never writes it."""
    text = dumps(export_tournament(played(game)))
    if os.environ.get("REFRESH_EXPORTS") == "1":
        kit(game).export.write_text(text, encoding="utf-8")
    assert text == kit(game).export.read_text(encoding="utf-8")


@pytest.mark.every_game
def test_base_files_import_cleanly(game):
    for username in USERNAMES:
        UserFactory(username=username)
    imported = load_tournament(kit(game).export.read_bytes())
    assert imported.warnings == []


def test_hostile_files_are_up_to_date():
    on_disk = {p.name for p in HOSTILE.glob("*.json")}
    assert on_disk == set(make.FILES) == set(EXPECTED)
    for name, build in make.FILES.items():
        assert (HOSTILE / name).read_text(encoding="utf-8") == build(), name
    assert len([n for n in make.FILES if not n.startswith("fp-")]) >= 27
    assert len([n for n in make.FILES if n.startswith("fp-")]) >= 10


@pytest.fixture
def accounts():
    """The accounts the base files name, and a superuser."""
    users = [UserFactory(username=u) for u in USERNAMES]
    get_user_model().objects.create_superuser("root", password="x-Secret-123")
    return users


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_hostile_file_is_refused(name, accounts):
    before = counts()
    err, out = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(HOSTILE / name), stdout=out, stderr=err)
    assert "nothing was created" in str(refused.value)
    lines = err.getvalue().splitlines()
    assert lines and all(line.startswith(("$", "--")) for line in lines), lines
    assert lines[0].startswith(EXPECTED[name] + ":"), (name, lines)
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""
    assert counts() == before


def test_refused_files_exit_1_without_a_traceback(tmp_path):
    """As an organiser would run it: a few hostile files through manage.py (exit status 1)."""
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PATH": "/usr/bin:/bin",
           "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=300,
                   capture_output=True)
    for name in ("01-deep-nesting.json", "13-team-plays-itself.json", "33-not-json.json", "fp-06-sichuan-deal-breaks-the-rules.json"):
        proc = subprocess.run([sys.executable, "manage.py", "import_tournament", str(HOSTILE / name)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 1, (name, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stderr.startswith(EXPECTED[name] + ":"), (name, proc.stderr)


def _base(game="taipan") -> dict:
    return json.loads(kit(game).export.read_text(encoding="utf-8"))


def test_confirmed_by_a_superuser_or_a_missing_account_is_dropped(accounts, tmp_path):
    data = _base()
    data["members"] = [{"username": "root", "role": "organiser"}, {"username": "newbie", "role": "referee"},
                       {"username": "ref", "role": "referee"}]
    data["rounds"][0]["matches"][0]["confirmed_by"] = "root"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    users_before = get_user_model().objects.count()
    err = io.StringIO()
    call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=err)
    t = Tournament.objects.get(slug=data["slug"])
    warnings = err.getvalue()
    assert all(line.startswith("Warning: ") for line in warnings.splitlines())
    assert "'root' not added: a superuser" in warnings and "'newbie' not added: there is no such account" in warnings
    assert "confirmation by 'root' dropped" in warnings and "round 1 imported as in progress" in warnings
    assert get_user_model().objects.count() == users_before  # no account created
    assert list(t.memberships.values_list("user__username", "role")) == [("ref", "referee")]
    match = Match.objects.get(round__tournament=t, round__number=1, table=1)
    assert match.status == "finished" and not Confirmation.objects.filter(match=match).exists()
    assert Round.objects.get(tournament=t, number=1).status == "in_progress"


def test_confirmed_by_a_member_is_kept_and_organiser_option(accounts, tmp_path):
    data = _base()
    data["members"] = []  # nobody from the file: only --organiser
    data["rounds"][0]["matches"][0]["confirmed_by"] = "boss"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err, out = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--organiser", "boss", "--slug", "bossed", stdout=out, stderr=err)
    t = Tournament.objects.get(slug="bossed")
    assert list(t.memberships.values_list("user__username", "role")) == [("boss", "organiser")]
    assert Confirmation.objects.get(match__round__tournament=t).confirmed_by.username == "boss"
    assert err.getvalue() == ""


def test_confirmed_by_someone_who_left_is_kept(accounts):
    """A confirmation records who confirmed at the time: an existing account keeps it although it is
    no longer a member (or is inactive now), and the closed round stays closed, without a warning."""
    data = _base()
    data["members"] = [{"username": "boss", "role": "organiser"}]  # 'conf' and 'ref' have left
    data["rounds"][0]["matches"][0]["confirmed_by"] = "conf"
    get_user_model().objects.filter(username="ref").update(is_active=False)
    data["rounds"][1]["matches"][0]["confirmed_by"] = "ref"  # ended at the time limit: finished
    imported = load_tournament(json.dumps(data), slug="left")
    assert imported.warnings == []
    t = imported.tournament
    by = sorted(Confirmation.objects.filter(match__round__tournament=t)
                .values_list("match__round__number", "match__table", "confirmed_by__username"))
    assert by == [(1, 1, "conf"), (2, 1, "ref")]
    assert Round.objects.get(tournament=t, number=1).status == "closed"
    assert list(t.memberships.values_list("user__username", flat=True)) == ["boss"]  # no role for who left


def test_demo_round_trip_with_a_confirmer_who_left_is_byte_identical():
    """Backup and restore of the demo, where one result was confirmed by a second organiser ('org2')
    who has left the tournament since: every confirmation and status comes back as exported."""
    call_command("load_demo", stdout=io.StringIO())
    t = Tournament.objects.get(slug=DEMO_SLUG)
    org2 = UserFactory(username="org2")
    Membership.objects.create(tournament=t, user=org2, role=Membership.Role.ORGANISER)
    confirmation = Confirmation.objects.filter(match__round__tournament=t, match__round__number=1, active=True).first()
    Confirmation.objects.filter(pk=confirmation.pk).update(confirmed_by=org2)  # org2 confirmed this one
    Membership.objects.filter(tournament=t, user=org2).delete()  # ... and left
    first = dumps(export_tournament(t))
    assert '"confirmed_by": "org2"' in first
    assert [r["status"] for r in json.loads(first)["rounds"]] == ["closed", "closed", "closed", "published"]
    delete_tournament(t)
    imported = load_tournament(first)
    assert imported.warnings == []
    assert dumps(export_tournament(imported.tournament)) == first
    assert Confirmation.objects.get(match__round__tournament=imported.tournament, confirmed_by=org2).active


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_a_file_with_a_byte_order_mark_imports(game, accounts, tmp_path):
    """Windows Notepad saves UTF-8 with a byte-order mark: the file imports as without it (was:
    "expected value at line 1 column 1")."""
    text = kit(game).export.read_text(encoding="utf-8")
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    out = io.StringIO()
    call_command("import_tournament", str(path), "--slug", f"bom-{game}", stdout=out, stderr=io.StringIO())
    assert "Imported" in out.getvalue()
    assert dumps(export_tournament(Tournament.objects.get(slug=f"bom-{game}"))) == text.replace(
        f'"slug": "{json.loads(text)["slug"]}"', f'"slug": "bom-{game}"')
    assert load_tournament("\ufeff" + text, slug=f"bom-str-{game}").warnings == []


def test_unknown_organiser_is_refused(accounts, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_base()), encoding="utf-8")
    before = counts()
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path), "--organiser", "nobody", stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith("--organiser: there is no account 'nobody'")
    assert counts() == before


def test_without_organiser_the_import_warns(accounts):
    data = _base()
    data["members"] = [{"username": "ref", "role": "referee"}]
    data["rounds"][0]["matches"][0]["confirmed_by"] = "ref"
    imported = load_tournament(json.dumps(data))
    assert any("no organiser" in w for w in imported.warnings)


def test_a_bad_slug_option_is_refused(accounts):
    with pytest.raises(ImportRefused) as refused:
        load_tournament(json.dumps(_base()), slug="../etc")
    assert refused.value.errors[0][0] == "--slug"


def test_four_player_backup_link_and_download(client):
    t = played("sichuan")
    client.force_login(get_user_model().objects.get(username="boss"))
    url = reverse("scoring:tournament_export", args=[t.slug])
    assert url in client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    response = client.get(url)
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert len(data["players"]) == 9 and [len(r["tables"]) for r in data["rounds"]] == [2, 2]
    assert response.content.decode() == dumps(export_tournament(t))
