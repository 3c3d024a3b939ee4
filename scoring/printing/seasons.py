"""A season ranking as a PDF (A4 landscape; issue 26 item 3), from the same ranking as the page
(:func:`scoring.seasons.ranking.ranking`): rank, public name, counted points, then each
tournament's points; a result outside the best N in brackets, a provisional one (running
tournament) marked with an asterisk."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import Spacer, Table, TableStyle

from scoring.printing.common import FONT_BOLD, MARGIN, build, head_para, para, styles
from scoring.seasons.ranking import Ranking, points_text


def cell_text(result) -> str:
    """A tournament's cell: ``"25"`` counted, ``"(15)"`` dropped (outside the best N),
    ``"16.5*"`` provisional, ``""`` not played."""
    if result is None:
        return ""
    text = points_text(result.points)
    if result.provisional:
        return text + "*"
    return text if result.counted else f"({text})"


def season_pdf(ranking: Ranking) -> bytes:
    """The ranking as PDF bytes."""
    st = styles()
    season = ranking.season
    width = landscape(A4)[0] - 2 * MARGIN - 12
    fixed = [12 * mm, 55 * mm, 18 * mm]
    n = len(ranking.tournaments)
    each = max(10 * mm, (width - sum(fixed)) / max(1, n))
    widths = fixed + [each] * n
    head = [head_para(_("Rank"), st["head"], fixed[0]), head_para(_("Name"), st["head"], fixed[1]),
            head_para(_("Points"), st["head"], fixed[2])]
    head += [head_para(t.name + ("*" if t.pk in ranking.provisional else ""), st["head"], each) for t in ranking.tournaments]
    rows = [head] + [[str(row.rank), para(row.name, st["cell"]), points_text(row.total)]
                     + [cell_text(c) for c in row.cells] for row in ranking.rows]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 1), (-1, -1), st["cell"].fontName), ("FONTSIZE", (0, 1), (-1, -1), 8.5),
        ("FONTNAME", (2, 1), (2, -1), FONT_BOLD), ("ALIGN", (2, 1), (-1, -1), "RIGHT"), ("ALIGN", (0, 1), (0, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f2f2f2")]),
    ]))
    best = (ngettext("the best result counts", "the best %(n)s results count", season.best_n) % {"n": season.best_n}
            if season.best_n else _("every result counts"))  # the page's wording (templates/seasons/detail.html)
    flow = [para(season.name, st["title"]), para(_("Season ranking") + f" · {season.get_preset_display()} · {best}", st["h2"]),
            Spacer(1, 2 * mm), table, Spacer(1, 2 * mm),
            para(_("(x): not counted (outside the best results). *: provisional, the tournament is still running."), st["small"])]
    label = _("season ranking")
    return build(flow, f"{season.name} - {label}", landscape(A4))
