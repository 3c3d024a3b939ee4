"""Uploads validated like forms (issue 12 item 2): team and player CSV rows go through the same
validation as the team and player forms; every bad row gets a line-and-column error; nothing is
saved unless every row is good; a size and row limit with a clear message; a large file is
imported by a background job with progress (eager here: Celery runs in-process without Redis);
the player import of four-player tournaments; example CSVs with the header row on both pages."""
from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring import tasks
from scoring.io import entrants_csv
from scoring.io.entrants_csv import import_players_csv, import_teams_csv
from scoring.models import Player, TaskState, Team
from scoring.web.forms.organiser import PlayerForm, TeamForm
from tests.factories import MembershipFactory, PlayerFactory, RoundFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

HEADER = "name,player1,player2,affiliation,seed,joined_round\n"

#: (column, value, what is wrong): each is refused by the CSV import and by the team form alike.
HOSTILE_TEAM_VALUES = [
    ("player1", "P" * 121, "121 characters"),
    ("affiliation", "A" * 121, "121 characters"),
    ("name", "N" * 121, "121 characters"),
    ("name", "Nul\x00Byte", "a NUL byte"),
    ("player1", "Tab\tbed", "a tab"),
    ("name", "Zero\u200bWidth", "a zero-width space"),
    ("name", "Joiner\u200dName", "a zero-width joiner"),
    ("player2", "evil\u202eesrever", "a right-to-left override"),
    ("affiliation", "club\u2066isolate", "a bidi isolate"),
    ("name", "\ufeffBOM", "a byte order mark inside the name"),
    ("seed", str(2**31), "a seed of 2^31"),
    ("seed", "99999999999999999999", "a huge seed"),
    ("seed", "²", "a superscript two"),
    ("seed", "٣", "an Arabic-Indic three"),
    ("seed", "１", "a full-width one"),
    ("seed", "-1", "a negative seed"),
    ("seed", "0", "seed 0"),
    ("seed", "1.5", "a fraction"),
    ("joined_round", "32768", "round 32768"),
    ("joined_round", "1000", "round 1000"),
    ("joined_round", "³", "a superscript three"),
]


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def team_row(**values) -> str:
    row = {"name": "Draken", "player1": "Anna", "player2": "Bram", "affiliation": "", "seed": "", "joined_round": ""}
    row.update(values)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(row.values())
    return out.getvalue()


def team_form_data(column: str, value: str) -> dict:
    data = {"name": "Draken", "first_player_name": "Anna", "second_player_name": "Bram", "affiliation": "",
            "seed": "", "joined_round": "1", "withdrawn_after_round": ""}
    data[{"player1": "first_player_name", "player2": "second_player_name"}.get(column, column)] = value
    return data


@pytest.mark.parametrize(("column", "value", "why"), HOSTILE_TEAM_VALUES, ids=[h[2] for h in HOSTILE_TEAM_VALUES])
def test_hostile_team_value_is_refused_by_csv_and_form_alike(column, value, why):
    t = TournamentFactory()
    text = HEADER + team_row(name="Fine", player1="C", player2="D") + team_row(**{column: value})
    report = import_teams_csv(t, text.encode())
    assert not report.ok and report.created == 0, why
    assert [(line, col) for line, col, _msg in report.errors] == [(3, column)], (why, report.errors)
    assert Team.objects.filter(tournament=t).count() == 0 and Player.objects.filter(tournament=t).count() == 0
    form = TeamForm(team_form_data(column, value), tournament=t)
    assert not form.is_valid(), why
    assert list(form.errors) == [{"player1": "first_player_name", "player2": "second_player_name"}.get(column, column)]


@pytest.mark.parametrize(("column", "value"), [("name", "N" * 121), ("name", "a\x00b"), ("name", "x\u200by"),
                                               ("name", "x\u202ey"), ("affiliation", "A" * 121), ("seed", "²"),
                                               ("seed", str(2**31)), ("joined_round", "1000"), ("joined_round", "0"),
                                               ("substitute", "maybe")])
def test_hostile_player_value_is_refused_by_csv_and_form_alike(column, value):
    t = TournamentFactory(game="sichuan")
    row = {"name": "Anna", "affiliation": "", "seed": "", "joined_round": "", "substitute": ""}
    row[column] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([list(row), ["Bram", "", "", "", ""], list(row.values())])
    report = import_players_csv(t, out.getvalue().encode())
    assert [(line, col) for line, col, _ in report.errors] == [(3, column)]
    assert Player.objects.filter(tournament=t).count() == 0
    if column != "substitute":
        form = PlayerForm({"name": "Anna", "affiliation": "", "seed": "", "joined_round": "1", column: value},
                          instance=Player(tournament=t))
        assert not form.is_valid() and column in form.errors


def test_duplicates_case_and_nfkc_insensitive():
    t = TournamentFactory()
    TeamFactory(tournament=t, name="Draken")
    text = (HEADER + team_row(name="DRAKEN") + team_row(name="Ｊａｄｅ", player1="E", player2="F")
            + team_row(name="jade", player1="G", player2="H") + team_row(name="  Sterren   Oost ", player1="I", player2="J")
            + team_row(name="sterren oost", player1="K", player2="L") + team_row(name="Kwartet", player1="Eva", player2="EVA"))
    report = import_teams_csv(t, text.encode())
    assert [(line, col) for line, col, _ in report.errors] == [(2, "name"), (4, "name"), (6, "name"), (7, "player2")]
    assert "already exists" in report.errors[0][2] and "'Draken'" in report.errors[0][2]
    assert "line 3" in report.errors[1][2] and "line 5" in report.errors[2][2]
    assert Team.objects.filter(tournament=t).count() == 1
    # The form says the same about the same names.
    assert "name" in TeamForm(team_form_data("name", "ＤＲＡＫＥＮ"), tournament=t).errors
    p4 = TournamentFactory(slug="p4", game="sichuan")
    PlayerFactory(tournament=p4, name="Anna")
    assert "name" in PlayerForm({"name": "ＡＮＮＡ", "joined_round": "1"}, instance=Player(tournament=p4)).errors
    report = import_players_csv(p4, b"name\nanna\nBram\nBRAM\n")
    assert [(line, col) for line, col, _ in report.errors] == [(2, "name"), (4, "name")]


def test_duplicates_fold_accents_csv_team_form_and_player_form():
    """Names are unique with case *and accents* folded (README): ``Zwalúw`` is ``Zwaluw``, ``Dráken``
    is ``Draken``, ``Jáde`` and ``Jadé`` are ``Jade``, in the CSV imports and in both forms."""
    t = TournamentFactory()
    TeamFactory(tournament=t, name="Jade")
    text = (HEADER + team_row(name="Zwaluw", player1="A", player2="B") + team_row(name="Zwalúw", player1="C", player2="D")
            + team_row(name="Draken", player1="E", player2="F") + team_row(name="Dráken", player1="G", player2="H")
            + team_row(name="Jáde", player1="I", player2="J") + team_row(name="Ster", player1="Zoë", player2="ZOE"))
    report = import_teams_csv(t, text.encode())
    assert [(line, col) for line, col, _ in report.errors] == [(3, "name"), (5, "name"), (6, "name"), (7, "player2")]
    assert "line 2" in report.errors[0][2] and "line 4" in report.errors[1][2]
    assert "already exists" in report.errors[2][2] and "'Jade'" in report.errors[2][2]
    assert Team.objects.filter(tournament=t).count() == 1
    # the team form: accent variants of an existing team, and two players who are one person
    for name in ("Jáde", "Jadé", "JÂDE", "Ｊáde"):
        form = TeamForm(team_form_data("name", name), tournament=t)
        assert list(form.errors) == ["name"], name
        assert "There is already a team called Jade." in form.errors["name"]
    form = TeamForm({**team_form_data("name", "Zwaluw"), "first_player_name": "Zoë", "second_player_name": "Zoe"}, tournament=t)
    assert list(form.errors) == ["second_player_name"]
    assert TeamForm(team_form_data("name", "Jadeite"), tournament=t).is_valid()
    # the player form and the player CSV of a four-player tournament
    p4 = TournamentFactory(slug="p4-accents", game="sichuan")
    PlayerFactory(tournament=p4, name="Zwaluw")
    for name in ("Zwalúw", "ZWALÚW", "zwälüw"):
        assert "name" in PlayerForm({"name": name, "joined_round": "1"}, instance=Player(tournament=p4)).errors, name
    assert PlayerForm({"name": "Zwaluwen", "joined_round": "1"}, instance=Player(tournament=p4)).is_valid()
    report = import_players_csv(p4, "name\nZwalúw\nRené\nRene\n".encode())
    assert [(line, col) for line, col, _ in report.errors] == [(2, "name"), (4, "name")]
    assert Player.objects.filter(tournament=p4).count() == 1


def test_every_bad_row_is_reported_and_nothing_saved():
    t = TournamentFactory()
    rows = [team_row(name=f"Team {i}", player1=f"A{i}", player2=f"B{i}") for i in range(50)]
    rows[10] = team_row(name="Team 10", player1="", player2="B")          # line 12: player1 missing
    rows[20] = team_row(name="Team 20", player1="A", player2="B", seed="²")  # line 22
    rows[49] = team_row(name="Team 49\x00", player1="A", player2="B")       # line 51
    report = import_teams_csv(t, (HEADER + "".join(rows)).encode())
    assert [(line, col) for line, col, _ in report.errors] == [(12, "player1"), (22, "seed"), (51, "name")]
    assert Team.objects.filter(tournament=t).count() == 0


def test_line_numbers_follow_quoted_cells_over_several_lines():
    t = TournamentFactory()
    text = HEADER + 'Draken,"Anna\nde Vries",Bram,,,\nJade,Eva,Floris,,x,\n'
    report = import_teams_csv(t, text.encode())
    assert [(line, col) for line, col, _ in report.errors] == [(2, "player1"), (4, "seed")]


def test_file_level_errors_are_clear():
    t = TournamentFactory()
    assert "not UTF-8" in import_teams_csv(t, HEADER.encode() + b"Dr\xe4ken,A,B,,,\n").errors[0][2]
    assert import_teams_csv(t, HEADER.encode() + b"Dr\xe4ken,A,B,,,\n").errors[0][0] == 2
    assert "empty" in import_teams_csv(t, b"").errors[0][2]
    assert "Missing column" in import_teams_csv(t, b"team,speler1\nA,B\n").errors[0][2]
    big = HEADER + team_row() * (entrants_csv.MAX_BYTES // len(team_row()) + 1)
    report = import_teams_csv(t, big.encode())
    assert report.errors[0][0] == 0 and "too large" in report.errors[0][2] and "at most 2 MB" in report.errors[0][2]
    many = HEADER + "".join(team_row(name=f"T{i}", player1="a", player2="b") for i in range(entrants_csv.MAX_ROWS + 1))
    assert "more than 20000 rows" in import_teams_csv(t, many.encode()).errors[0][2]
    assert Team.objects.count() == 0


def test_player_csv_import():
    t = TournamentFactory(game="taiwanese")
    RoundFactory(tournament=t, number=1)
    text = ("naam;vereniging;seed;vanaf ronde;invaller\n"
            "Anna de Vries;Asopos;1;;nee\nBram Jansen;;;3;\nCarmen;Leiden;;;ja\n")
    report = import_players_csv(t, text.encode())
    assert report.ok and report.created == 3
    players = {p.name: p for p in Player.objects.filter(tournament=t)}
    assert (players["Anna de Vries"].affiliation, players["Anna de Vries"].seed, players["Anna de Vries"].joined_round) == ("Asopos", 1, 2)
    assert players["Bram Jansen"].joined_round == 3 and players["Carmen"].is_substitute


@pytest.fixture
def organiser_client(client):
    user = UserFactory(username="importer")
    client.force_login(user)
    return client, user


def upload(client, url, text: str | bytes, name="entrants.csv"):
    data = text.encode() if isinstance(text, str) else text
    return client.post(url, {"file": SimpleUploadedFile(name, data, content_type="text/csv")})


def test_players_import_page(organiser_client):
    client, user = organiser_client
    t = TournamentFactory(slug="mj", game="sichuan")
    MembershipFactory(tournament=t, user=user, role="organiser")
    url = reverse("scoring:players_import", args=[t.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert reverse("scoring:players_import_example", args=[t.slug]) in page.content.decode()
    assert url in client.get(reverse("scoring:players", args=[t.slug])).content.decode()
    bad = upload(client, url, "name,seed\nAnna,²\nBram,\nAnna,\n")
    assert bad.status_code == 200 and Player.objects.filter(tournament=t).count() == 0
    assert [(e["row"], e["field"]) for e in bad.context["report_errors"]] == [(2, "seed"), (4, "name")]
    good = upload(client, url, "name,seed\nAnna,1\nBram,\n")
    assert good.status_code == 302 and good["Location"] == reverse("scoring:players", args=[t.slug])
    assert Player.objects.filter(tournament=t).count() == 2
    # the teams import is not for four-player tournaments (and the other way round)
    assert client.get(reverse("scoring:teams_import", args=[t.slug])).status_code == 302


def test_upload_size_limit_message(organiser_client, monkeypatch):
    client, user = organiser_client
    t = TournamentFactory(slug="big")
    MembershipFactory(tournament=t, user=user, role="organiser")
    monkeypatch.setattr("scoring.web.forms.organiser.EntrantsImportForm.MAX_BYTES", 100)
    response = upload(client, reverse("scoring:teams_import", args=[t.slug]), HEADER + team_row() * 10)
    assert response.status_code == 200
    assert "too large" in str(response.context["form"].errors["file"]) and "at most" in str(response.context["form"].errors["file"])
    assert Team.objects.count() == 0


@pytest.mark.parametrize("kind", ["teams", "players"])
def test_example_csv_has_the_header_row_and_imports(organiser_client, kind):
    """The example file downloads from the import page and is itself a valid import."""
    client, user = organiser_client
    t = TournamentFactory(slug=f"ex-{kind}", game="taipan" if kind == "teams" else "tiengow")
    MembershipFactory(tournament=t, user=user, role="organiser")
    page = client.get(reverse(f"scoring:{kind}_import", args=[t.slug])).content.decode()
    url = reverse(f"scoring:{kind}_import_example", args=[t.slug])
    assert url in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == list(entrants_csv.KINDS[kind].columns)
    report = entrants_csv.import_entrants(entrants_csv.KINDS[kind], t, response.content)
    assert report.ok and report.created == len(rows) - 1


def test_teams_export_imports_again(organiser_client):
    client, user = organiser_client
    t = TournamentFactory(slug="rt")
    MembershipFactory(tournament=t, user=user, role="organiser")
    TeamFactory(tournament=t, name="Draken", affiliation="Asopos", seed=2, first_player__name="Anna", second_player__name="Bram")
    body = client.get(reverse("scoring:teams_export", args=[t.slug]) + "?format=csv").content
    other = TournamentFactory(slug="rt2")
    report = import_teams_csv(other, body)
    assert report.ok
    team = Team.objects.get(tournament=other)
    assert (team.name, team.player_names, team.affiliation, team.seed) == ("Draken", "Anna & Bram", "Asopos", 2)


def test_a_large_file_is_imported_by_a_job_with_progress(organiser_client, settings):
    client, user = organiser_client
    settings.IMPORT_INLINE_ROWS = 100
    t = TournamentFactory(slug="many")
    MembershipFactory(tournament=t, user=user, role="organiser")
    text = HEADER + "".join(team_row(name=f"Team {i:04d}", player1=f"A{i}", player2=f"B{i}") for i in range(3000))
    response = upload(client, reverse("scoring:teams_import", args=[t.slug]), text)
    state = TaskState.objects.get(kind=tasks.KIND_IMPORT)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:import_status", args=[t.slug, state.pk])
    assert (state.status, state.progress, state.total) == ("done", 3000, 3000)
    assert Team.objects.filter(tournament=t).count() == 3000
    page = client.get(response["Location"])
    assert page.status_code == 200 and "3000 entries imported" in page.content.decode()
    assert 'hx-get' not in page.content.decode()  # done: no more polling
    # a re-delivered job (its worker died after saving) imports nothing twice
    tasks.import_entrants.apply(args=(state.pk,))
    assert Team.objects.filter(tournament=t).count() == 3000


def test_a_large_file_with_errors_imports_nothing_and_lists_them(organiser_client, settings):
    client, user = organiser_client
    settings.IMPORT_INLINE_ROWS = 100
    t = TournamentFactory(slug="many-bad")
    MembershipFactory(tournament=t, user=user, role="organiser")
    rows = [team_row(name=f"Team {i:04d}", player1=f"A{i}", player2=f"B{i}") for i in range(2000)]
    rows[1500] = team_row(name="Team 1500", player1="A", player2="B", seed="²")
    response = upload(client, reverse("scoring:teams_import", args=[t.slug]), HEADER + "".join(rows))
    page = client.get(response["Location"])
    assert [(e["row"], e["field"]) for e in page.context["report_errors"]] == [(1502, "seed")]
    assert "Nothing was imported" in page.content.decode()
    assert Team.objects.filter(tournament=t).count() == 0


def test_a_stopped_import_job_is_shown_failed(organiser_client):
    """A job whose worker died (no progress for longer than the bound) is failed, not polled forever."""
    from datetime import timedelta

    from django.utils import timezone

    client, user = organiser_client
    t = TournamentFactory(slug="stuck")
    MembershipFactory(tournament=t, user=user, role="organiser")
    state = TaskState.objects.create(key=f"import:{t.pk}:teams:x", kind=tasks.KIND_IMPORT, status="running", progress=55, total=300)
    TaskState.objects.filter(pk=state.pk).update(updated_at=timezone.now() - tasks.stale_after() - timedelta(seconds=1))
    page = client.get(reverse("scoring:import_status", args=[t.slug, state.pk])).content.decode()
    assert "The import failed" in page and "hx-get" not in page
    assert TaskState.objects.get(pk=state.pk).status == "failed"


def test_a_column_given_twice_is_refused_clearly():
    t = TournamentFactory()
    for header in ("name,name,player1,player2\n", "name,player1,naam,player2\n"):
        report = import_teams_csv(t, (header + "Draken,Anna,Jade,Bram\n").encode())
        assert not report.ok and [(line, col) for line, col, _ in report.errors] == [(1, "")], header
        assert report.errors[0][2].startswith("The column name") and "appears twice in the header" in report.errors[0][2]
    report = import_players_csv(TournamentFactory(slug="p4-twice", game="sichuan"), b"name,seed,seed\nAnna,1,2\n")
    assert [msg for _l, _c, msg in report.errors] == ["The column seed appears twice in the header (columns 2 and 3): keep one."]
    assert Team.objects.count() == Player.objects.count() == 0


def test_a_file_over_the_row_limit_is_refused_at_the_upload(organiser_client, settings, monkeypatch):
    """Not accepted and then refused by the background job as an error on "line 0": the upload
    form names the limit, no job is started."""
    client, user = organiser_client
    settings.IMPORT_INLINE_ROWS = 10
    monkeypatch.setattr(entrants_csv, "MAX_ROWS", 40)
    t = TournamentFactory(slug="too-many")
    MembershipFactory(tournament=t, user=user, role="organiser")
    text = HEADER + "".join(team_row(name=f"Team {i}", player1=f"A{i}", player2=f"B{i}") for i in range(41))
    response = upload(client, reverse("scoring:teams_import", args=[t.slug]), text)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == ["The file has more than 40 rows: split it into smaller files."]
    assert not TaskState.objects.exists() and Team.objects.count() == 0
    # at the limit it is taken (here by a job: more rows than IMPORT_INLINE_ROWS)
    response = upload(client, reverse("scoring:teams_import", args=[t.slug]), HEADER + text.split("\n", 1)[1].rsplit("Team 40", 1)[0])
    assert response.status_code == 302 and Team.objects.filter(tournament=t).count() == 40


def test_a_byte_order_mark_is_skipped():
    t = TournamentFactory()
    report = import_teams_csv(t, b"\xef\xbb\xbf" + (HEADER + team_row()).encode())
    assert report.ok and Team.objects.get(tournament=t).name == "Draken"
