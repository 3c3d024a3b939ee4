"""Papers for the hall (issue 23 item 7): table number cards, the alphabetical list "name ->
table" for the wall, and the pairings per table, each for one round (reportlab).

- :func:`table_cards_pdf`: one card per playing table (byes have no table), A4 or A5 landscape,
  the table number as large as the page allows (readable across a hall: on A4 the digits are
  about 12 cm high), the tournament's name above it and the round below it. ``tent``: the page is
  folded across the middle into a standing card; the upper half is printed upside down so that
  both sides read the right way up.
- :func:`name_list_pdf`: every name of the round in alphabetical order with its table and seat, in
  three columns on A4: for Tai Pan each team (its side, NS or EW) and each player (seat N/S/E/W,
  with the team's name); for four-player games each player with their seat (wind).
  :func:`name_entries` gives the same rows to the projector page.
- :func:`pairings_pdf`: one line per table: the two teams with their players by seat, or the four
  seated players (the round pack prints a whole score sheet per table; this is the one page to
  hang up or read out).

A draft round's papers carry the draft watermark (:func:`scoring.printing.common.watermark`).
"""
from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, A5, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as pdf_canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer, Table, TableStyle

from scoring.kinds import kind_for
from scoring.models import Round
from scoring.printing.common import FONT, FONT_BOLD, MARGIN, build, footer, para, register_fonts, styles, watermark

#: Page sizes of the table cards by name (landscape: the number is wider than high).
CARD_SIZES = {"A4": A4, "A5": A5}
HEAD_BG = colors.HexColor("#e8edf3")
#: Columns of the wall list on an A4 page.
LIST_COLUMNS = 3


def _title(rnd: Round, what: str) -> str:
    """The PDF's title (and footer): ``"<tournament> - round <n> - <what>"``."""
    return _("%(tournament)s - round %(round)s - %(what)s") % {"tournament": rnd.tournament.name, "round": rnd.number, "what": what}


def _is_draft(rnd: Round) -> bool:
    return rnd.status == Round.Status.DRAFT


def _playing(rnd: Round) -> list[tuple[int, list[dict]]]:
    """``[(table number, sides)]`` of the round's tables in number order, byes left out
    (:meth:`scoring.kinds.ResultKind.sides`)."""
    adapter = rnd.tournament.adapter
    kind = kind_for(adapter)
    out = []
    for container in kind.in_round(rnd):
        container.round = rnd
        if not kind.is_bye(container):
            out.append((kind.number(container), kind.sides(container, adapter)))
    return out


# ---------------------------------------------------------------------------- table cards

def _card(c, x: float, y: float, width: float, height: float, number: int, tournament: str, round_line: str) -> None:
    """One card face in the box (x, y, width, height): the tournament's name at the top, the word
    "Table", the number filling the rest, the round at the bottom."""
    text = str(number)
    top = max(9.0, height / 22)
    small = max(8.0, height / 30)
    c.setFillColor(colors.black)
    name_size = min(top, 0.92 * width / max(pdfmetrics.stringWidth(tournament, FONT_BOLD, 1), 1))  # long names shrink
    c.setFont(FONT_BOLD, name_size)
    c.drawCentredString(x + width / 2, y + height - 1.6 * top, tournament)
    c.setFont(FONT, small * 1.3)
    c.drawCentredString(x + width / 2, y + height - 1.6 * top - 1.8 * small * 1.3, _("Table"))
    # The digits' height is about 0.73 of the font size (DejaVu Sans Bold, Vera Bold alike).
    room_h = height - 2.2 * top - 2.6 * small * 1.3 - 2.5 * small
    size = min(room_h / 0.73, 0.88 * width / pdfmetrics.stringWidth(text, FONT_BOLD, 1))
    c.setFont(FONT_BOLD, size)
    base = y + 2.5 * small + (room_h - 0.73 * size) / 2
    c.drawCentredString(x + width / 2, base, text)
    c.setFont(FONT, small)
    c.setFillColor(colors.HexColor("#444444"))
    c.drawCentredString(x + width / 2, y + 1.2 * small, round_line)


def table_cards_pdf(rnd: Round, *, size: str = "A4", tent: bool = False) -> bytes:
    """The table number cards of round ``rnd`` as PDF bytes: one page per playing table in number
    order (byes have no table). ``size``: ``"A4"`` or ``"A5"`` (:data:`CARD_SIZES`; unknown: A4),
    landscape; ``tent``: portrait, to be folded across the middle into a standing card with the
    card on both halves (the upper half upside down). A round without tables gives one page saying
    so. Drafts carry the watermark."""
    register_fonts()
    tournament = rnd.tournament
    tables = _playing(rnd)
    page = CARD_SIZES.get(size, A4)
    pagesize = page if tent else landscape(page)
    width, height = pagesize
    buffer = io.BytesIO()
    title = _title(rnd, _("table cards"))
    c = pdf_canvas.Canvas(buffer, pagesize=pagesize, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("NSKT")
    round_line = _("Round %(round)s") % {"round": rnd.number}
    for number, _sides in tables or [(None, [])]:
        if number is None:
            c.setFont(FONT, 14)
            c.drawCentredString(width / 2, height / 2, _("This round has no tables yet."))
        elif tent:
            half = height / 2
            _card(c, 0, 0, width, half, number, tournament.name, round_line)
            c.saveState()  # the upper half upside down: it reads right once folded
            c.translate(width, height)
            c.rotate(180)
            _card(c, 0, 0, width, half, number, tournament.name, round_line)
            c.restoreState()
            c.setStrokeColor(colors.grey)
            c.setDash(3, 3)
            c.setLineWidth(0.4)
            c.line(5 * mm, half, width - 5 * mm, half)
        else:
            _card(c, MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN, number, tournament.name, round_line)
        if _is_draft(rnd):
            watermark(c, width, height)
        c.showPage()
    c.save()
    return buffer.getvalue()


# ---------------------------------------------------------------------------- name -> table

@dataclass(frozen=True)
class NameEntry:
    """One line of the list "name -> table": ``name`` (a team's or a player's), ``table`` (its
    number), ``seat`` (``"NS"``/``"EW"`` for a team, ``"N"``... for a Tai Pan player, the seat's
    label such as ``"East"`` for a four-player game), ``team`` (a Tai Pan player's team, else
    ``""``) and ``is_team``."""

    name: str
    table: int
    seat: str
    team: str = ""
    is_team: bool = False


def sort_key(name: str) -> tuple[tuple, str]:
    """Alphabetical order as people expect it: case and accents ignored first (``"Émile"`` with
    the E's), numbers by their value (``"Team 4"`` before ``"Team 10"``), then the exact spelling
    to break ties."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).casefold()
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", plain) if p)
    return parts, name


def name_entries(rnd: Round) -> list[NameEntry]:
    """Every name seated in round ``rnd`` (byes left out) in alphabetical order
    (:func:`sort_key`): for teams each team and each of its players, for four-player games each
    player, with their table and seat."""
    entries = []
    for number, sides in _playing(rnd):
        for side in sides:
            if side.get("team") is not None or side["players"]:
                entries.append(NameEntry(side["name"], number, side["label"], is_team=True))
                entries += [NameEntry(player, number, seat, team=side["name"]) for seat, player in side["players"]]
            elif side["name"]:
                entries.append(NameEntry(side["name"], number, side["label"]))
    return sorted(entries, key=lambda e: (sort_key(e.name), e.table))


def name_list_pdf(rnd: Round) -> bytes:
    """The list "name -> table" of round ``rnd`` for the wall (A4 portrait, :data:`LIST_COLUMNS`
    columns, the head row repeated in every column): name (a player's team in small type under
    it, teams in bold), table, seat. Drafts carry the watermark."""
    st = styles()
    tournament = rnd.tournament
    entries = name_entries(rnd)
    title = _title(rnd, _("where do I sit?"))
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                          bottomMargin=MARGIN, title=title, author="NSKT")
    gap = 4 * mm
    col_w = (doc.width - gap * (LIST_COLUMNS - 1)) / LIST_COLUMNS
    head_h = 22 * mm
    first = [Frame(doc.leftMargin + i * (col_w + gap), doc.bottomMargin, col_w, doc.height - head_h, id=f"c{i}",
                   leftPadding=0, rightPadding=0) for i in range(LIST_COLUMNS)]
    header = Frame(doc.leftMargin, doc.bottomMargin + doc.height - head_h, doc.width, head_h, id="head")
    later = [Frame(doc.leftMargin + i * (col_w + gap), doc.bottomMargin, col_w, doc.height, id=f"l{i}",
                   leftPadding=0, rightPadding=0) for i in range(LIST_COLUMNS)]
    on_page = _on_page(_is_draft(rnd))
    doc.addPageTemplates([PageTemplate("first", [header, *first], onPage=on_page, autoNextPageTemplate="later"),
                          PageTemplate("later", later, onPage=on_page)])
    name_style = st["cell"].clone("name", fontSize=11, leading=13)  # read standing at the wall
    team_style = st["small"].clone("team", textColor=colors.HexColor("#555555"), fontSize=8, leading=9.5)
    rows: list[list] = [[_("Name"), _("Table"), _("Seat")]]
    for e in entries:
        cell = [Paragraph(f"<b>{escape(e.name)}</b>" if e.is_team else escape(e.name), name_style)]
        if e.team:
            cell.append(para(e.team, team_style))
        rows.append([cell, str(e.table), e.seat])
    flow: list = [para(tournament.name, st["title"]),
                  para(_("Round %(round)s · where do I sit? Find your name: table and seat.") % {"round": rnd.number}, st["body"])]
    if entries:
        table = Table(rows, colWidths=[col_w - 26 * mm, 12 * mm, 14 * mm], repeatRows=1)
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), FONT, 11), ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8),
            ("FONT", (1, 1), (1, -1), FONT_BOLD, 14),
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG), ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("ALIGN", (1, 0), (-1, -1), "CENTER"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ]))
        flow.append(table)
    else:
        flow.append(para(_("This round has no tables yet."), st["body"]))
    doc.build(flow)
    return buffer.getvalue()


def _on_page(draft: bool):
    def on_page(c, doc) -> None:
        footer(c, doc)
        if draft:
            watermark(c, *doc.pagesize)
    return on_page


# ---------------------------------------------------------------------------- pairings

def pairings_pdf(rnd: Round) -> bytes:
    """The pairings of round ``rnd`` per table (A4): table number, then each side in seat order
    (Tai Pan: the team and its two players with their seats; four-player games: the four players
    with their seats); byes listed at the end. Drafts carry the watermark."""
    st = styles()
    tournament = rnd.tournament
    adapter = tournament.adapter
    kind = kind_for(adapter)
    labels = adapter.side_labels()
    rows: list[list] = [[_("Table"), *labels]]
    pair_style = st["cell"].clone("pair", fontSize=10.5, leading=13)
    byes = []
    for container in kind.in_round(rnd):
        container.round = rnd
        sides = kind.sides(container, adapter)
        if kind.is_bye(container):
            byes.extend(s["name"] for s in sides if s["name"])
            continue
        cells = []
        for side in sides:
            lines = [f"<b>{escape(side['name'])}</b>"]
            lines += [f"{escape(seat)}: {escape(player)}" for seat, player in side["players"]]
            cells.append(Paragraph("<br/>".join(lines), pair_style))
        rows.append([str(kind.number(container)), *cells])
    flow: list = [para(tournament.name, st["title"]),
                  para(_("Round %(round)s · pairings per table") % {"round": rnd.number}, st["body"]), Spacer(1, 3 * mm)]
    if len(rows) > 1:
        width = A4[0] - 2 * MARGIN - 12 - 16 * mm
        table = Table(rows, colWidths=[16 * mm] + [width / len(labels)] * len(labels), repeatRows=1)
        table.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), FONT, 10), ("FONT", (0, 0), (-1, 0), FONT_BOLD, 10),
            ("FONT", (0, 1), (0, -1), FONT_BOLD, 16),
            ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG), ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ]))
        flow.append(table)
    else:
        flow.append(para(_("This round has no tables yet."), st["body"]))
    if byes:
        flow += [Spacer(1, 3 * mm), para(_("Bye: %(names)s") % {"names": ", ".join(byes)}, st["body"])]
    title = _title(rnd, _("pairings"))
    return build(flow, title, draft=_is_draft(rnd))
