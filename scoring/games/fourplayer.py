"""Shared base of the four-player games (Sichuan, Taiwanese, Tien Gow): individual players seated
four to a table, one result per seat, records are deals (docs/tournaments.md)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, pgettext

from scoring.games.base import EntrantKind, GameAdapter
from scoring.games.labels import item_label
from scoring.games.statistics import PlayedResult, Series, Statistic, Statistics, placements

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


#: One win of a deal as the mahjong statistics read it: ``(winner, how, paid_by)``, seat keys;
#: ``how`` as the engines name it (``"self"``, ``"discard"``, ``"rob_added_kong"``, ...);
#: ``paid_by``: the discarder or the robbed player, ``""`` for a self-drawn win.
Win = tuple[str, str, str]


def mahjong_statistics(results: Sequence[PlayedResult], wins_of: Callable[[dict[str, Any]], Iterable[Win]]) -> Statistics:
    """A mahjong player's numbers (Sichuan, Taiwanese; ``result.seat``: the player's seat key):
    deals played; wins, of them self-drawn and on a discard (robbing a kong and the flower wins
    are counted as wins only); deal-ins (the player discarded a winning tile: a discard win paid
    by the player's seat); the placements at the finished tables
    (:func:`scoring.games.statistics.placements`). ``wins_of``: a stored deal's wins."""
    deals = wins = self_drawn = on_discard = deal_ins = 0
    for result in results:
        for record in result.records:
            deals += 1
            for winner, how, paid_by in wins_of(record):
                if winner == result.seat:
                    wins += 1
                    self_drawn += how == "self"
                    on_discard += how == "discard"
                elif how == "discard" and paid_by == result.seat:
                    deal_ins += 1
    places, chart = placements(results)
    items = [
        Statistic("deals", _("Deals played"), deals),
        Statistic("wins", _("Wins"), wins),
        Statistic("wins_self_drawn", _("Wins by self-draw"), self_drawn),
        Statistic("wins_on_discard", _("Wins on a discard"), on_discard),
        Statistic("deal_ins", _("Deal-ins (discarded the winning tile)"), deal_ins),
        *places,
    ]
    wins_chart = Series("wins", _("Wins and deal-ins"), "bars",
                        [str(_("self-draw")), str(_("on a discard")), str(_("deal-ins"))], [self_drawn, on_discard, deal_ins])
    return Statistics(items, [chart, wins_chart])
