"""Team and player cards (issue 15): one card per entrant of a tournament with its name, its
private link as a QR code and as text (the code in groups of four, for typing it in), and what
the link is for. Eight cards to an A4 page (two columns, four rows), with cutting lines.

The links are computed from their nonces (:mod:`scoring.participants.links`), so the cards can
be printed again at any time; a regenerated link prints its new token. Organisers only: the
cards hold every entrant's private link.
"""
from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepInFrame, Paragraph, Table, TableStyle

from scoring.games.base import EntrantKind
from scoring.models import EntrantLink, Player, Team, Tournament
from scoring.participants import links
from scoring.printing.common import FRAME_WIDTH, build, para, qr, styles

CARD_HEIGHT = 66 * mm
QR_SIZE = 36 * mm

#: The line under an entrant's name on its card.
DETAIL: dict[EntrantKind, Callable[[Team | Player], str]] = {
    EntrantKind.TEAMS: lambda team: " · ".join(x for x in (team.player_names, team.affiliation) if x),
    EntrantKind.PLAYERS: lambda player: player.affiliation,
}


def _code_lines(token: str) -> list[str]:
    """``"ABCD-EFGH-JKMN"``, ``"PQRS-TVWX-YZ01"``: the code as printed (typed with or without the
    dashes and the line break)."""
    groups = links.grouped(token).split("-")
    return ["-".join(groups[:3]), "-".join(groups[3:])]


def _card(tournament: Tournament, link: EntrantLink, base_url: str, st: dict) -> Table:
    entrant = link.entrant
    url = links.url_of(link, base_url)
    token = links.token_of(link)
    host = urlsplit(url).netloc or url
    detail = DETAIL[tournament.adapter.entrants](entrant)
    text = [para(tournament.name, st["small"]), para(entrant.name, st["title"])]
    if detail:
        text.append(para(detail, st["body"]))
    text += [
        para(_("Your private link: your table, your results and, when the organiser allows it, entering and "
               "confirming results on your phone. Keep it to yourself."), st["small"]),
        para(_("Scan the code, or open %(address)s and type:") % {"address": f"{host}/p/"}, st["small"]),
        # The code in two lines of three groups, in a fixed-width font (never broken inside a group).
        Paragraph("<br/>".join(f'<font face="Courier-Bold" size="11">{line}</font>' for line in _code_lines(token)),
                  st["body"]),
    ]
    inner = Table([[KeepInFrame(FRAME_WIDTH / 2 - QR_SIZE - 8 * mm, CARD_HEIGHT - 6 * mm, text, mode="shrink"),
                    qr(url, QR_SIZE)]],
                  colWidths=[FRAME_WIDTH / 2 - QR_SIZE - 4 * mm, QR_SIZE + 4 * mm])
    inner.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 2),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 2)]))
    return inner


def entrant_cards_pdf(tournament: Tournament, *, base_url: str, only: list[int] | None = None) -> bytes:
    """The cards of every entrant of ``tournament`` (``only``: of these link ids) as PDF bytes,
    in name order. ``base_url``: ``"https://host/"``, the site's address the links start with."""
    st = styles()
    chosen = [link for link in links.ensure_links(tournament) if only is None or link.pk in only]
    cells = [_card(tournament, link, base_url, st) for link in chosen]
    if not cells:
        return build([para(_("This tournament has no entrants yet."), st["body"])], tournament.name)
    if len(cells) % 2:
        cells.append("")
    rows = [cells[i:i + 2] for i in range(0, len(cells), 2)]
    grid = Table(rows, colWidths=[FRAME_WIDTH / 2] * 2, rowHeights=[CARD_HEIGHT] * len(rows))
    grid.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey, None, (2, 2)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3 * mm), ("LEFTPADDING", (0, 0), (-1, -1), 3 * mm),
    ]))
    cards_word = _("cards")
    return build([grid], f"{tournament.name} - {cards_word}")
