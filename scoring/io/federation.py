"""The federation export of a tournament's results (issue 26 item 5, docs/tournaments.md
"Federation export"): the ranking with a column per player (full name and federation number),
the totals and tie-breaks, and per round the opponent and the result. For the organiser only
(it carries full names and federation numbers): the page ``/t/<slug>/federation-export/`` and
``GET /api/v1/tournaments/{slug}/federation-export``, both from :func:`federation_rows`.

Built from the cross table (:func:`scoring.standings.crosstable.cross_table`) with full names;
written as CSV or XLSX through :func:`scoring.io.datasets.export` (formula-like text is inert).
"""
from __future__ import annotations

import tablib
from django.utils.translation import gettext as _

from scoring.models import Tournament
from scoring.standings.crosstable import CrossTable, Row, cross_table
from scoring.standings.placement import as_number


def full_name(player) -> str:
    """The player's name as entered (the organiser's own output)."""
    return player.name


def _opponent_names(table: CrossTable, cell) -> str:
    by_number = {row.number: row for row in table.rows}
    return " / ".join(by_number[n].name for n in cell.opponents if n in by_number)


def _rounds(table: CrossTable, row: Row) -> list[dict]:
    out = []
    for number, cell in zip(table.rounds, row.cells, strict=True):
        if cell is None:
            out.append({"round": number, "opponent": "", "result": ""})
        else:
            out.append({"round": number, "opponent": _opponent_names(table, cell), "result": cell.result_text()})
    return out


def federation_rows(tournament: Tournament) -> dict:
    """The export as plain data: ``{"entrants": "teams"|"players", "rounds": [numbers],
    "columns": [(key, label)] (the totals), "rows": [{"rank", "name" (team or player),
    "affiliation", "players": [{"name", "federation_number"}] (Tai Pan two, four-player one),
    "totals": {key: number}, "rounds": [{"round", "opponent", "result"}]}]}`` in standings order,
    full names. ``rank`` is ``None`` for a player without a counted table."""
    table = cross_table(tournament, name_of=full_name)
    rows = [{
        "rank": row.rank,
        "name": row.name,
        "affiliation": row.affiliation,
        "players": [{"name": p.name, "federation_number": p.federation_number} for p in row.people],
        "totals": {key: as_number(value) for key, value in row.totals.items()},
        "rounds": _rounds(table, row),
    } for row in table.rows]
    return {"entrants": table.entrants, "rounds": table.rounds, "columns": table.columns, "rows": rows}


def federation_dataset(tournament: Tournament) -> tablib.Dataset:
    """:func:`federation_rows` as a tablib Dataset (translated headers): rank, team, player 1,
    federation number 1, player 2, federation number 2 (four-player: player, federation number),
    affiliation, the totals, then per round "Round N opponent" and "Round N result". Write it
    with :func:`scoring.io.datasets.export` (never ``Dataset.export``: formula safety)."""
    data = federation_rows(tournament)
    teams = data["entrants"] == "teams"
    if teams:
        headers = [_("Rank"), _("Team"), _("Player 1"), _("Federation number 1"), _("Player 2"),
                   _("Federation number 2")]
    else:
        headers = [_("Rank"), _("Player"), _("Federation number")]
    headers += [_("Affiliation")] + [str(label) for _key, label in data["columns"]]
    for number in data["rounds"]:
        headers += [_("Round %(number)s opponent") % {"number": number},
                    _("Round %(number)s result") % {"number": number}]
    ds = tablib.Dataset(headers=headers, title=str(_("Federation export"))[:31])
    for row in data["rows"]:
        line = [row["rank"] if row["rank"] is not None else ""]
        if teams:
            line.append(row["name"])
        for player in row["players"]:
            line += [player["name"], player["federation_number"]]
        line.append(row["affiliation"])
        line += [row["totals"].get(key) for key, _label in data["columns"]]
        for rnd in row["rounds"]:
            line += [rnd["opponent"], rnd["result"]]
        ds.append(line)
    return ds
