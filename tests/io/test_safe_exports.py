"""Safe exports (issue 12 item 1): no export ever holds a live spreadsheet formula. Teams, players,
affiliations and notes named like formulas (``=HYPERLINK("http://x","y")`` and the other OWASP
payloads) go through every CSV and XLSX export (standings and round tables of both kinds, the
``standings`` command, the entrant lists and the example files of the imports); read back with
openpyxl and ``csv`` there is not one formula cell, every formula-like text keeps its text, and
the numeric columns are still numbers (negative totals included).

Scores (rules, docs/engines/index.md): Tai Pan NSKT, N's Grand Tai Pan with a double victory of NS is
400 : 0, two of them reach the target 800; Sichuan: East self-draws all chows and a pair, base 1
plus 1 for the self-draw from each player: East +6, the others -2 each.
"""
from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from scoring.io import datasets
from scoring.models import Team
from tests.factories import (
    DEALS,
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    play,
    staff,
)

pytestmark = pytest.mark.django_db

PAYLOADS = [
    '=HYPERLINK("http://x","y")',
    "+SUM(1,2)",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
    "=cmd|' /C calc'!A0",
]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def taipan():
    """Four teams named like formulas (players and affiliations too); round 1: table 1 played
    800 : 0 and confirmed, table 2 ended at the time limit after one hand (400 : 0)."""
    t = TournamentFactory(slug="evil-taipan")
    people = staff(t)
    teams = []
    for i, payload in enumerate(PAYLOADS[:4]):
        teams.append(TeamFactory(tournament=t, name=payload, affiliation=PAYLOADS[(i + 1) % len(PAYLOADS)],
                                 first_player=PlayerFactory(tournament=t, name=PAYLOADS[(i + 2) % len(PAYLOADS)] + f" {i}"),
                                 second_player=PlayerFactory(tournament=t, name=f"-{i}")))
    rnd = RoundFactory(tournament=t, number=1)
    m1 = MatchFactory(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1], pairing_note='=HYPERLINK("http://note")')
    play(m1, [GRAND_DOUBLE_VICTORY_NS] * 2, people["referees"][0], confirmer=people["referees"][1])
    m2 = MatchFactory(round=rnd, table=2, team_ns=teams[3], team_ew=teams[2], pairing_note="@note")
    play(m2, [GRAND_DOUBLE_VICTORY_NS], people["referees"][0], end_reason="time")
    return t


@pytest.fixture
def sichuan():
    """A Sichuan table whose four players are named like formulas, played (+6 / -2 / -2 / -2) and
    confirmed."""
    t = TournamentFactory(slug="evil-sichuan", game="sichuan")
    people = staff(t)
    rnd = RoundFactory(tournament=t, number=1)
    players = [PlayerFactory(tournament=t, name=p, affiliation=PAYLOADS[-1]) for p in PAYLOADS[:4]]
    table = TableFactory(round=rnd, number=1, players=players, seating_note="=1+1")
    play(table, [DEALS["sichuan"][0]], people["referees"][0], end_reason="time", confirmer=people["referees"][1])
    return t


def formula_cells(xlsx: bytes) -> list[str]:
    wb = load_workbook(io.BytesIO(xlsx))
    return [f"{ws.title}!{cell.coordinate}={cell.value!r}" for ws in wb for row in ws.iter_rows() for cell in row
            if cell.data_type == "f"]


def xlsx_rows(xlsx: bytes) -> list[list]:
    ws = load_workbook(io.BytesIO(xlsx)).active
    return [[cell.value for cell in row] for row in ws.iter_rows()]


def csv_rows(body: bytes | str) -> list[list[str]]:
    text = body.decode("utf-8-sig") if isinstance(body, bytes) else body
    return list(csv.reader(io.StringIO(text, newline="")))


def unsafe_csv_cells(rows: list[list[str]], numeric: set[int]) -> list[str]:
    """Cells a spreadsheet would evaluate: starting with a formula character, unless the column is
    numeric and the cell is a plain number."""
    out = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.startswith(DANGEROUS) and not (c in numeric and _is_number(cell)):
                out.append(f"row {r} col {c}: {cell!r}")
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def numeric_columns(headers: list[str], names: tuple[str, ...]) -> set[int]:
    return {i for i, h in enumerate(headers) if h.startswith(names)}


TEAM_NUMERIC = ("Rank", "Played", "Won", "Drawn", "Lost", "Byes", "Match points", "Point difference", "Points scored",
                "Buchholz", "Number of wins", "Opponents", "Sonneborn")
ROUND_NUMERIC = ("Table", "Total")
PLAYER_NUMERIC = ("Rank", "Tables", "Total points")


def check_pair(client, url: str, numeric_names: tuple[str, ...]) -> tuple[list[list[str]], list[list]]:
    """Fetch ``url`` as CSV and XLSX; assert no formula and no unescaped formula text; return both
    read back."""
    as_csv = client.get(url + "?format=csv")
    as_xlsx = client.get(url + "?format=xlsx")
    assert as_csv.status_code == as_xlsx.status_code == 200
    rows = csv_rows(as_csv.content)
    assert unsafe_csv_cells(rows, numeric_columns(rows[0], numeric_names)) == []
    assert formula_cells(as_xlsx.content) == []
    return rows, xlsx_rows(as_xlsx.content)


def test_taipan_standings_and_round_exports_hold_no_formula(client, taipan):
    rows, sheet = check_pair(client, reverse("scoring:standings_export", args=[taipan.slug]), TEAM_NUMERIC)
    # The texts are all there, as text: CSV with the OWASP prefix, XLSX exactly.
    csv_texts = {cell for row in rows for cell in row}
    xlsx_texts = {cell for row in sheet for cell in row}
    for payload in PAYLOADS[:4]:
        assert "'" + payload in csv_texts
        assert payload in xlsx_texts
    # Numbers stay numbers: the winner of table 1 has 2 match points and 800 points scored; the
    # loser's point difference is -800 (a number, not text).
    headers = sheet[0]
    by_team = {row[1]: dict(zip(headers, row, strict=True)) for row in sheet[1:]}
    winner = by_team[PAYLOADS[0]]
    assert (winner["Match points"], winner["Points scored"], winner["Point difference"]) == (2, 800, 800)
    assert by_team[PAYLOADS[1]]["Point difference"] == -800
    assert all(isinstance(v, int) for row in sheet[1:] for h, v in zip(headers, row, strict=True)
               if h in ("Rank", "Played", "Won", "Match points", "Point difference", "Points scored"))
    csv_by_team = {row[1]: dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    assert csv_by_team["'" + PAYLOADS[1]]["Point difference"] == "-800"

    rows, sheet = check_pair(client, reverse("scoring:pairings_export", args=[taipan.slug, 1]), ROUND_NUMERIC)
    assert sheet[1][0] == 1 and sheet[1][1] == PAYLOADS[0]
    assert '=HYPERLINK("http://note")' in {cell for row in sheet for cell in row}
    assert "'@note" in {cell for row in rows for cell in row}
    totals = [row[-2:] for row in sheet[1:]]
    assert totals == [[800, 0], [400, 0]]


def test_four_player_standings_and_round_exports_hold_no_formula(client, sichuan):
    rows, sheet = check_pair(client, reverse("scoring:standings_export", args=[sichuan.slug]), PLAYER_NUMERIC)
    headers = sheet[0]
    totals = {row[1]: row[headers.index("Total points")] for row in sheet[1:]}
    assert totals == {PAYLOADS[0]: 6, PAYLOADS[1]: -2, PAYLOADS[2]: -2, PAYLOADS[3]: -2}
    rows, sheet = check_pair(client, reverse("scoring:pairings_export", args=[sichuan.slug, 1]), ROUND_NUMERIC)
    assert sheet[1][-4:] == [6, -2, -2, -2]
    assert [r[-4:] for r in rows[1:]] == [["6", "-2", "-2", "-2"]]


def test_standings_command_csv_is_escaped(taipan):
    out = io.StringIO()
    call_command("standings", taipan.slug, "--format", "csv", stdout=out)
    rows = csv_rows(out.getvalue())
    assert unsafe_csv_cells(rows, numeric_columns(rows[0], TEAM_NUMERIC)) == []
    assert {"'" + p for p in PAYLOADS[:4]} <= {cell for row in rows for cell in row}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_helper_escapes_every_payload_and_keeps_numbers(payload):
    ds = datasets.tablib.Dataset(headers=["name", "n", "x"])
    ds.append([payload, -5, 2.5])
    rows = csv_rows(datasets.export(ds, "csv"))
    assert rows[1] == ["'" + payload, "-5", "2.5"]
    xlsx = datasets.export(ds, "xlsx")
    assert formula_cells(xlsx) == []
    # XLSX keeps the text (an XML reader turns a carriage return into a line feed)
    value, number, fraction = xlsx_rows(xlsx)[1]
    assert value == payload.replace("\r", "\n") and (number, fraction) == (-5, 2.5)


def test_a_formula_header_is_escaped_too():
    ds = datasets.tablib.Dataset(headers=["=1+1"])
    ds.append([1])
    assert csv_rows(datasets.export(ds, "csv"))[0] == ["'=1+1"]
    assert formula_cells(datasets.export(ds, "xlsx")) == []


def test_control_characters_do_not_break_the_xlsx_export():
    """Old data may hold a character XLSX cannot store (a NUL byte): it is dropped, no error."""
    ds = datasets.tablib.Dataset(headers=["name"])
    ds.append(["bad\x00name\x07"])
    assert xlsx_rows(datasets.export(ds, "xlsx"))[1] == ["badname"]


def test_teams_are_untouched_by_the_export(taipan):
    """Escaping is for the file only: the names in the database keep their text."""
    assert set(Team.objects.filter(tournament=taipan).values_list("name", flat=True)) == set(PAYLOADS[:4])


def test_entrant_exports_and_example_files_hold_no_formula(client, taipan, sichuan):
    """The teams and players lists (CSV and XLSX) and the example files of both imports; a list
    exported and imported again keeps the names exactly (the import reads the escaped text back)."""
    from scoring.io.entrants_csv import import_players_csv, import_teams_csv

    organiser = staff(taipan)["organiser"]
    sichuan.memberships.create(user=organiser, role="organiser")
    client.force_login(organiser)
    rows, sheet = check_pair(client, reverse("scoring:teams_export", args=[taipan.slug]), ("seed", "joined_round"))
    assert {p for p in PAYLOADS[:4]} <= {row[0] for row in sheet}
    rows, sheet = check_pair(client, reverse("scoring:players_export", args=[sichuan.slug]), ("seed", "joined_round"))
    assert {p for p in PAYLOADS[:4]} <= {row[0] for row in sheet}
    for name in ("teams_import_example", "players_import_example"):
        slug = taipan.slug if name.startswith("teams") else sichuan.slug
        body = client.get(reverse(f"scoring:{name}", args=[slug])).content
        assert unsafe_csv_cells(csv_rows(body), set()) == []
    copy = TournamentFactory(slug="copy-taipan")
    body = client.get(reverse("scoring:teams_export", args=[taipan.slug]) + "?format=csv").content
    report = import_teams_csv(copy, body)
    assert report.ok, report.errors
    # The team names come back exactly (a player's leading tab or CR is stripped like a space).
    assert set(Team.objects.filter(tournament=copy).values_list("name", flat=True)) == set(PAYLOADS[:4])
    copy4 = TournamentFactory(slug="copy-sichuan", game="sichuan")
    body = client.get(reverse("scoring:players_export", args=[sichuan.slug]) + "?format=csv").content
    assert import_players_csv(copy4, body).ok
