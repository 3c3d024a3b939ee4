"""Listings of the public and organiser pages (named "listings": "table" means a four-player
table in this app).

The public standings (page and projector) are a :class:`Grid`: plain column and row objects whose
cell values are computed here once (numbers formatted, the name cell's link built), rendered by a
plain template (``standings/_grid.html``) without per-cell rendering machinery. That keeps the
page fast at a thousand teams (django-tables2's per-cell rendering was 85 % of the page's time).
The full table writes bare cells (:attr:`GridRow.lean_html`, ``table.lean``: the stylesheet
aligns by column), about 250 bytes a row instead of 700; the phone's compact view
(:mod:`scoring.web.compact`) writes its few rows as labelled cards (:attr:`GridRow.html`).
:func:`team_grid` renders ``scoring.standings.teams.standings()`` rows (``StandingRow``): rank
(shared on ties), team, players, played, won/drawn/lost, match points, point difference, points
scored, Buchholz, then one column per further tie-break of the tournament in its order
(docs/tournaments.md, issue 2 item 7, issue 4 item 5); :func:`player_grid` the four-player standings.

The organiser listings (teams, players) stay django-tables2 tables (sortable where useful).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from numbers import Number
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from scoring.standings.placement import render as render_points

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def format_number(value) -> str:
    """Integers as is, fractions with at most 2 decimals (e.g. median Buchholz 7.5)."""
    if value is None:
        return "—"
    if isinstance(value, bool) or not isinstance(value, Number):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


class NumberColumn(tables.Column):
    """A right-aligned number column (fractions rounded for display)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("orderable", False)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_number(value)


class TeamTable(tables.Table):
    """Organiser team list: name, players, affiliation, seed, late entry, withdrawal, edit link."""

    name = tables.Column(verbose_name=_("Team"))
    players = tables.Column(verbose_name=_("Players"), empty_values=(), orderable=False)
    affiliation = tables.Column(verbose_name=_("Affiliation"))
    seed = NumberColumn(verbose_name=_("Seed"), orderable=True)
    joined_round = NumberColumn(verbose_name=_("Joined in round"), orderable=True)
    withdrawn_after_round = NumberColumn(verbose_name=_("Withdrawn after round"), orderable=True, default="")
    edit = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        attrs = {"class": "teams"}
        empty_text = _("No teams registered yet.")
        row_attrs = {"class": lambda record: "withdrawn" if record.withdrawn_after_round is not None else ""}

    def __init__(self, data, *, slug: str, **kwargs):
        self.slug = slug
        super().__init__(data, **kwargs)

    def render_players(self, record):
        return record.player_names

    def render_withdrawn_after_round(self, value):
        return format_number(value)

    def render_edit(self, record):
        return format_html('<a href="{}">{}</a>', reverse("scoring:team_edit", args=[self.slug, record.pk]), _("Edit"))


class PlayerListTable(tables.Table):
    """Registered players of a four-player tournament (organiser view)."""

    name = tables.Column(verbose_name=_("name"))
    affiliation = tables.Column(verbose_name=_("affiliation"))
    seed = NumberColumn(verbose_name=_("seed"))
    joined_round = NumberColumn(verbose_name=_("joined in round"))
    withdrawn_after_round = NumberColumn(verbose_name=_("withdrawn after round"), default="")
    is_substitute = tables.BooleanColumn(verbose_name=_("substitute"))

    class Meta:
        orderable = False
        attrs = {"class": "players"}
        empty_text = _("No players yet.")

    def __init__(self, data, *, slug: str, **kwargs):
        self.slug = slug
        super().__init__(data, **kwargs)

    def render_name(self, value, record):
        return format_html('<a href="{}">{}</a>', reverse("scoring:player_edit", args=[self.slug, record.pk]), value)


# --------------------------------------------------------------------------- public standings grid


@dataclass(frozen=True)
class GridColumn:
    """One column of a :class:`Grid`: ``header`` (the full heading), ``short`` (the heading on
    the projector and in the phone cards), ``css`` (classes of its cells: ``num`` right-aligned;
    the card roles ``c-rank``, ``c-name``, ``c-main`` (the ranking points), ``c-sub`` (a second
    line under the name), ``c-detail`` (the smaller numbers), ``tiebreak``, ``zero`` (a tie-break
    that is 0 for everyone: not on the phone cards) and ``brief``: the short heading at every
    width)."""

    key: str
    header: Any
    short: Any
    css: str = ""

    @property
    def abbreviated(self) -> bool:
        return str(self.short) != str(self.header)


@dataclass
class GridRow:
    """A row of a :class:`Grid`: its ``record`` (the standings row), ``cells``, one ``(css,
    label, html)`` per column (``html`` escaped already), and ``html``: the row's ``<td>``
    elements, joined once here so that the template writes one string per row.

    ``cells_of``: the cells, or a function of no arguments that makes them when they are first
    read: a phone's compact standings write some 20 rows of a field of hundreds, and only those
    rows' cells are made (formatting, escaping and a URL per row was most of a standings
    refresh's time under load, ``benchmarks/load``)."""

    record: Any
    cells_of: Any
    css: str = ""
    off: bool = False
    mine: bool = False

    @property
    def cells(self) -> list[tuple[str, str, str]]:
        """The row's cells, made on first use."""
        if callable(self.cells_of):
            self.cells_of = self.cells_of()
        return self.cells_of

    @property
    def html(self) -> str:
        return mark_safe("".join(f'<td class="{css}" data-label="{label}">{value}</td>'  # noqa: S308 - parts escaped
                                 for css, label, value in self.cells))

    @property
    def classes(self) -> str:
        """The row's classes: its own (``withdrawn``), ``off`` (not on the projector's screen)
        and ``mine`` (the phone's own entrant)."""
        return " ".join(c for c in (self.css, "off" if self.off else "", "mine" if self.mine else "") if c)

    @property
    def lean_html(self) -> str:
        """The row's cells for the full table (``table.lean``): bare ``<td>`` elements, the
        ranking points ``class="m"``; alignment and the rest come from the stylesheet by column
        (about a third of :attr:`html`'s bytes, which the phone cards need)."""
        return mark_safe("".join(f'<td class="m">{value}</td>' if "c-main" in css else f"<td>{value}</td>"  # noqa: S308
                                 for css, _label, value in self.cells))


@dataclass
class Grid:
    """The standings as plain columns and rows (see the module docstring). ``zero_columns``: keys
    of the tie-break columns whose every value is 0 (or missing), hidden on the projector."""

    columns: list[GridColumn]
    rows: list[GridRow]
    empty_text: Any = ""
    zero_columns: set[str] = field(default_factory=set)

    @property
    def legend(self) -> list[tuple[str, str]]:
        """``(short, header)`` of every column shown by an abbreviation on the projector (the
        rank's "#" aside), for the line under the table that a hall audience reads."""
        return [(str(c.short), str(c.header)) for c in self.columns if c.abbreviated and c.key != "rank"]

    @property
    def text_third(self) -> bool:
        """True when the third column holds text (players, affiliation), left-aligned in
        ``table.lean``; the projector leaves it out, and then it holds numbers."""
        return len(self.columns) > 2 and "c-sub" in self.columns[2].css

    def without(self, keys: set[str]) -> Grid:
        """The same grid without the columns ``keys``."""
        keep = [i for i, c in enumerate(self.columns) if c.key not in keys]
        return Grid([self.columns[i] for i in keep],
                     [GridRow(r.record, partial(_kept, r, keep), r.css) for r in self.rows],
                     self.empty_text, self.zero_columns - keys)


def _kept(row: GridRow, keep: list[int]) -> list[tuple[str, str, str]]:
    return [row.cells[i] for i in keep]


def _cells(meta: list[tuple[str, str]], values, record) -> list[tuple[str, str, str]]:
    return [(css, label, conditional_escape(value)) for (css, label), value in zip(meta, values(record), strict=True)]


def _build(columns: list[GridColumn], records, values) -> list[GridRow]:
    """Rows of ``records``: ``values(record)`` gives one html string per column, called when the
    row's cells are first read (:class:`GridRow`)."""
    meta = [(conditional_escape(c.css), conditional_escape(c.short)) for c in columns]
    return [GridRow(record, partial(_cells, meta, values, record), "withdrawn" if getattr(record, "withdrawn", False) else "")
            for record in records]


def _zero_columns(columns: list[GridColumn], records, getters: dict) -> set[str]:
    return {c.key for c in columns if "tiebreak" in c.css
            and all(not getters[c.key](r) for r in records)}


NUMBERS = "num c-detail"
BRIEF = "num c-detail brief"
TIEBREAK = "num c-detail tiebreak"


def team_grid(records: list, *, slug: str, tiebreak_columns=()) -> Grid:
    """The Tai Pan standings grid of ``records`` (``StandingRow``); ``tiebreak_columns``:
    ``[(key, label), ...]`` in the tournament's order (those not shown anyway get a column)."""
    shown = {"point_difference", "points_scored", "buchholz"}
    short_tb = {"head_to_head": _("H2H"), "median_buchholz": _("MBH"), "sonneborn_berger": _("SB"), "wins": _("Wins")}
    columns = [
        GridColumn("rank", _("Rank"), "#", "num c-rank"),
        GridColumn("name", _("Team"), _("Team"), "c-name"),
        GridColumn("players", _("Players"), _("Players"), "players c-sub"),
        GridColumn("played", _("Played"), _("Pl."), BRIEF),
        GridColumn("won", _("Won"), _("W"), BRIEF),
        GridColumn("drawn", _("Drawn"), _("D"), BRIEF),
        GridColumn("lost", _("Lost"), _("L"), BRIEF),
        GridColumn("match_points", _("Match points"), _("MP"), "num strong c-main"),
        GridColumn("point_difference", _("Point difference"), _("Diff."), TIEBREAK),
        GridColumn("points_scored", _("Points scored"), _("Scored"), TIEBREAK),
        GridColumn("buchholz", _("Buchholz"), _("BH"), TIEBREAK),
    ]
    extra = [key for key, _label in tiebreak_columns if key not in shown]
    labels = dict(tiebreak_columns)
    columns += [GridColumn(f"tb_{key}", labels[key], short_tb.get(key, labels[key]), TIEBREAK) for key in extra]
    withdrawn_text = conditional_escape(_("withdrawn"))

    def values(r):
        url = reverse("scoring:team_breakdown", args=[slug, r.team_id])
        name = format_html('<a href="{}">{}</a>', url, r.name)
        if r.withdrawn:
            name = mark_safe(f'{name} <span class="muted">({withdrawn_text})</span>')  # noqa: S308 - both parts escaped
        return [str(r.rank), name, conditional_escape(r.players), str(r.played), str(r.won), str(r.drawn), str(r.lost),
                str(r.match_points), format_number(r.point_difference), format_number(r.points_scored),
                format_number(r.buchholz), *(format_number(r.tiebreaks.get(key)) for key in extra)]

    getters = {"point_difference": lambda r: r.point_difference, "points_scored": lambda r: r.points_scored,
               "buchholz": lambda r: r.buchholz}
    getters.update({f"tb_{key}": (lambda r, key=key: r.tiebreaks.get(key)) for key in extra})
    zero = _zero_columns(columns, records, getters)
    # all-zero tie-breaks: left out of the phone cards (CSS) and of the projector (the view)
    columns = [replace(c, css=f"{c.css} zero") if c.key in zero else c for c in columns]
    return Grid(columns, _build(columns, records, values), _("No teams yet."), zero)


def player_grid(records: list, *, slug: str, placement: bool = False) -> Grid:
    """The four-player standings grid of ``records`` (``scoring.standings.players.StandingRow``):
    rank (none before a first table), player (linked to the player page; substitute and withdrawn
    marked), affiliation, tables played, total points; with ``placement``, placement points
    first (the ranking's first criterion) and total points as a detail."""
    columns = [
        GridColumn("rank", _("Rank"), "#", "num c-rank"),
        GridColumn("name", _("Player"), _("Player"), "c-name"),
        GridColumn("affiliation", _("Affiliation"), _("Affiliation"), "affiliation c-sub"),
        GridColumn("played", _("Tables"), _("Tables"), NUMBERS),
    ]
    if placement:
        columns += [GridColumn("placement", _("Placement points"), _("PP"), "num strong c-main"),
                    GridColumn("total", _("Total points"), _("Pts"), NUMBERS)]
    else:
        columns.append(GridColumn("total", _("Total points"), _("Points"), "num strong c-main"))
    substitute, withdrawn = conditional_escape(_("substitute")), conditional_escape(_("withdrawn"))

    def values(r):
        url = reverse("scoring:player_page", args=[slug, r.player_id])
        name = format_html('<a href="{}">{}</a>', url, r.name)
        marks = [m for m, on in ((substitute, r.substitute), (withdrawn, r.withdrawn)) if on]
        if marks:
            name = mark_safe(f'{name} <span class="muted">({", ".join(marks)})</span>')  # noqa: S308 - escaped parts
        cells = ["" if r.rank is None else str(r.rank), name, conditional_escape(r.affiliation), str(r.played)]
        if placement:
            cells.append(render_points(r.placement_points))
        return cells + [str(r.total)]

    return Grid(columns, _build(columns, records, values), _("No players yet."))
