"""Entrants from CSV: teams of a Tai Pan tournament, players of a four-player tournament (issue 12
item 2).

Every row goes through the same validation as the organiser's form
(:class:`scoring.participants.entrants.TeamEntry` / :class:`~scoring.participants.entrants.PlayerEntry`:
lengths, control and invisible characters, whole numbers in ASCII digits within bounds) plus the
duplicate check (a name already in the tournament or earlier in the file, compared with case and
accents folded: :func:`~scoring.participants.entrants.name_key`). Every error names the CSV line (the header is line 1; a quoted cell may span
lines) and the column as the file's header spelled it (``speler2``, not ``player2``). Nothing is saved unless every row is good; then all rows are saved in one
transaction.

Limits: :data:`MAX_BYTES` and :data:`MAX_ROWS` (a clear message, nothing read further). A file of
more than ``settings.IMPORT_INLINE_ROWS`` rows is imported by a background job with progress
(:func:`scoring.tasks.start_import`); :func:`import_entrants` is the same either way.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tablib
from django import forms
from django.db import transaction
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_noop

from scoring.draw.lifecycle import next_round_number
from scoring.io.datasets import unescape_cell
from scoring.live import state as live_state
from scoring.models import Player, Team, Tournament
from scoring.participants import persons
from scoring.participants.entrants import PlayerEntry, TeamEntry, name_key

#: Largest file accepted (bytes).
MAX_BYTES = 2_000_000
#: Most rows accepted in one file.
MAX_ROWS = 20_000


@dataclass
class ImportReport:
    """What an import did: ``created`` (entrants created, 0 when any row was wrong), ``rows`` (rows
    read) and ``errors``: ``[(line, column, message)]`` with ``line`` the CSV line number (the
    header is line 1; 0 for the file as a whole) and ``column`` the column's name."""

    created: int = 0
    errors: list[tuple[int, str, str]] = field(default_factory=list)
    rows: int = 0
    #: Column key -> the header as the file spelled it (``"player2"`` -> ``"speler2"``); errors
    #: name a column this way (:func:`column_label`). Not stored with the report.
    headers: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        """True when nothing was wrong (and the entrants were imported)."""
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        return {"created": self.created, "rows": self.rows, "errors": [list(e) for e in self.errors]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ImportReport:
        return cls(created=int(data.get("created", 0)), rows=int(data.get("rows", 0)),
                   errors=[(int(line), str(col), str(msg)) for line, col, msg in data.get("errors", [])])


@dataclass(frozen=True)
class EntrantKind:
    """One kind of CSV import: its columns (key -> accepted headers, case-insensitive, Dutch
    aliases too), the required ones, the row form, what a duplicate is called, and the example."""

    key: str
    columns: dict[str, tuple[str, ...]]
    required: tuple[str, ...]
    entry: type[forms.Form]
    existing: Callable[[Tournament], list[str]]
    exists_message: str
    repeated_message: str
    example: tuple[tuple[str, ...], ...]


TEAM_COLUMNS = {
    "name": ("name", "team", "team name", "teamnaam", "naam"),
    "player1": ("player1", "player 1", "first player", "speler1", "speler 1"),
    "player2": ("player2", "player 2", "second player", "speler2", "speler 2"),
    "affiliation": ("affiliation", "association", "club", "vereniging"),
    "seed": ("seed",),
    "joined_round": ("joined_round", "joined round", "from round", "vanaf ronde"),
    "rating": ("rating", "elo", "sterkte"),
    "number1": ("number1", "number 1", "federation number 1", "bondsnummer1", "bondsnummer 1", "studentnummer1"),
    "number2": ("number2", "number 2", "federation number 2", "bondsnummer2", "bondsnummer 2", "studentnummer2"),
}

PLAYER_COLUMNS = {
    "name": ("name", "player", "player name", "naam", "speler"),
    "federation_number": ("federation_number", "federation number", "number", "student number", "bondsnummer",
                          "studentnummer"),
    "affiliation": ("affiliation", "association", "club", "vereniging"),
    "seed": ("seed",),
    "joined_round": ("joined_round", "joined round", "from round", "vanaf ronde"),
    "substitute": ("substitute", "invaller", "reserve"),
    "rating": ("rating", "elo", "sterkte"),
}

TEAMS = EntrantKind(
    key="teams", columns=TEAM_COLUMNS, required=("name", "player1", "player2"), entry=TeamEntry,
    existing=lambda t: list(Team.objects.filter(tournament=t).values_list("name", flat=True)),
    exists_message=gettext_noop("A team named {name!r} already exists in this tournament."),
    repeated_message=gettext_noop("The team name {name!r} is also used on line {line}."),
    example=(("De Draken", "Anna de Vries", "Bram Jansen", "Asopos", "1", "", "1500", "NL1001", ""),
             ("Jade", "Eva Smit", "Floris Bos", "Augustinus", "", "", "", "", "")),
)

PLAYERS = EntrantKind(
    key="players", columns=PLAYER_COLUMNS, required=("name",), entry=PlayerEntry,
    existing=lambda t: list(Player.objects.filter(tournament=t).values_list("name", flat=True)),
    exists_message=gettext_noop("A player named {name!r} is already registered in this tournament."),
    repeated_message=gettext_noop("The player name {name!r} is also used on line {line}."),
    example=(("Anna de Vries", "NL1001", "Asopos", "1", "", "no", "1500"), ("Bram Jansen", "", "Augustinus", "", "", "no", ""),
             ("Carmen Bakker", "", "", "", "2", "yes", "")),
)

KINDS = {TEAMS.key: TEAMS, PLAYERS.key: PLAYERS}


def example_dataset(kind: EntrantKind) -> tablib.Dataset:
    """The example file of an import: the header row (every column, in order) and a few rows."""
    ds = tablib.Dataset(headers=list(kind.columns), title=kind.key)
    for row in kind.example:
        ds.append(list(row))
    return ds


def entrants_dataset(tournament: Tournament, kind: EntrantKind) -> tablib.Dataset:
    """The tournament's entrants in the import's columns (an export that imports again; for the
    organiser only: it holds the federation numbers, which are personal data)."""
    ds = tablib.Dataset(headers=list(kind.columns), title=kind.key)
    if kind is TEAMS:
        for tm in tournament.teams.select_related("first_player", "second_player").order_by("name"):
            ds.append([tm.name, tm.first_player.name, tm.second_player.name, tm.affiliation, tm.seed or "", tm.joined_round,
                       "" if tm.rating is None else tm.rating, tm.first_player.federation_number,
                       tm.second_player.federation_number])
    else:
        for p in tournament.players.order_by("name"):
            ds.append([p.name, p.federation_number, p.affiliation, p.seed or "", p.joined_round,
                       "yes" if p.is_substitute else "no", "" if p.rating is None else p.rating])
    return ds


# --------------------------------------------------------------------------- reading


def _file_error(message: str) -> ImportReport:
    return ImportReport(errors=[(0, "", message)])


def read_rows(file_bytes: bytes) -> tuple[list[str], list[tuple[int, list[str]]], ImportReport | None]:
    """``(headers, [(line, cells)], None)`` or ``([], [], report with the file's error)``: the size
    limit, UTF-8, a CSV the ``csv`` module can read (comma or semicolon, from the header line), the
    row limit."""
    if len(file_bytes) > MAX_BYTES:
        return [], [], _file_error(_t("The file is too large ({size} MB): at most {limit} MB. Split it into smaller files.").format(
            size=f"{len(file_bytes) / 1_000_000:.1f}", limit=f"{MAX_BYTES / 1_000_000:g}"))
    try:
        text = file_bytes.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = file_bytes[: exc.start].count(b"\n") + 1
        return [], [], ImportReport(errors=[(line, "", _t("The file is not UTF-8 text (line {line}). Save it as CSV UTF-8.").format(line=line))])
    if not text.strip():
        return [], [], _file_error(_t("The file is empty."))
    first_line = text.splitlines()[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    headers: list[str] | None = None
    line = 1
    try:
        for cells in reader:
            start, line = line, reader.line_num + 1
            if headers is None:
                headers = cells
                continue
            rows.append((start, cells))
            if len(rows) > MAX_ROWS:
                return [], [], _file_error(_t("The file has more than {limit} rows: split it into smaller files.").format(limit=MAX_ROWS))
    except csv.Error as exc:
        return [], [], ImportReport(errors=[(line, "", _t("Line {line} is not valid CSV ({error}).").format(line=line, error=exc))])
    return headers or [], rows, None


def count_rows(file_bytes: bytes) -> int:
    """A quick estimate of the number of data rows (lines after the header), to choose between an
    import in the request and a background job."""
    lines = file_bytes.count(b"\n") + (0 if file_bytes.endswith(b"\n") else 1)
    return max(0, lines - 1)


def _column_map(kind: EntrantKind, headers: list[str]) -> tuple[dict[str, int], list[str]]:
    """``({column: index}, [problems])``: every known column once; a column given twice (``name,name``
    or ``name,naam``) is a problem, never silently one of the two."""
    out: dict[str, int] = {}
    problems: list[str] = []
    for i, header in enumerate(headers):
        h = " ".join((header or "").strip().lower().split())
        for key, aliases in kind.columns.items():
            if h not in aliases:
                continue
            if key in out:
                problems.append(_t("The column {column} appears twice in the header (columns {first} and {second}): "
                                   "keep one.").format(column=" / ".join(dict.fromkeys((headers[out[key]].strip(), header.strip()))),
                                                       first=out[key] + 1, second=i + 1))
            else:
                out[key] = i
    return out, problems


def column_label(report: ImportReport, key: str) -> str:
    """The column ``key`` as the file's header spelled it (``"speler2"`` for ``player2``), so an
    error points at a column the organiser can find in their own file; ``key`` itself when the
    file has no such column (or ``""`` for the row as a whole)."""
    return report.headers.get(key, key)


NUMBER_COLUMNS = ("federation_number", "number1", "number2")
#: The name column each number column belongs to.
NAME_OF_NUMBER = {"federation_number": "name", "number1": "player1", "number2": "player2"}


def _number_errors(form: forms.Form, taken: dict[str, int], line: int) -> list[tuple[str, str]]:
    """Errors for federation numbers already in the tournament (``taken[number] == 0``) or on an
    earlier line of the file; the row's numbers are added to ``taken``."""
    errors = []
    for key in NUMBER_COLUMNS:
        number = form.cleaned_data.get(key) if hasattr(form, "cleaned_data") else None
        if not number:
            continue
        error = persons.number_error(number, form.cleaned_data.get(NAME_OF_NUMBER[key]) or "")
        if error:
            errors.append((key, error))
        elif number in taken:
            earlier = taken[number]
            errors.append((key, _t("The federation number {number} is already used in this tournament.").format(number=number)
                           if not earlier else
                           _t("The federation number {number} is also used on line {line}.").format(number=number, line=earlier)))
        else:
            taken[number] = line
    return errors


def check(kind: EntrantKind, tournament: Tournament, file_bytes: bytes,
          progress: Callable[[int, int], None] | None = None) -> tuple[ImportReport, list[dict[str, Any]]]:
    """Validate every row: ``(report, cleaned rows)``; the rows are good only when ``report.ok``."""
    headers, raw_rows, failed = read_rows(file_bytes)
    if failed is not None:
        return failed, []
    report = ImportReport(rows=len(raw_rows))
    columns, twice = _column_map(kind, headers)
    if twice:
        report.errors.extend((1, "", problem) for problem in twice)
        return report, []
    report.headers = {key: headers[i].strip() for key, i in columns.items()}
    missing = [c for c in kind.required if c not in columns]
    if missing:
        report.errors.append((1, ", ".join(missing), _t("Missing column(s): {columns}.").format(columns=", ".join(missing))))
        return report, []
    existing = {name_key(n): n for n in kind.existing(tournament)}
    first_open = next_round_number(tournament)
    seen: dict[str, int] = {}
    taken_numbers: dict[str, int] = dict.fromkeys(
        Player.objects.filter(tournament=tournament).exclude(federation_number="").values_list("federation_number", flat=True), 0)
    cleaned: list[dict[str, Any]] = []
    width = len(headers)
    for done, (line, cells) in enumerate(raw_rows, start=1):
        if progress is not None and done % 200 == 0:
            progress(done, len(raw_rows))
        # A cell our own export escaped (``'=...``, :mod:`scoring.io.datasets`) reads as its text.
        values = {key: unescape_cell(cells[i]) if i < len(cells) else "" for key, i in columns.items()}
        if not any(v.strip() for v in values.values()) and not any(c.strip() for c in cells):
            continue
        if len(cells) > width:
            report.errors.append((line, "", _t("The row has {count} cells, the header {width}.").format(count=len(cells), width=width)))
        form = kind.entry(values, first_open=first_open)
        valid = form.is_valid()
        row_errors: list[tuple[str, str]] = []
        for key in form.fields:
            for message in form.errors.get(key, []):
                row_errors.append((key, message))
            if key == "name" and "name" in form.cleaned_data:
                name = form.cleaned_data["name"]
                nkey = name_key(name)
                if nkey in existing:
                    row_errors.append(("name", _t(kind.exists_message).format(name=existing[nkey])))
                elif nkey in seen:
                    row_errors.append(("name", _t(kind.repeated_message).format(name=name, line=seen[nkey])))
                else:
                    seen[nkey] = line
        row_errors.extend(_number_errors(form, taken_numbers, line))
        for message in form.non_field_errors():
            row_errors.append(("", message))
        report.errors.extend((line, column_label(report, key), message) for key, message in row_errors)
        if valid and not row_errors:
            cleaned.append(form.cleaned_data)
    if progress is not None:
        progress(len(raw_rows), len(raw_rows))
    if not cleaned and not report.errors:
        report.errors.append((0, "", _t("The file has no rows to import.")))
    return report, cleaned


def _create_teams(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
    players = []
    for row in rows:
        players.append(Player(tournament=tournament, name=row["player1"], affiliation=row["affiliation"],
                              federation_number=row.get("number1") or ""))
        players.append(Player(tournament=tournament, name=row["player2"], affiliation=row["affiliation"],
                              federation_number=row.get("number2") or ""))
    players = Player.objects.bulk_create(persons.attach(players), batch_size=500)
    Team.objects.bulk_create([
        Team(tournament=tournament, name=row["name"], affiliation=row["affiliation"],
             first_player=players[2 * i], second_player=players[2 * i + 1], seed=row["seed"], joined_round=row["joined_round"],
             rating=row.get("rating"))
        for i, row in enumerate(rows)], batch_size=500)


def _create_players(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
    Player.objects.bulk_create(persons.attach([
        Player(tournament=tournament, name=row["name"], affiliation=row["affiliation"], seed=row["seed"],
               joined_round=row["joined_round"], is_substitute=bool(row["substitute"]), rating=row.get("rating"),
               federation_number=row.get("federation_number") or "")
        for row in rows]), batch_size=500)


def _created(create: Callable[[Tournament, list[dict[str, Any]]], None]) -> Callable[[Tournament, list[dict[str, Any]]], None]:
    """``create`` then the entrants' counters bumped (bulk inserts send no signal)."""
    def wrapped(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
        create(tournament, rows)
        live_state.bump(tournament.pk, live_state.ENTRANTS, live_state.STANDINGS)
    return wrapped


CREATE = {TEAMS.key: _created(_create_teams), PLAYERS.key: _created(_create_players)}


def import_entrants(kind: EntrantKind, tournament: Tournament, file_bytes: bytes, *,
                    progress: Callable[[int, int], None] | None = None,
                    on_saved: Callable[[ImportReport], None] | None = None) -> ImportReport:
    """Validate every row (:func:`check`); when all are good, create them in one transaction (with
    ``on_saved(report)`` inside it, so a background job marks itself done atomically). Returns the
    report; nothing is saved when it lists errors."""
    report, rows = check(kind, tournament, file_bytes, progress)
    if not report.ok:
        return report
    with transaction.atomic():
        # Re-check the names inside the transaction (someone may have registered one meanwhile).
        taken = {name_key(n) for n in kind.existing(Tournament.objects.select_for_update().get(pk=tournament.pk))}
        clashes = [row["name"] for row in rows if name_key(row["name"]) in taken]
        if clashes:
            report.errors.append((0, column_label(report, "name"), _t(kind.exists_message).format(name=clashes[0])))
            return report
        CREATE[kind.key](tournament, rows)
        report.created = len(rows)
        if on_saved is not None:
            on_saved(report)
    return report


def import_teams_csv(tournament: Tournament, file_bytes: bytes) -> ImportReport:
    """Import teams (columns :data:`TEAM_COLUMNS`: ``name``, ``player1``, ``player2`` required;
    ``affiliation``, ``seed``, ``joined_round``, ``rating``, ``number1``, ``number2`` (the players'
    federation numbers) optional); see the module."""
    return import_entrants(TEAMS, tournament, file_bytes)


def import_players_csv(tournament: Tournament, file_bytes: bytes) -> ImportReport:
    """Import players of a four-player tournament (columns :data:`PLAYER_COLUMNS`: ``name``
    required; ``federation_number``, ``affiliation``, ``seed``, ``joined_round``, ``substitute``,
    ``rating`` optional)."""
    return import_entrants(PLAYERS, tournament, file_bytes)
