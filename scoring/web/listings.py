"""django-tables2 listings of the public and organiser pages (named "listings": "table" means a
four-player table in this app).

The Tai Pan standings (up to a thousand teams on a public page that phones poll) are a
:class:`LeanTable` built by :func:`standings_listing` from ``scoring.standings.teams.standings()``
rows (``StandingRow`` dataclasses): rank (shared on ties), team, players, played, won/drawn/lost,
match points, point difference, points scored, Buchholz, then one column per tie-break of the
tournament in its order (DESIGN.md 3, issue 2 item 7, issue 4 item 5). Rows are already ranked:
columns are not sortable. django-tables2 serves the smaller listings (organiser lists, the
four-player standings).
"""
from __future__ import annotations

from dataclasses import dataclass
from numbers import Number

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

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


@dataclass(frozen=True)
class LeanColumn:
    """A column of a :class:`LeanTable`: its ``header`` and its cells' ``css`` class."""

    header: object
    css: str = ""

    @property
    def th(self) -> str:
        """The header cell's attributes (with a leading space, or nothing)."""
        return format_html(' class="{}"', self.css.split()[0]) if self.css else ""


@dataclass(frozen=True)
class LeanRow:
    """A row of a :class:`LeanTable`: the ``record`` it shows, its ``css`` class and its cells
    as one ready piece of HTML."""

    record: object
    css: str
    cells: str


class LeanTable:
    """A big listing rendered without django-tables2's per-cell machinery: the view computes every
    cell once, as HTML, and ``templates/standings/_lean_table.html`` only writes the rows out. The
    markup is the one django-tables2 writes for the same table (``class`` of the table, of the
    header and body cells, ``even``/``odd`` rows), so the page looks the same.

    ``columns``: ``[(header, css class, cell)]`` where ``cell(record)`` returns the cell's HTML
    (escaped); ``row_class(record)``: an extra class of the row (``""`` for none)."""

    def __init__(self, records, columns, *, css: str, empty_text, row_class=lambda record: ""):
        self.css = css
        self.empty_text = empty_text
        self.columns = [LeanColumn(header, cls) for header, cls, _cell in columns]
        cells = [(f'<td class="{cls}">' if cls else "<td>", cell) for _header, cls, cell in columns]
        self.rows = []
        for i, record in enumerate(records):
            html = "".join(f"{td}{cell(record)}</td>" for td, cell in cells)
            extra = row_class(record)
            parity = "odd" if i % 2 else "even"
            self.rows.append(LeanRow(record, f"{extra} {parity}" if extra else parity, mark_safe(html)))  # noqa: S308 - cells escaped above


def _number(attr: str):
    return lambda record: format_number(getattr(record, attr))


def standings_listing(rows, *, slug: str, tiebreak_columns=()) -> LeanTable:
    """The Tai Pan standings (:class:`~scoring.standings.teams.StandingRow` rows, already ranked):
    rank, team (linked to its breakdown, withdrawn teams marked), players, played, won, drawn,
    lost, match points, point difference, points scored, Buchholz, then each further tie-break of
    the tournament (``tiebreak_columns``: ``[(key, label)]`` in order). Columns are not sortable."""
    withdrawn = _("withdrawn")
    base = reverse("scoring:team_breakdown", args=[slug, 0])[:-2]  # ".../team/" + id + "/"

    def team(record) -> str:
        link = f'<a href="{base}{record.team_id}/">{escape(record.name)}</a>'
        return f'{link} <span class="muted">({escape(withdrawn)})</span>' if record.withdrawn else link

    def tiebreak(key):
        return lambda record: format_number(record.tiebreaks.get(key, "—"))

    shown = {"point_difference", "points_scored", "buchholz"}
    columns = [
        (_("Rank"), "num", _number("rank")),
        (_("Team"), "", team),
        (_("Players"), "players", lambda record: escape(record.players)),
        (_("Played"), "num", _number("played")),
        (_("Won"), "num", _number("won")),
        (_("Drawn"), "num", _number("drawn")),
        (_("Lost"), "num", _number("lost")),
        (_("Match points"), "num strong", _number("match_points")),
        (_("Point difference"), "num", _number("point_difference")),
        (_("Points scored"), "num", _number("points_scored")),
        (_("Buchholz"), "num", _number("buchholz")),
        *[(label, "num", tiebreak(key)) for key, label in tiebreak_columns if key not in shown],
    ]
    return LeanTable(rows, columns, css="standings", empty_text=_("No teams yet."),
                     row_class=lambda record: "withdrawn" if record.withdrawn else "")


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


class PlayerStandingsTable(tables.Table):
    """Four-player standings by total points."""

    rank = NumberColumn(verbose_name=_("Rank"), default="")
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    affiliation = tables.Column(verbose_name=_("Affiliation"), orderable=False)
    played = NumberColumn(verbose_name=_("Tables"))
    total = NumberColumn(verbose_name=_("Total points"), attrs={"th": {"class": "num"}, "td": {"class": "num strong"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = _("No players yet.")

    def render_name(self, value, record):
        marks = [str(m) for m, on in ((_("substitute"), record.substitute), (_("withdrawn"), record.withdrawn)) if on]
        return f"{value} ({', '.join(marks)})" if marks else value
