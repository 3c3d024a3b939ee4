"""Shared base of the four-player games (Sichuan, Taiwanese, Tien Gow): individual players seated
four to a table, one result per seat, records are deals (docs/tournaments.md)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext

from scoring.games.base import EntrantKind, GameAdapter
from scoring.games.labels import item_label

AUDIT_SENTENCES = {
    "create": gettext_noop("Deal %(number)s entered"),
    "update": gettext_noop("Deal %(number)s changed"),
    "delete": gettext_noop("Deal %(number)s deleted"),
    "restore": gettext_noop("Deal %(number)s restored"),
    "acknowledge": gettext_noop("Deal %(number)s acknowledged"),
    "dispute": gettext_noop("Deal %(number)s disagreed with"),
}


def as_int(value: Any) -> int | None:
    """``value`` as an int when it is one (``3``, ``"3"``), else ``None``: a stored record's fan,
    tai or seat read defensively (quick and full records differ, docs/results.md)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def self_drawn_mark() -> str:
    """What the printed sheet's "from" cell says for a self-drawn win (short: the column is narrow)."""
    return pgettext("score sheet: a self-drawn win", "self")


class FourPlayerGame(GameAdapter):
    """Common defaults: four seats, records called deals, a sum of independent deals (the base
    class's :meth:`~scoring.games.base.GameAdapter.evaluate`), Dutch-ready audit sentences."""

    entrants = EntrantKind.PLAYERS
    record_noun = (_("deal"), _("deals"))
    #: Round 1 seeding and club avoidance (the seating), placement points, the players' tie-breaks
    #: and the entry mode (quick or every tile).
    form_groups = ("pairing", "placement", "tiebreaks", "entry")

    def audit_sentence(self, action: str, number: Any) -> str:
        template = AUDIT_SENTENCES.get(action)
        return _t(template) % {"number": number} if template else ""

    @staticmethod
    def payment_rows(payments: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
        """Engine payments ``[{"from", "to", "amount", "reason"}]`` with names and translated
        reasons."""
        return [{"from": names.get(str(p.get("from")), p.get("from")), "to": names.get(str(p.get("to")), p.get("to")),
                 "amount": p.get("amount"), "reason": item_label(p["reason"]) if p.get("reason") else ""}
                for p in payments]
