"""PDF score sheet of a four-player table (Sichuan, Taiwanese, Tien Gow), with reportlab platypus.

:func:`table_sheet_pdf` (INTERFACES.md): tournament, round, table, the four seats with their
players, one row per deal with each seat's result and running total (from the derived
``Deal.net``; nothing is scored here), empty rows to fill in by hand up to :func:`sheet_rows`
(``hands_per_round`` in the fixed-hands format, else 16),
and signature lines for the four players and the referee. The header row repeats on each page.
"""
from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from scoring.models import Deal, Game, TableSeat
from scoring.models import Table as TableModel

FONT = "NSKTTables"
FONT_BOLD = "NSKTTables-Bold"
MIN_ROWS = 16  # rows on the sheet (filled deals first, then empty rows to write in)


def sheet_rows(tournament) -> int:
    """Deal rows printed on a sheet: ``hands_per_round`` in the fixed-hands round format
    (DESIGN.md 3, the table plays exactly that many deals), else :data:`MIN_ROWS`."""
    from scoring.results.tables import deal_limit

    return deal_limit(tournament) or MIN_ROWS
WINDS = ("E", "S", "W", "N")
_ready = False


def _fonts() -> None:
    """Register a Unicode TrueType font once (DejaVu Sans if present, else reportlab's Vera)."""
    global _ready
    if _ready:
        return
    for regular, bold in (
        (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
        (Path(reportlab.__file__).parent / "fonts" / "Vera.ttf", Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf"),
    ):
        if regular.is_file() and bold.is_file():
            pdfmetrics.registerFont(TTFont(FONT, str(regular)))
            pdfmetrics.registerFont(TTFont(FONT_BOLD, str(bold)))
            break
    _ready = True


def _seat_label(game: str, seat: int) -> str:
    if game == Game.TIENGOW:
        return _("Seat %(n)s") % {"n": seat + 1}
    return {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}[WINDS[seat]]


def table_sheet_pdf(table: TableModel) -> bytes:
    """The score sheet of ``table`` as PDF bytes (A4 portrait). Three queries (table with round
    and tournament, seats with players, deals)."""
    table = TableModel.objects.select_related("round__tournament").get(pk=table.pk)
    seats = list(table.seats.select_related("player").order_by("seat"))
    deals = list(table.deals.order_by("number"))
    title = f"{table.round.tournament.name} - {_('Round %(n)s') % {'n': table.round.number}} - {_('Table %(n)s') % {'n': table.number}}"
    return _build(_sheet_story(table, seats, deals), title)


def round_tables_pdf(rnd) -> bytes:
    """Every table sheet of round ``rnd`` in one PDF (one table per page), in three queries."""
    tables = list(rnd.tables.select_related("round__tournament").order_by("number"))
    seats: dict[int, list] = {}
    for s in TableSeat.objects.filter(table__round=rnd).select_related("player").order_by("table_id", "seat"):
        seats.setdefault(s.table_id, []).append(s)
    deals: dict[int, list] = {}
    for d in Deal.objects.filter(table__round=rnd).order_by("table_id", "number"):
        deals.setdefault(d.table_id, []).append(d)
    story: list = []
    for k, table in enumerate(tables):
        if k:
            story.append(PageBreak())
        story += _sheet_story(table, seats.get(table.pk, []), deals.get(table.pk, []))
    if not story:
        story = [Spacer(1, 1)]
    return _build(story, f"{rnd.tournament.name} - {_('Round %(n)s') % {'n': rnd.number}}")


def _build(story: list, title: str) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=12 * mm, rightMargin=12 * mm, topMargin=12 * mm, bottomMargin=12 * mm, title=title)
    doc.build(story)
    return buffer.getvalue()


def _sheet_story(table: TableModel, seats: list, deals: list) -> list:
    """The flowables of one table's sheet."""
    from scoring.web.views.tables import deal_summary  # the same one-line deal description as the web page

    _fonts()
    tournament = table.round.tournament

    styles = getSampleStyleSheet()
    normal = ParagraphStyle("n", parent=styles["Normal"], fontName=FONT, fontSize=9, leading=11)
    title = ParagraphStyle("t", parent=styles["Title"], fontName=FONT_BOLD, fontSize=16, leading=19)
    small = ParagraphStyle("s", parent=normal, fontSize=7.5, leading=9)

    story = [
        Paragraph(escape(tournament.name), title),
        Paragraph(
            escape(
                " · ".join(
                    [
                        str(tournament.get_game_display()),
                        _("Round %(n)s") % {"n": table.round.number},
                        _("Table %(n)s") % {"n": table.number},
                    ]
                )
            ),
            normal,
        ),
        Spacer(1, 4 * mm),
    ]
    seat_rows = [[_("Seat"), _("Player"), _("Affiliation")]] + [
        [_seat_label(tournament.game, s.seat), Paragraph(escape(s.player.name), normal), Paragraph(escape(s.player.affiliation), normal)] for s in seats
    ]
    st = Table(seat_rows, colWidths=[30 * mm, 80 * mm, 60 * mm])
    st.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef2f6")),
            ]
        )
    )
    story += [st, Spacer(1, 5 * mm)]

    header1 = [_("Deal"), _("Description")]
    header2 = ["", ""]
    for s in seats:
        header1 += [Paragraph(escape(f"{_seat_label(tournament.game, s.seat)}: {s.player.name}"), small), ""]
        header2 += [_("deal"), _("total")]
    rows = [header1, header2]
    running = [0, 0, 0, 0]
    for d in deals:
        net = list(d.net or [0, 0, 0, 0])
        running = [a + b for a, b in zip(running, net, strict=True)]
        row = [str(d.number), Paragraph(escape(deal_summary(tournament.game, d.record)), small)]
        for n, r in zip(net, running, strict=True):
            row += [str(n), str(r)]
        rows.append(row)
    for k in range(max(0, sheet_rows(tournament) - len(deals))):
        rows.append([str(len(deals) + k + 1), ""] + [""] * 8)
    rows.append([_("Total"), ""] + [x for s in seats for x in ("", str(s.total))])
    widths = [11 * mm, 43 * mm] + [14 * mm, 15 * mm] * 4
    dt = Table(rows, colWidths=widths, repeatRows=2)
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("FONT", (0, 0), (-1, 1), FONT_BOLD, 8),
        ("FONT", (0, -1), (-1, -1), FONT_BOLD, 9),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#eef2f6")),
        ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("SPAN", (0, 0), (0, 1)),
        ("SPAN", (1, 0), (1, 1)),
        ("ROWBACKGROUNDS", (0, 2), (-1, -2), [colors.white, colors.HexColor("#f8fafc")]),
    ]
    for i in range(4):
        style.append(("SPAN", (2 + 2 * i, 0), (3 + 2 * i, 0)))
    dt.setStyle(TableStyle(style))
    story += [dt, Spacer(1, 8 * mm)]

    sign = [[_("Signatures"), "", ""]]
    for s in seats:
        sign.append([_seat_label(tournament.game, s.seat), s.player.name, ""])
    sign.append([_("Referee"), "", ""])
    sg = Table(sign, colWidths=[30 * mm, 60 * mm, 80 * mm], rowHeights=[6 * mm] + [10 * mm] * (len(sign) - 1))
    sg.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 10),
                ("LINEBELOW", (2, 1), (2, -1), 0.6, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ]
        )
    )
    story.append(KeepTogether([sg]))
    return story

