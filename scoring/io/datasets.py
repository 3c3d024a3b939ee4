"""Exports as tablib Datasets for the download views and the ``standings`` command: the
standings and a round's tables, for every game, and the example files of the CSV imports.

Every export is written by :func:`export` (or :func:`export_csv`), never by ``Dataset.export``
directly: a name such as ``=HYPERLINK("http://x","y")`` must never become a live formula in a
spreadsheet (CSV injection, OWASP). A text cell that starts with ``= + - @``, a tab or a carriage
return is written as text: in CSV with the OWASP prefix ``'`` (tablib 3.10 has no escaping for
CSV), in XLSX as a string cell marked "quote prefix" holding the exact text (tablib's own XLSX
``escape=True`` only drops a leading ``=``, which changes the name and misses the others).
Numbers stay numbers (a negative total is a number, not text).
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable

import tablib
from django.utils.functional import Promise
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from scoring.games.base import EntrantKind
from scoring.kinds import kind_for
from scoring.models import ResultContainer, Round, Tournament
from scoring.standings import player_standings, team_standings
from scoring.standings.placement import as_number
from scoring.standings.placement import stored as stored_placement
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_TIEBREAKS
from scoring.standings.player_tiebreaks import keys_of as player_tiebreak_keys
from scoring.standings.tiebreaks import REGISTRY

#: What a spreadsheet reads as the start of a formula (OWASP "CSV injection").
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")

#: Export formats: name -> (content type, file extension).
FORMATS = {
    "csv": ("text/csv; charset=utf-8", "csv"),
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
}


def _plain(value):
    return str(value) if isinstance(value, Promise) else value


def is_formula_like(value) -> bool:
    """True for text a spreadsheet would evaluate (starts with ``= + - @``, tab or CR)."""
    value = _plain(value)
    return isinstance(value, str) and value.startswith(FORMULA_PREFIXES)


def safe_cell(value):
    """``value`` for a CSV cell: formula-like text gets the OWASP prefix ``'``; numbers and other
    text are unchanged."""
    value = _plain(value)
    return "'" + value if is_formula_like(value) else value


def unescape_cell(text: str) -> str:
    """The text :func:`safe_cell` escaped (a CSV read back by an import): ``'=1+1`` -> ``=1+1``."""
    return text[1:] if text.startswith("'") and is_formula_like(text[1:]) else text


def export_csv(dataset: tablib.Dataset) -> str:
    """The dataset as CSV text (tablib's CSV writer) with every formula-like text cell escaped
    (:func:`safe_cell`), headers included."""
    safe = tablib.Dataset(headers=[safe_cell(h) for h in dataset.headers] if dataset.headers else None,
                          title=dataset.title)
    for row in dataset:
        safe.append([safe_cell(v) for v in row])
    return safe.export("csv")


#: Characters a worksheet title cannot hold (Excel; openpyxl raises ``ValueError`` on them).
SHEET_TITLE_FORBIDDEN = re.compile(r"[\\/?*\[\]:]")


def sheet_title(title, fallback: str = "Sheet") -> str:
    """``title`` as a valid worksheet title: ``\\ / ? * [ ] :`` become ``-``, control characters
    are dropped, at most 31 characters (UTF-16 units, as Excel counts), no leading/trailing
    apostrophe, never Excel's reserved ``History``; ``fallback`` when nothing is left.
    ``"Seizoen 2025/26"`` -> ``"Seizoen 2025-26"``."""
    text = SHEET_TITLE_FORBIDDEN.sub("-", "".join(c for c in str(_plain(title) or "") if c.isprintable()))
    while len(text.encode("utf-16-le")) > 62:
        text = text[:-1]
    text = text.strip().strip("'")
    if text.lower() == "history":
        text += "-"
    return text or fallback


def export_xlsx(dataset: tablib.Dataset) -> bytes:
    """The dataset as an XLSX workbook (one sheet, bold frozen header row). Text is always a
    string cell, never a formula: formula-like text is kept exactly and marked quote-prefixed
    (Excel shows it as text and keeps it text when edited). Numbers are number cells. Control
    characters XLSX cannot hold are dropped."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = sheet_title(dataset.title)
    bold = Font(bold=True)
    rows = ([list(dataset.headers)] if dataset.headers else []) + [list(r) for r in dataset]
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            value = _plain(value)
            cell = ws.cell(row=r, column=c)
            if isinstance(value, str):
                value = ILLEGAL_CHARACTERS_RE.sub("", value)
                cell.value = value
                cell.data_type = "s"  # never "f": text stays text
                if is_formula_like(value):
                    cell.quotePrefix = True
            else:
                cell.value = value
            if r == 1 and dataset.headers:
                cell.font = bold
    if dataset.headers:
        ws.freeze_panes = "A2"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def export(dataset: tablib.Dataset, fmt: str) -> bytes:
    """The dataset as a download in ``fmt`` (:data:`FORMATS`): CSV as UTF-8 with a BOM (so
    spreadsheet programs read UTF-8), or XLSX; formula-like text is always written as text."""
    if fmt == "csv":
        return ("\ufeff" + export_csv(dataset)).encode("utf-8")
    if fmt == "xlsx":
        return export_xlsx(dataset)
    raise ValueError(f"unknown export format {fmt!r}")


def standings_dataset(t: Tournament, *, through_round: int | None = None) -> tablib.Dataset:
    """The standings as a tablib Dataset (translated headers; one row per entrant, best first;
    Tai Pan: extra columns for the tournament's other tie-breaks). ``.export("csv")`` / ``("xlsx")``."""
    return BY_ENTRANTS[t.adapter.entrants](t, through_round)


def _team_standings_dataset(t: Tournament, through_round: int | None) -> tablib.Dataset:
    rows = team_standings(t, through_round=through_round)
    base = {"point_difference", "points_scored", "buchholz"}
    keys = [k for k in (rows[0].tiebreaks if rows else {}) if k not in base]
    headers = [_t("Rank"), _t("Team"), _t("Players"), _t("Affiliation"), _t("Played"), _t("Won"), _t("Drawn"),
               _t("Lost"), _t("Byes"), _t("Match points"), _t("Point difference"), _t("Points scored"), _t("Buchholz")]
    headers += [str(REGISTRY[k].label) for k in keys] + [_t("Withdrawn")]
    ds = tablib.Dataset(headers=headers, title=str(_("Standings"))[:31])
    for r in rows:
        ds.append([r.rank, r.name, r.players, r.affiliation, r.played, r.won, r.drawn, r.lost, r.byes,
                   r.match_points, r.point_difference, r.points_scored, r.buchholz]
                  + [r.tiebreaks.get(k) for k in keys] + [_t("yes") if r.withdrawn else ""])
    return ds


def _player_standings_dataset(t: Tournament, through_round: int | None) -> tablib.Dataset:
    """Four-player standings; with placement points a "Placement points" column (exact values as
    numbers with at most two decimals, :func:`scoring.standings.placement.as_number`) before the
    total and a column per player tie-break after it."""
    rows = player_standings(t, through_round=through_round)
    with_placement = stored_placement(t.placement).enabled
    keys = player_tiebreak_keys(t.tiebreaks) if with_placement else []
    headers = [_t("Rank"), _t("Player"), _t("Affiliation"), _t("Tables")]
    headers += ([_t("Placement points")] if with_placement else []) + [_t("Total points")]
    headers += [str(PLAYER_TIEBREAKS[k].label) for k in keys] + [_t("Substitute"), _t("Withdrawn")]
    ds = tablib.Dataset(headers=headers, title=str(_("Standings"))[:31])
    for r in rows:
        points = [as_number(r.placement_points)] if with_placement else []
        ds.append([r.rank if r.rank is not None else "", r.name, r.affiliation, r.played, *points, r.total]
                  + [as_number(r.tiebreaks.get(k)) for k in keys]
                  + [_t("yes") if r.substitute else "", _t("yes") if r.withdrawn else ""])
    return ds


def round_dataset(rnd: Round, totals_hidden: Callable[[ResultContainer], bool] | None = None) -> tablib.Dataset:
    """The tables of a round as a tablib Dataset: table number, every side (Tai Pan: both teams with
    their players, a bye has an empty EW side; four-player: the four seated players), the reason
    the table was drawn, its status and the totals per side. ``totals_hidden(container)``: True
    for a result whose totals the reader may not see (blind confirmation,
    :func:`scoring.results.sheet.totals_hidden`); its total cells stay empty."""
    adapter = rnd.tournament.adapter
    kind = kind_for(adapter)
    labels = adapter.side_labels()
    rows, with_players = [], False
    for c in kind.in_round(rnd):
        c.round = rnd
        sides = kind.sides(c, adapter)
        with_players = with_players or any(side["players"] for side in sides)
        totals = [""] * len(labels) if totals_hidden and totals_hidden(c) else kind.totals(c)
        rows.append((kind.number(c), sides, kind.note(c), c.get_status_display(), totals))
    headers = [_t("Table")]
    for label in labels:
        headers += [label] + ([_t("Players %(side)s") % {"side": label}] if with_players else [])
    headers += [_t("Note"), _t("Status")] + [_t("Total %(side)s") % {"side": label} for label in labels]
    ds = tablib.Dataset(headers=headers, title=(_t("Round") + f" {rnd.number}")[:31])
    for number, sides, note, status, totals in rows:
        row = [number]
        for side in sides:
            row.append(side["name"] or _t("bye"))
            if with_players:
                row.append(" & ".join(name for _seat, name in side["players"]))
        ds.append(row + [note, status] + totals)
    return ds


BY_ENTRANTS = {EntrantKind.TEAMS: _team_standings_dataset, EntrantKind.PLAYERS: _player_standings_dataset}
