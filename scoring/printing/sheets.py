"""Score sheets (reportlab platypus), one layout for every game: a sheet per match or table and a
round pack (every sheet of a round in one PDF).

A sheet shows the tournament, round and table, the match code (:mod:`scoring.draw.match_codes`,
said or typed to find the match), a QR code labelled for the referee to the result's entry page (a
referee scanning it enters the records at once, through the login if needed; the public is sent on
to the result page; it grants nothing by itself), the sides (Tai
Pan: both teams with their players by seat; four-player: the four seated players), one row per
record with the game's own columns (:meth:`~scoring.games.base.GameAdapter.sheet_columns`) and the
scores and running totals per side, empty rows to write in, and the final totals and signature
lines. Printed scores come from the derived columns (computed by the engine); nothing is scored
here. A sheet with room for every record is exactly one page (long names shrink it).

No sheet carries a side's private link (issue 22): the sheet lies on the table for both sides,
and a side that scanned the other's link could confirm its own entry. A side's link reaches that
side only, on its own card (:mod:`scoring.printing.cards`) or on its own phone.

Blind confirmation: a sheet is printed for someone (``viewer``, default the public). When the
result's totals are hidden from them (:func:`scoring.results.sheet.totals_hidden`: with blind
confirmation, an unconfirmed result for anyone but the members and the side that entered it),
the sheet is the empty one to fill in, as printed at publication: no entered records, scores or
running totals. The round pack is built for the public, so a stored pack never carries a hidden
total, whoever downloads it.
"""
from __future__ import annotations

import io
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from scoring.draw.match_codes import code_of
from scoring.kinds import kind_for, kind_of
from scoring.models import ResultContainer, Round
from scoring.printing.common import (
    FONT,
    FONT_BOLD,
    FRAME_HEIGHT,
    FRAME_WIDTH,
    build,
    build_into,
    head_para,
    join_pdfs,
    para,
    qr,
    styles,
)
from scoring.results.presenter import record_rows
from scoring.results.sheet import totals_hidden

HEAD_BG = colors.HexColor("#e8edf3")
#: Height of a record row (room to write by hand); a row whose cells wrap grows to fit them.
ROW_HEIGHT = 7 * mm
#: Height of one line of an empty row that has room for several (:attr:`GameAdapter.sheet_row_lines`).
LINE_HEIGHT = 5.5 * mm
#: reportlab's default cell padding (left/right, top/bottom), in points.
CELL_PAD_X, CELL_PAD_Y = 6, 3
#: The padding (left/right, points) of the seats' headings over the score columns: narrow columns
#: (four seats twice) keep room for a whole word; the headings wrap at their spaces only
#: (:func:`scoring.printing.common.head_para`: "Plaats / 1", never "Plaa / ts 1").
SIDE_HEAD_PADDING = 2


def result_url(container: ResultContainer, base_url: str = "") -> str:
    """The entry page of a result, which the QR code opens (absolute when ``base_url`` is given):
    referees enter records there; everyone else is sent on to the result's public page."""
    path = reverse(kind_of(container).url_name("enter"), args=[container.round.tournament.slug, container.pk])
    return base_url.rstrip("/") + path if base_url else path


def _header(container: ResultContainer, st: dict, base_url: str) -> Table:
    tournament = container.round.tournament
    kind = kind_of(container)
    code = code_of(container)
    left = [para(tournament.name, st["title"]),
            para(_("Round %(round)s · Table %(table)s · %(game)s score sheet") % {
                "round": container.round.number, "table": kind.number(container), "game": tournament.adapter.label}, st["body"]),
            Paragraph(escape(_("Match code")) + f': <font face="Courier-Bold" size="12">{escape(code)}</font>', st["body"])]
    if tournament.venue or tournament.starts_on:
        left.append(para(" · ".join(str(x) for x in (tournament.venue, tournament.starts_on) if x), st["small"]))
    if tournament.player_entry:
        left.append(para(_("Teams and players enter and confirm on their own phone with their own card; this sheet "
                           "holds no private link."), st["small"]))
    url = result_url(container, base_url)
    # The address under the QR code breaks after the host, never inside it.
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    lines = [f"{scheme}://{host}", slash + path] if sep else [url]
    url_style = ParagraphStyle("url", parent=st["small"], alignment=TA_LEFT, spaceBefore=0, spaceAfter=0)
    address = Paragraph("<br/>".join(escape(line) for line in lines), url_style)
    label = Paragraph("<b>" + escape(_("Referee: enter result")) + "</b>", url_style)
    right = [label, qr(url), address] if base_url else [label, address]
    header = Table([[left, right]], colWidths=[FRAME_WIDTH - 44 * mm, 44 * mm])
    header.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (1, 0), (1, 0), "LEFT")]))
    return header


def _sides_table(sides: list[dict], st: dict) -> Table:
    teams = any(s["players"] for s in sides)
    rows = [[_("Seat"), _("Team"), _("Player"), _("Affiliation")] if teams else [_("Seat"), _("Player"), _("Affiliation")]]
    for side in sides:
        if teams:
            if not side["name"]:
                rows.append([side["label"], para(_("bye"), st["cell"]), "", ""])
            for seat, player in side["players"]:
                rows.append([seat, para(side["name"], st["cell"]), para(player, st["cell"]), para(side["affiliation"], st["cell"])])
        else:
            rows.append([side["label"], para(side["name"], st["cell"]), para(side["affiliation"], st["cell"])])
    widths = [14 * mm, 62 * mm, 62 * mm, FRAME_WIDTH - 138 * mm] if teams else [30 * mm, 90 * mm, FRAME_WIDTH - 120 * mm]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9), ("FONT", (0, 0), (-1, 0), FONT_BOLD, 9),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG), ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    return table


def _records_table(container: ResultContainer, records: list, st: dict, *, blank: bool = False) -> Table:
    """The record rows: ``#``, the game's columns, then the score of each side and the running
    total of each side; entered records filled in, the rest left blank (``blank``: nothing filled
    in, every row to write in, as at publication)."""
    tournament = container.round.tournament
    adapter, kind = tournament.adapter, kind_of(container)
    groups = adapter.sheet_columns()
    labels = adapter.side_labels()
    n = len(labels)
    head1, head2, widths, spans = ["#"], [""], [8 * mm], [("SPAN", (0, 0), (0, 1))]
    col = 1
    for group in groups:
        head1 += [para(str(group.title), st["head"])] + [""] * (len(group.subheads) - 1)
        head2 += list(group.subheads)
        widths += [group.width * mm] * len(group.subheads)
        if len(group.subheads) > 1:
            spans.append(("SPAN", (col, 0), (col + len(group.subheads) - 1, 0)))
        else:
            spans.append(("SPAN", (col, 0), (col, 1)))
        col += len(group.subheads)
    first_score = col
    side_width = (FRAME_WIDTH - sum(widths)) / (2 * n)
    for title in (adapter.record_noun[0], _("Total")):
        head1 += [para(str(title).capitalize(), st["head"])] + [""] * (n - 1)
        head2 += [head_para(str(lab), st["head"], side_width, SIDE_HEAD_PADDING) for lab in labels]
        spans.append(("SPAN", (col, 0), (col + n - 1, 0)))
        col += n
    widths += [side_width] * (2 * n)
    rows = [head1, head2]
    heights = [7 * mm, 6 * mm]
    for record in record_rows(kind, adapter, records):
        cells = [_cell(c, st) for c in record.sheet_cells]
        row = [str(record.number), *cells, *record.scores, *record.running]
        rows.append(row)
        heights.append(_row_height(row, widths))
    empty = max(adapter.sheet_rows(tournament) - len(records), 0 if container.is_finished and not blank else 2)
    lines = max(int(adapter.sheet_row_lines), 1)
    for i in range(empty):
        # A row with room for several lines (Sichuan: several wins in a deal) is that many rows of
        # the game's columns beside one number and one cell per score.
        top = len(rows)
        rows.append([str(len(records) + i + 1)] + [""] * (col - 1))
        rows += [[""] * col for _line in range(lines - 1)]
        heights += [ROW_HEIGHT if lines == 1 else LINE_HEIGHT] * lines
        if lines > 1:
            spans += [("SPAN", (c, top), (c, top + lines - 1)) for c in (0, *range(first_score, col))]
    table = Table(rows, colWidths=widths, repeatRows=2, rowHeights=heights)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9), ("FONT", (0, 0), (-1, 1), FONT_BOLD, 7.5),
        *spans,
        ("BACKGROUND", (0, 0), (-1, 1), HEAD_BG),
        ("BACKGROUND", (first_score + n, 2), (-1, -1), colors.HexColor("#f6f8fa")),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("LINEAFTER", (first_score - 1, 0), (first_score - 1, -1), 1.0, colors.black),
        ("LINEAFTER", (first_score + n - 1, 0), (first_score + n - 1, -1), 1.0, colors.black),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"), ("ALIGN", (first_score, 2), (-1, -1), "RIGHT"),
        ("LEFTPADDING", (first_score, 1), (-1, 1), SIDE_HEAD_PADDING), ("RIGHTPADDING", (first_score, 1), (-1, 1), SIDE_HEAD_PADDING),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    return table


def _cell(value, st: dict):
    """A printed cell: short text as it is; long text, or text of several lines (``"\\n"``: one
    per win), as a paragraph that wraps (the row grows to fit it)."""
    text = str(value)
    if "\n" in text:
        centred = ParagraphStyle("lines", parent=st["small"], alignment=TA_CENTER)
        return Paragraph("<br/>".join(escape(line) for line in text.split("\n")), centred)
    return para(text, st["small"]) if len(text) > 12 else value


def _row_height(row: list, widths: list[float]) -> float:
    """:data:`ROW_HEIGHT`, or more when a wrapping cell (a long record description) needs it, so
    that no text runs over the cell's lines."""
    height = ROW_HEIGHT
    for cell, width in zip(row, widths, strict=True):
        if isinstance(cell, Paragraph):
            _w, needed = cell.wrap(width - 2 * CELL_PAD_X, ROW_HEIGHT * 10)
            height = max(height, needed + 2 * CELL_PAD_Y)
    return height


def _signatures(sides: list[dict]) -> Table:
    rows = [[_("Final total %(side)s") % {"side": s["label"]}, "", _("Signature %(side)s") % {"side": s["label"]}, ""] for s in sides]
    rows.append([_("Referee"), "", _("Time"), ""])
    half = FRAME_WIDTH / 2
    table = Table(rows, colWidths=[36 * mm, half - 36 * mm, 36 * mm, half - 36 * mm], rowHeights=[9 * mm] * len(rows))
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black), ("LINEBELOW", (3, 0), (3, -1), 0.6, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
    ]))
    return table


def sheet_flowables(container: ResultContainer, records: list, st: dict, base_url: str = "", *,
                    blank: bool = False) -> list:
    """The flowables of one sheet (``records``: the container's records in order; ``blank``: the
    empty sheet, no record printed, for someone the totals are hidden from)."""
    if blank:
        records = []
    tournament = container.round.tournament
    adapter, kind = tournament.adapter, kind_of(container)
    sides = kind.sides(container, adapter)
    header = [_header(container, st, base_url), Spacer(1, 2 * mm), _sides_table(sides, st), Spacer(1, 3 * mm)]
    if kind.is_bye(container):
        return [KeepTogether(header + [para(_("Bye: this team has no opponent this round."), st["body"])])]
    table = _records_table(container, records, st, blank=blank)
    legend = adapter.sheet_legend()
    body = [table, Spacer(1, 1.5 * mm)] + ([para(legend, st["small"])] if legend else []) + [Spacer(1, 3 * mm), _signatures(sides)]
    if len(records) <= adapter.sheet_rows(tournament):
        # A sheet with room for every record is exactly one page: long (wrapping) names shrink the
        # sheet a little instead of pushing the signatures onto a page of their own.
        return [KeepInFrame(FRAME_WIDTH, FRAME_HEIGHT, header + body, mode="shrink")]
    return [KeepTogether(header), *body]


def score_sheet_pdf(container: ResultContainer, *, base_url: str = "", viewer=None) -> bytes:
    """The score sheet of one match or table as PDF bytes (A4); a QR code to its entry page when
    ``base_url`` (``"https://host/"``) is given (Tai Pan and four-player sheets alike). Printed for
    ``viewer`` (a user or entrant; default the public): the empty sheet when the result's totals
    are hidden from them (:func:`scoring.results.sheet.totals_hidden`)."""
    kind = kind_of(container)
    container = kind.queryset().get(pk=container.pk)
    blank = totals_hidden(container, AnonymousUser() if viewer is None else viewer)
    records = [] if blank else kind.records(container)
    tournament = container.round.tournament
    title = f"{tournament.name} - {_('round')} {container.round.number} - {_('table')} {kind.number(container)}"
    return build(sheet_flowables(container, records, styles(), base_url, blank=blank), title,
                 draft=container.round.status == Round.Status.DRAFT)


#: Sheets per part of a long round pack: reportlab holds a document's pages in memory until it
#: is saved, so a pack is built in parts of this many sheets, each written to a temporary file,
#: and the parts are joined page by page (:func:`write_round_pack`).
PART_SHEETS = 100


def round_pack_pdf(rnd: Round, *, base_url: str = "", progress: Callable[[int, int], None] | None = None,
                   viewer=None) -> bytes:
    """The round pack of :func:`write_round_pack` as bytes (for small rounds and the tests; the
    background job writes it to a file)."""
    buffer = io.BytesIO()
    write_round_pack(rnd, buffer, base_url=base_url, progress=progress, viewer=viewer)
    return buffer.getvalue()


def write_round_pack(rnd: Round, out: IO[bytes], *, base_url: str = "", progress: Callable[[int, int], None] | None = None,
                     viewer=None, part_sheets: int | None = None) -> int:
    """Write every score sheet of round ``rnd`` as one PDF to the binary file object ``out``, one
    sheet per page by table number (byes get a short page); returns the number of pages.
    ``progress(done, total)`` is called as the tables are laid out, once per table in order. Printed for ``viewer`` (default the
    public, as the stored pack is): a result whose totals are hidden from them gets the empty
    sheet (:func:`score_sheet_pdf`). A draft round's pack (and sheet) carries the draft watermark
    (:func:`scoring.printing.common.watermark`).

    Memory stays bounded whatever the round's size: the sheets are laid out ``part_sheets``
    (:data:`PART_SHEETS`) at a time, each part written to a temporary file with the pages
    numbered on, and the parts are joined by pypdf into ``out`` (a round of one part is written
    to ``out`` directly); each part reads its own records. For the public, a fixed number of
    queries per part."""
    viewer = AnonymousUser() if viewer is None else viewer
    kind = kind_for(rnd.tournament.adapter)
    containers = list(kind.in_round(rnd))
    st = styles()
    title = f"{rnd.tournament.name} - {_('round')} {rnd.number}"
    draft = rnd.status == Round.Status.DRAFT
    size = part_sheets or PART_SHEETS

    def part(start: int) -> list:
        flow: list = []
        chunk = containers[start:start + size]
        by_container = kind.records_of_round(rnd, None if len(chunk) == len(containers) else [c.pk for c in chunk])
        for i, container in enumerate(chunk, start):
            container.round = rnd
            if flow:
                flow.append(PageBreak())
                if progress:
                    flow.append(Reached(progress, i, len(containers)))
            flow.extend(sheet_flowables(container, by_container.pop(container.pk, []), st, base_url,
                                        blank=totals_hidden(container, viewer)))
        return flow

    def laid_out(end: int) -> None:
        if progress and containers:
            progress(min(end, len(containers)), len(containers))

    if len(containers) <= size:
        pages = build_into(out, part(0) or [para(_("This round has no tables yet."), st["body"])], title, draft=draft)
        laid_out(size)
        return pages
    with tempfile.TemporaryDirectory(prefix="nskt-pack-") as folder:
        parts, pages = [], 0
        for start in range(0, len(containers), size):
            path = Path(folder) / f"{start:06d}.pdf"
            with path.open("wb") as f:
                pages += build_into(f, part(start), title, draft=draft, first_page=pages + 1)
            parts.append(path)
            laid_out(start + size)
        join_pdfs(parts, out, title)
    return pages


class Reached(Flowable):
    """An invisible marker at the top of a sheet's page: when it is drawn (the sheets before it
    are laid out), ``progress(done, total)`` is called."""

    def __init__(self, progress: Callable[[int, int], None], done: int, total: int):
        super().__init__()
        self.progress, self.done, self.total = progress, done, total

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self) -> None:
        self.progress(self.done, self.total)
