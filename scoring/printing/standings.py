"""The standings as a PDF (A4 landscape), from the same standings as the pages."""
from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle

from scoring.games.base import EntrantKind
from scoring.models import Tournament
from scoring.printing.common import FONT, FONT_BOLD, MARGIN, SMALLEST_HEAD, build, column_width, head_para, para, styles
from scoring.standings import player_standings, team_standings
from scoring.standings.placement import render as render_points
from scoring.standings.placement import stored as stored_placement
from scoring.standings.teams import tiebreak_keys
from scoring.standings.tiebreaks import REGISTRY


def _num(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def standings_pdf(tournament: Tournament, *, through_round: int | None = None, after_round: int | None = None) -> bytes:
    """The standings of ``tournament`` (A4 landscape) from ``services.standings.standings``: rank
    (shared on ties), team, players, played, won/drawn/lost, match points, point difference,
    points scored, Buchholz and the tournament's further tie-breaks. The heading says "after
    round N": ``through_round`` (the standings counted through it), else ``after_round`` (the
    heading only: the last round with counted results, as the standings page says)."""
    return BY_ENTRANTS[tournament.adapter.entrants](tournament, through_round, through_round or after_round)


def _heading(tournament: Tournament, after_round: int | None, st) -> list:
    """The title and "Standings · after round N" (N: ``after_round``, left out when None)."""
    after = _("after round %(number)s") % {"number": after_round} if after_round else ""
    return [para(tournament.name, st["title"]), para(_("Standings") + (f" · {after}" if after else ""), st["h2"])]


def _team_standings_pdf(tournament: Tournament, through_round: int | None, after_round: int | None) -> bytes:
    """Tai Pan standings: rank, team, players, W/D/L, match points and every tie-break."""
    rows_data = team_standings(tournament, through_round=through_round)
    st = styles()
    extra_keys = _extra_tiebreak_keys(rows_data)
    table = _team_table(_team_rows(rows_data, extra_keys, st), len(extra_keys), st)
    order_keys = list(tiebreak_keys(tournament))
    order = ", ".join(str(x) for x in _tiebreak_labels(order_keys).values())
    head = _heading(tournament, after_round, st)
    if order:
        head.append(para(_("Order: match points, then %(tiebreaks)s.") % {"tiebreaks": order}, st["small"]))
    flow = [KeepTogether(head + [Spacer(1, 2 * mm)]), table]
    label = _("standings")
    return build(flow, f"{tournament.name} - {label}", landscape(A4))


#: The padding (left/right, points) of the headings of the team standings: room for whole words.
HEAD_PADDING = 2.5

#: The tie-breaks that have a column of their own in the team standings (the others follow them).
_SHOWN_TIEBREAKS = {"point_difference", "points_scored", "buchholz", "match_points"}


def _extra_tiebreak_keys(rows_data) -> list[str]:
    """The keys of the rows' ``tiebreaks`` without a column of their own, in order of appearance
    (each once)."""
    extra_keys: list[str] = []
    for row in rows_data:
        for key in (row.tiebreaks or {}):
            if key not in _SHOWN_TIEBREAKS and key not in extra_keys:
                extra_keys.append(key)
    return extra_keys


def _team_rows(rows_data, extra_keys: list[str], st) -> list[list]:
    """The table's rows: the head (texts; :func:`_team_table` makes them wrapping headings), then one row per team of
    ``rows_data`` (rank, team, players, played, W/D/L, MP, PD, points, Buchholz, then the
    ``extra_keys`` tie-breaks; a withdrawn team marked so)."""
    base = [_("Rank"), _("Team"), _("Players"), _("Played"), _("W"), _("D"), _("L"), _("MP"), _("PD"), _("Points"), _("Buchholz")]
    labels = _tiebreak_labels(extra_keys)
    header = [str(text) for text in base + [labels[k] for k in extra_keys]]
    rows = [header]
    for r in rows_data:
        name = f"{r.name} ({_('withdrawn')})" if getattr(r, "withdrawn", False) else r.name
        rows.append(
            [
                r.rank,
                para(name, st["cell"]),
                para(r.players, st["cell"]),
                r.played,
                r.won,
                r.drawn,
                r.lost,
                _num(r.match_points),
                _num(r.point_difference),
                _num(r.points_scored),
                _num(r.buchholz),
            ]
            + [_num((r.tiebreaks or {}).get(k)) for k in extra_keys]
        )
    return rows


def _team_table(rows: list[list], extra: int, st) -> Table:
    """The team standings table of ``rows`` (:func:`_team_rows`) with ``extra`` tie-break columns
    after Buchholz, as wide as the landscape A4 frame; its head repeats on every page."""
    head = rows[0]
    numbers = [16 * mm, 10 * mm, 10 * mm, 10 * mm, 13 * mm, 16 * mm, 17 * mm, 19 * mm] + [18 * mm] * extra
    # A heading wraps at its spaces only, in smaller type where a word is long ("Sonneborn-Berger",
    # "overwinningen"); a column is widened where even the smallest type does not hold the word.
    smallest = ParagraphStyle("head-smallest", parent=st["head"], fontSize=SMALLEST_HEAD)
    numbers = [column_width([text], smallest, width, HEAD_PADDING) for text, width in zip(head[3:], numbers, strict=True)]
    # The page's frame width (landscape A4 less margins and padding) is shared out so that the
    # table always fits: the team and players columns take what the numbers leave.
    names = landscape(A4)[0] - 2 * MARGIN - 12 - 14 * mm - sum(numbers)
    widths = [14 * mm, names * 0.45, names * 0.55] + numbers
    rows = [[head_para(text, st["head"], width, HEAD_PADDING) for text, width in zip(head, widths, strict=True)], *rows[1:]]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 8.5),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf3")),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f8fa")]),
                ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
                ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
                ("ALIGN", (0, 1), (0, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LEFTPADDING", (0, 0), (-1, 0), HEAD_PADDING), ("RIGHTPADDING", (0, 0), (-1, 0), HEAD_PADDING),
            ]
        )
    )
    return table


def _tiebreak_labels(keys: Iterable[str]) -> dict[str, str]:
    """Translated labels of tie-break ``keys`` (``scoring.standings.tiebreaks.REGISTRY``; the key itself
    when the registry is missing or does not know it)."""
    out = {}
    for key in keys:
        cls = REGISTRY.get(key)
        out[key] = str(getattr(cls, "label", key)) if cls else key
    return out


def _player_standings_pdf(tournament: Tournament, through_round: int | None, after_round: int | None) -> bytes:
    """Four-player standings: rank, player, affiliation, tables played, placement points (when
    the tournament has them, :mod:`scoring.standings.placement`) and total points."""
    st = styles()
    placement = stored_placement(tournament.placement).enabled
    heads = [_("Rank"), _("Player"), _("Affiliation"), _("Tables")] + ([_("Placement points")] if placement else [])
    rows = [[para(text, st["head"]) for text in (*heads, _("Total points"))]]
    for r in player_standings(tournament, through_round=through_round):
        marks = [str(m) for m, on in ((_("substitute"), r.substitute), (_("withdrawn"), r.withdrawn)) if on]
        name = f"{r.name} ({', '.join(marks)})" if marks else r.name
        points = [render_points(r.placement_points)] if placement else []
        rows.append([r.rank if r.rank is not None else "", para(name, st["cell"]), para(r.affiliation, st["cell"]), r.played,
                     *points, r.total])
    width = landscape(A4)[0] - 2 * MARGIN - 12
    # The number columns are as wide as their headings' longest words ("Plaatsingspunten" whole).
    numbers = [column_width([text], st["head"], minimum) for text, minimum in zip(
        [_("Tables")] + ([_("Placement points")] if placement else []) + [_("Total points")],
        [22 * mm] + ([28 * mm] if placement else []) + [28 * mm], strict=True)]
    table = Table(rows, colWidths=[16 * mm, width * 0.45, width - 16 * mm - width * 0.45 - sum(numbers), *numbers], repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9), ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf3")),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f8fa")]),
        ("ALIGN", (3, 1), (-1, -1), "RIGHT"), ("ALIGN", (0, 1), (0, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    head = _heading(tournament, after_round, st)
    return build([KeepTogether(head + [Spacer(1, 2 * mm)]), table], f"{tournament.name} - {_('standings')}", landscape(A4))


BY_ENTRANTS = {EntrantKind.TEAMS: _team_standings_pdf, EntrantKind.PLAYERS: _player_standings_pdf}
