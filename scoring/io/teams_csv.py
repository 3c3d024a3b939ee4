"""Teams from CSV (tablib): every row is checked first and nothing is imported when any row is
wrong (:class:`ImportReport` lists the errors by line and column)."""
from __future__ import annotations

from dataclasses import dataclass, field

import tablib
from django.db import transaction
from django.utils.translation import gettext as _t

from scoring.models import Player, Team, Tournament


@dataclass
class ImportReport:
    """Result of :func:`import_teams_csv`: ``created`` (number of teams created, 0 when any row
    was wrong) and ``errors``: ``[(row, column, message)]`` with ``row`` the CSV line number
    (the header is line 1; 0 for the file as a whole)."""

    created: int = 0
    errors: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing was wrong (and the teams were imported)."""
        return not self.errors


TEAM_COLUMNS = {
    "name": ("name", "team", "team name", "teamnaam", "naam"),
    "player1": ("player1", "player 1", "first player", "speler1", "speler 1"),
    "player2": ("player2", "player 2", "second player", "speler2", "speler 2"),
    "affiliation": ("affiliation", "association", "club", "vereniging"),
    "seed": ("seed",),
    "joined_round": ("joined_round", "joined round", "from round"),
}


def _column_map(headers: list[str]) -> dict[str, int]:
    out = {}
    for i, header in enumerate(headers):
        h = (header or "").strip().lower()
        for key, aliases in TEAM_COLUMNS.items():
            if h in aliases and key not in out:
                out[key] = i
    return out


def import_teams_csv(tournament: Tournament, file_bytes: bytes) -> ImportReport:
    """Import teams from CSV (UTF-8, comma or semicolon separated, header row required).

    Columns (case-insensitive; Dutch aliases accepted): ``name``, ``player1``, ``player2``
    (required), ``affiliation``, ``seed``, ``joined_round`` (optional). Every row is checked
    first: empty required values, a name used twice in the file or already in the tournament,
    a seed or round that is not a positive whole number. If any row is wrong nothing is imported
    and the report lists every error; otherwise all teams are created in one transaction."""
    report = ImportReport()
    try:
        text = file_bytes.decode("utf-8-sig")
    except UnicodeDecodeError:
        report.errors.append((0, "", _t("The file is not UTF-8 text.")))
        return report
    first_line = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    try:
        data = tablib.Dataset().load(text, format="csv", delimiter=delimiter)
    except Exception:  # tablib raises several kinds on malformed CSV
        report.errors.append((0, "", _t("The file could not be read as CSV.")))
        return report
    columns = _column_map(list(data.headers or []))
    missing = [c for c in ("name", "player1", "player2") if c not in columns]
    if missing:
        report.errors.append((1, ", ".join(missing), _t("Missing column(s): {columns}.").format(columns=", ".join(missing))))
        return report
    existing = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    # A team joins a round not paired yet (a draft counts as paired), as on the team form.
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    first_open = (last or 0) + 1
    seen: dict[str, int] = {}
    rows = []
    for index, raw in enumerate(data, start=2):
        def value(key, raw=raw):
            i = columns.get(key)
            return (raw[i] or "").strip() if i is not None and i < len(raw) else ""
        row = {key: value(key) for key in TEAM_COLUMNS}
        if not any(row.values()):
            continue
        for key in ("name", "player1", "player2"):
            if not row[key]:
                report.errors.append((index, key, _t("This value is required.")))
        name = row["name"]
        if name:
            if name in existing:
                report.errors.append((index, "name", _t("A team named {name!r} already exists in this tournament.").format(name=name)))
            elif name in seen:
                report.errors.append((index, "name", _t("The team name {name!r} is also used on line {line}.").format(name=name, line=seen[name])))
            else:
                seen[name] = index
            if len(name) > Team._meta.get_field("name").max_length:
                report.errors.append((index, "name", _t("The name is too long.")))
        for key in ("seed", "joined_round"):
            if row[key]:
                if not row[key].isdigit() or int(row[key]) < 1:
                    report.errors.append((index, key, _t("Must be a whole number of 1 or more, not {value!r}.").format(value=row[key])))
                elif key == "joined_round" and int(row[key]) < first_open:
                    report.errors.append((index, key, _t("Round %(round)d is already paired or played: a team can join round %(first)d at the earliest.")
                                          % {"round": int(row[key]), "first": first_open}))
        rows.append(row)
    if not rows and not report.errors:
        report.errors.append((0, "", _t("The file has no teams.")))
    if report.errors:
        return report
    with transaction.atomic():
        for row in rows:
            first = Player.objects.create(tournament=tournament, name=row["player1"], affiliation=row["affiliation"])
            second = Player.objects.create(tournament=tournament, name=row["player2"], affiliation=row["affiliation"])
            Team.objects.create(
                tournament=tournament, name=row["name"], affiliation=row["affiliation"],
                first_player=first, second_player=second,
                seed=int(row["seed"]) if row["seed"] else None,
                joined_round=int(row["joined_round"]) if row["joined_round"] else first_open,
            )
    report.created = len(rows)
    return report


# --------------------------------------------------------------------------- datasets


