"""The cross table as a PDF (A4 landscape, docs/tournaments.md "Cross table"), from the same
service as the page (:func:`scoring.standings.crosstable.cross_table`), names as the public sees
them (:func:`scoring.participants.names.public_name`).

Every page repeats the table's head. Rounds get columns of at least :data:`ROUND_MIN` wide; when
more rounds than fit on the page's width are played, the rounds are split into blocks, each
a table of its own with the entrants' numbers and names again (the totals with the last block).
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from scoring.models import Tournament
from scoring.participants.names import public_name
from scoring.printing.common import FONT, FONT_BOLD, MARGIN, build, column_width, para, styles
from scoring.standings.crosstable import CrossTable, Row, cross_table
from scoring.standings.placement import render as render_points

#: Widths (points): the number, the name, a round at least, a total.
NUMBER_WIDTH = 9 * mm
NAME_WIDTH = 48 * mm
ROUND_MIN = 19 * mm
TOTAL_WIDTH = 15 * mm


def crosstable_pdf(tournament: Tournament) -> bytes:
    """The cross table of ``tournament`` as PDF bytes (public names)."""
    table = cross_table(tournament, name_of=lambda p: public_name(p, tournament))
    st = styles()
    st["tiny"] = ParagraphStyle("tiny", parent=st["cell"], fontSize=7, leading=8.2)
    st["tiny_bold"] = ParagraphStyle("tiny-bold", parent=st["tiny"], fontName=FONT_BOLD)
    head = [para(tournament.name, st["title"]), para(_heading(table), st["h2"]), para(legend(table), st["small"])]
    flow: list = [KeepTogether(head + [Spacer(1, 2 * mm)])]
    for i, block in enumerate(round_blocks(table, st)):
        if i:
            flow.append(Spacer(1, 5 * mm))
        flow.append(_block_table(table, block, last=block[-1] == len(table.rounds) - 1 if block else True, st=st))
    return build(flow, f"{tournament.name} - {_('Cross table')}", landscape(A4))


def _heading(table: CrossTable) -> str:
    played = table.played_through
    after = _("after round %(number)s") % {"number": played} if played else ""
    return _("Cross table") + (f" · {after}" if after else "")


def legend(table: CrossTable) -> str:
    """How to read a cell (the page says the same)."""
    return table.legend


def _frame_width() -> float:
    return landscape(A4)[0] - 2 * MARGIN - 12


def total_widths(table: CrossTable, st) -> list[float]:
    """The width of each totals column: :data:`TOTAL_WIDTH`, or wider where a word of its
    heading needs it (headings wrap at spaces only)."""
    return [column_width([str(label)], st["tiny_bold"], TOTAL_WIDTH, 3) for _key, label in table.columns]


def round_blocks(table: CrossTable, st) -> list[list[int]]:
    """The indexes of :attr:`CrossTable.rounds` per table printed: as many rounds as fit next to
    the number and name columns (with the totals beside the last block); at least one block."""
    width = _frame_width() - NUMBER_WIDTH - NAME_WIDTH
    totals = sum(total_widths(table, st))
    n = len(table.rounds)
    if n * ROUND_MIN + totals <= width:
        return [list(range(n))]
    per_block = max(1, int(width // ROUND_MIN))
    blocks = [list(range(i, min(n, i + per_block))) for i in range(0, n, per_block)]
    if len(blocks[-1]) * ROUND_MIN + totals > width:
        blocks.append([])  # the totals get a block of their own
    return blocks


def _cell(cell, st) -> Paragraph | str:
    """A round's cell: who and where on the first line, the result on the second; four-player
    tables the other players' numbers on a third."""
    if cell is None:
        return ""
    lines = [escape(text) for text in (cell.head_text(), cell.result_text()) if text]
    if cell.seat is not None and cell.opponents:
        lines.append(escape(f"{_('vs')} {', '.join(str(n) for n in cell.opponents)}"))
    return Paragraph("<br/>".join(lines), st["tiny"])


def _name(row: Row, st) -> Paragraph:
    text = f"<b>{escape(row.name)}</b>"
    if row.players:
        text += f"<br/>{escape(' & '.join(row.players))}"
    if row.withdrawn:
        text += f" ({escape(_('withdrawn'))})"
    return Paragraph(text, st["tiny"])


def _total(value) -> str:
    if value is None:
        return ""
    return render_points(value) if not isinstance(value, int) else str(value)


def _block_table(table: CrossTable, block: list[int], *, last: bool, st) -> Table:
    """One table: number, name and the rounds of ``block`` (and with ``last`` the totals)."""
    columns = table.columns if last else []
    head = [_("No."), table.entrant_heading]
    head += [_("R%(number)s") % {"number": table.rounds[i]} for i in block] + [str(label) for _key, label in columns]
    rows = [[Paragraph(escape(str(text)), st["tiny_bold"]) for text in head]]
    for row in table.rows:
        rank = str(row.number) if row.rank == row.number or row.rank is None else f"{row.number} ({row.rank})"
        rows.append([rank, _name(row, st)] + [_cell(row.cells[i], st) for i in block]
                    + [_total(row.totals.get(key)) for key, _label in columns])
    totals = total_widths(table, st) if last else []
    rest = _frame_width() - NUMBER_WIDTH - NAME_WIDTH - sum(totals)
    round_width = max(ROUND_MIN, rest / len(block)) if block else 0
    widths = [NUMBER_WIDTH, NAME_WIDTH] + [round_width] * len(block) + totals
    out = Table(rows, colWidths=widths, repeatRows=1)
    out.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), FONT, 7.5),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf3")),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f8fa")]),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
        ("LINEAFTER", (1, 0), (-1, -1), 0.3, colors.lightgrey),
        ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("ALIGN", (2 + len(block), 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]))
    return out
