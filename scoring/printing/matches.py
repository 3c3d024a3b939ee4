"""PDFs with reportlab platypus (issue 2 item 8): a Tai Pan score sheet per match, a round pack
(every sheet of a round in one file) and the standings.

Layout rules: tables are platypus ``Table`` objects with ``repeatRows`` (the header repeats on a
new page; a row never splits across pages) and blocks that belong together (title + teams,
signature lines) are wrapped in ``KeepTogether``. Text uses the DejaVu/Vera TrueType font bundled
with reportlab so names with accents print correctly. Scores printed on a sheet come from the
derived ``Hand.ns``/``Hand.ew`` columns (computed by the engine); nothing is scored here.

Public functions: :func:`score_sheet_pdf`, :func:`round_pack_pdf`, :func:`standings_pdf`
(INTERFACES.md). Each returns the PDF as ``bytes``.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    KeepInFrame,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from scoring.models import Match, Round, Tournament
from scoring.results.matches import hand_rows

SHEET_ROWS = 20  # hand rows on an empty score sheet (NSKT matches to 800 take 8 to 15 hands)
CALL_SHORT = {"tai_pan": "T", "grand_tai_pan": "GT"}

FONT = "NSKTSans"
FONT_BOLD = "NSKTSans-Bold"
_fonts_ready = False


def _register_fonts() -> None:
    """Register a Unicode TrueType font (DejaVu Sans if the system has it, else reportlab's
    bundled Bitstream Vera) once per process."""
    global _fonts_ready
    if _fonts_ready:
        return
    candidates = [
        (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
        (Path(reportlab.__file__).parent / "fonts" / "Vera.ttf", Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf"),
    ]
    for regular, bold in candidates:
        if regular.is_file() and bold.is_file():
            pdfmetrics.registerFont(TTFont(FONT, str(regular)))
            pdfmetrics.registerFont(TTFont(FONT_BOLD, str(bold)))
            pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
            break
    else:  # pragma: no cover - reportlab always ships Vera
        raise RuntimeError("no TrueType font found for the PDFs")
    _fonts_ready = True


def _styles() -> dict[str, ParagraphStyle]:
    _register_fonts()
    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("title", parent=base["Title"], fontName=FONT_BOLD, fontSize=15, leading=18, spaceAfter=2 * mm, alignment=0),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=2 * mm, spaceAfter=1 * mm),
        "body": ParagraphStyle("body", parent=base["BodyText"], fontName=FONT, fontSize=9, leading=11),
        "small": ParagraphStyle("small", parent=base["BodyText"], fontName=FONT, fontSize=7.5, leading=9),
        "cell": ParagraphStyle("cell", parent=base["BodyText"], fontName=FONT, fontSize=8.5, leading=10),
        "head": ParagraphStyle("head", parent=base["BodyText"], fontName=FONT_BOLD, fontSize=7, leading=8, alignment=1),
    }


def _p(text, style) -> Paragraph:
    return Paragraph(escape(str(text)), style)


MARGIN = 12 * mm
#: The page's frame (A4 less the margins and the frame's own 6 pt padding on each side).
FRAME_WIDTH = A4[0] - 2 * MARGIN - 12
FRAME_HEIGHT = A4[1] - 2 * MARGIN - 12


def _doc(buffer: io.BytesIO, title: str, pagesize=A4) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        author="NSKT",
    )


def _qr(url: str, size: float = 24 * mm) -> Drawing:
    widget = QrCodeWidget(url)
    x1, y1, x2, y2 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x2 - x1), 0, 0, size / (y2 - y1), 0, 0])
    drawing.add(widget)
    return drawing


def _match_queryset():
    return Match.objects.with_teams().prefetch_related("hands")


# --------------------------------------------------------------------------- score sheet


def _sheet_flowables(match: Match, styles: dict, base_url: str = "") -> list:
    """Flowables of one score sheet (one A4 page for up to ~20 hands)."""
    tournament = match.round.tournament
    title = _p(f"{tournament.name}", styles["title"])
    sub = _p(
        _("Round %(round)s · Table %(table)s · Tai Pan score sheet") % {"round": match.round.number, "table": match.table},
        styles["body"],
    )
    head_left = [title, sub]
    if tournament.venue or tournament.starts_on:
        head_left.append(_p(" · ".join(str(x) for x in (tournament.venue, tournament.starts_on) if x), styles["small"]))

    path = reverse("scoring:match_detail", args=[tournament.slug, match.pk])
    url = base_url.rstrip("/") + path if base_url else path
    head_right = [_qr(url), _p(url, styles["small"])] if base_url else [_p(url, styles["small"])]
    header = Table([[head_left, head_right]], colWidths=[150 * mm, 36 * mm])
    header.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (1, 0), (1, 0), "RIGHT")]))

    ns, ew = match.team_ns, match.team_ew
    team_rows = [[_("Seat"), _("Team"), _("Player"), _("Affiliation")]]
    team_rows.append(["N", _p(ns.name, styles["cell"]), _p(ns.first_player.name, styles["cell"]), _p(ns.affiliation, styles["cell"])])
    team_rows.append(["S", _p(ns.name, styles["cell"]), _p(ns.second_player.name, styles["cell"]), _p(ns.affiliation, styles["cell"])])
    if ew is not None:
        team_rows.append(["E", _p(ew.name, styles["cell"]), _p(ew.first_player.name, styles["cell"]), _p(ew.affiliation, styles["cell"])])
        team_rows.append(["W", _p(ew.name, styles["cell"]), _p(ew.second_player.name, styles["cell"]), _p(ew.affiliation, styles["cell"])])
    else:
        team_rows.append(["E/W", _p(_("bye"), styles["cell"]), "", ""])
    teams = Table(team_rows, colWidths=[14 * mm, 62 * mm, 62 * mm, 48 * mm], repeatRows=1)
    teams.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf3")),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    flow = [KeepTogether([header, Spacer(1, 2 * mm), teams, Spacer(1, 3 * mm)])]
    if ew is None:
        flow.append(_p(_("Bye: this team has no opponent this round."), styles["body"]))
        return flow

    hand_table = _hands_table(match, styles)
    legend = _p(
        _("Calls: T = Tai Pan, GT = Grand Tai Pan. First out: N/E/S/W. Double victory: NS/EW (no card points then). Card points NS + EW = 100."),
        styles["small"],
    )
    signatures = Table(
        [
            [_("Final total NS"), "", _("Final total EW"), ""],
            [_("Signature team NS"), "", _("Signature team EW"), ""],
            [_("Referee"), "", _("Time"), ""],
        ],
        colWidths=[36 * mm, 57 * mm, 36 * mm, 57 * mm],
        rowHeights=[10 * mm] * 3,
    )
    signatures.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black),
                ("LINEBELOW", (3, 0), (3, -1), 0.6, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ]
        )
    )
    flow += [hand_table, Spacer(1, 1.5 * mm), legend, KeepTogether([Spacer(1, 3 * mm), signatures])]
    if len(match.hands.all()) <= SHEET_ROWS:
        # A sheet with room for every hand is always exactly one page: long (wrapping) team names
        # shrink the sheet a little instead of pushing the signatures onto a page of their own.
        content = [header, Spacer(1, 2 * mm), teams, Spacer(1, 3 * mm), hand_table, Spacer(1, 1.5 * mm), legend,
                   Spacer(1, 3 * mm), signatures]
        return [KeepInFrame(FRAME_WIDTH, FRAME_HEIGHT, content, mode="shrink")]
    return flow


def _hands_table(match: Match, styles: dict) -> Table:
    """The hand rows: a call box per player, first out, double victory, card points NS/EW, hand
    totals and running totals; entered hands are filled in, the rest left blank."""
    # Column heads wrap inside their cell (Dutch "Dubbelspel" is wider than the column).
    head1 = ["#", _("Calls"), "", "", "", _p(_("First out"), styles["head"]), _p(_("Double victory"), styles["head"]),
             _("Card points"), "", _("Hand"), "", _("Total"), ""]
    head2 = ["", "N", "E", "S", "W", "", "", "NS", "EW", "NS", "EW", "NS", "EW"]
    rows = [head1, head2]
    hands = sorted(match.hands.all(), key=lambda h: h.number)
    for row in hand_rows(hands, CALL_SHORT):
        hand = row["hand"]
        rows.append([str(hand.number), *row["calls"], row["first_out"], row["double_victory"], row["cp_ns"], row["cp_ew"],
                     hand.ns, hand.ew, row["running_ns"], row["running_ew"]])
    # at least SHEET_ROWS rows; a match still being played keeps two empty rows for what follows
    finished = match.status in (Match.Status.FINISHED, Match.Status.CONFIRMED)
    blank = max(SHEET_ROWS - len(hands), 0 if finished else 2)
    for i in range(blank):
        rows.append([str(len(hands) + i + 1)] + [""] * 12)
    widths = [8 * mm] + [11 * mm] * 4 + [15 * mm, 15 * mm, 15 * mm, 15 * mm, 17 * mm, 17 * mm, 19.5 * mm, 19.5 * mm]
    table = Table(rows, colWidths=widths, repeatRows=2, rowHeights=[6 * mm, 6 * mm] + [7 * mm] * (len(rows) - 2))
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, 0), (-1, 1), FONT_BOLD, 7.5),
                ("SPAN", (1, 0), (4, 0)),
                ("SPAN", (7, 0), (8, 0)),
                ("SPAN", (9, 0), (10, 0)),
                ("SPAN", (11, 0), (12, 0)),
                ("SPAN", (0, 0), (0, 1)),
                ("SPAN", (5, 0), (5, 1)),
                ("SPAN", (6, 0), (6, 1)),
                ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#e8edf3")),
                ("BACKGROUND", (11, 2), (12, -1), colors.HexColor("#f6f8fa")),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("LINEAFTER", (4, 0), (4, -1), 1.0, colors.black),
                ("LINEAFTER", (8, 0), (8, -1), 1.0, colors.black),
                ("LINEAFTER", (10, 0), (10, -1), 1.0, colors.black),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("ALIGN", (7, 2), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return table


def _build(flowables: list, title: str, pagesize=A4) -> bytes:
    buffer = io.BytesIO()
    doc = _doc(buffer, title, pagesize)
    doc.build(flowables, onFirstPage=_footer, onLaterPages=_footer)
    return buffer.getvalue()


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, 7)
    canvas.setFillColor(colors.grey)
    canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, 6 * mm, f"{doc.title} · {canvas.getPageNumber()}")
    canvas.restoreState()


def score_sheet_pdf(match: Match, *, base_url: str = "") -> bytes:
    """The score sheet of ``match`` (A4): tournament, round, table, both teams with players and
    seats, about 20 hand rows (call box per player, first out, double victory, card points NS/EW,
    hand totals, running totals), signature lines; a QR code to the match page when ``base_url``
    (``"https://host/"``) is given. Issue 2 item 8."""
    match = _match_queryset().get(pk=match.pk)
    styles = _styles()
    title = f"{match.round.tournament.name} - {_('round')} {match.round.number} - {_('table')} {match.table}"
    return _build(_sheet_flowables(match, styles, base_url), title)


def round_pack_pdf(rnd: Round, *, base_url: str = "", progress: Callable[[int, int], None] | None = None) -> bytes:
    """Every score sheet of round ``rnd`` in one PDF, one sheet per page, by table number
    (byes get a short page). ``progress(done, total)`` is called after each table."""
    matches = list(_match_queryset().filter(round=rnd).order_by("table"))
    styles = _styles()
    flow: list = []
    total = len(matches)
    for i, match in enumerate(matches):
        if i:
            flow.append(PageBreak())
        flow.extend(_sheet_flowables(match, styles, base_url))
        if progress:
            progress(i + 1, total)
    if not flow:
        flow.append(_p(_("This round has no matches."), styles["body"]))
    return _build(flow, f"{rnd.tournament.name} - {_('round')} {rnd.number}")


# --------------------------------------------------------------------------- standings


def _num(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def standings_pdf(tournament: Tournament, *, through_round: int | None = None) -> bytes:
    """The standings of ``tournament`` (A4 landscape) from ``services.standings.standings``: rank
    (shared on ties), team, players, played, won/drawn/lost, match points, point difference,
    points scored, Buchholz and the tournament's further tie-breaks."""
    from scoring.standings import teams as standings_service

    standings = standings_service.standings

    rows_data = standings(tournament, through_round=through_round)
    styles = _styles()
    base = [_("Rank"), _("Team"), _("Players"), _("Played"), _("W"), _("D"), _("L"), _("MP"), _("PD"), _("Points"), _("Buchholz")]
    shown = {"point_difference", "points_scored", "buchholz", "match_points"}
    extra_keys: list[str] = []
    for row in rows_data:
        for key in (row.tiebreaks or {}):
            if key not in shown and key not in extra_keys:
                extra_keys.append(key)
    labels = _tiebreak_labels(extra_keys)
    # Column heads wrap inside their cells (long Dutch tie-break names such as "Onderling resultaat").
    header = [_p(text, styles["head"]) for text in base + [labels[k] for k in extra_keys]]
    rows = [header]
    for r in rows_data:
        name = f"{r.name} ({_('withdrawn')})" if getattr(r, "withdrawn", False) else r.name
        rows.append(
            [
                r.rank,
                _p(name, styles["cell"]),
                _p(r.players, styles["cell"]),
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
    numbers = [16 * mm, 10 * mm, 10 * mm, 10 * mm, 13 * mm, 16 * mm, 17 * mm, 19 * mm] + [18 * mm] * len(extra_keys)
    # The page's frame width (landscape A4 less margins and padding) is shared out so that the
    # table always fits: the team and players columns take what the numbers leave.
    names = landscape(A4)[0] - 2 * MARGIN - 12 - 14 * mm - sum(numbers)
    widths = [14 * mm, names * 0.45, names * 0.55] + numbers
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
            ]
        )
    )
    keys_of = getattr(standings_service, "tiebreak_keys", None)
    order_keys = list(keys_of(tournament)) if keys_of else list(tournament.tiebreaks or [])
    order = ", ".join(str(x) for x in _tiebreak_labels(order_keys).values())
    after = _("after round %(number)s") % {"number": through_round} if through_round else ""
    head = [_p(tournament.name, styles["title"]), _p(_("Standings") + (f" · {after}" if after else ""), styles["h2"])]
    if order:
        head.append(_p(_("Order: match points, then %(tiebreaks)s.") % {"tiebreaks": order}, styles["small"]))
    flow = [KeepTogether(head + [Spacer(1, 2 * mm)]), table]
    label = _("standings")
    return _build(flow, f"{tournament.name} - {label}", landscape(A4))


def _tiebreak_labels(keys: Iterable[str]) -> dict[str, str]:
    """Translated labels of tie-break ``keys`` (``scoring.standings.tiebreaks.REGISTRY``; the key itself
    when the registry is missing or does not know it)."""
    try:
        from scoring.standings.tiebreaks import REGISTRY
    except ImportError:  # pragma: no cover - registry not installed
        REGISTRY = {}
    out = {}
    for key in keys:
        cls = REGISTRY.get(key)
        out[key] = str(getattr(cls, "label", key)) if cls else key
    return out
