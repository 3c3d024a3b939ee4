"""Taiwanese 16-tile mahjong: four players; a deal is the engine's ``score`` input for the winner
(``"seat"``: the winner's seat label) or ``{"draw": true}`` when the wall ran out. The dealer, the
dealer's streak and the round wind are carried from deal to deal by the engine's
``engines.taiwanese.next_hand_state`` and written into each stored record (docs/engines/taiwanese.md)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation, Violation
from engines.taiwanese import initial_hand_state, next_hand_state
from scoring.games.base import FIXED_HANDS, TIME_LIMIT, WIND_ROUNDS, RecordOutcome, SheetColumn
from scoring.games.fourplayer import FourPlayerGame, as_int, mahjong_statistics, self_drawn_mark
from scoring.games.labels import item_label
from scoring.games.mahjong_forms import SEAT_NAMES, SEATS, seat_short, with_tile_faces
from scoring.games.quick import quick_win_text, refuse_quick
from scoring.games.taiwanese.forms import TaiwaneseDealEntry

HOW_WORDS = {
    "discard": _("on a discard"),
    "self": _("self-draw"),
    "rob_added_kong": _("robbing an added kong"),
    "eight_flowers": _("eight flowers"),
    "seven_rob_one": _("seven flowers robbing one"),
}
CARRIED = ("dealer", "streak", "round_wind")


def win_of(record: dict[str, Any]) -> dict[str, Any]:
    """The ``win`` object of a stored deal (``{}`` when missing): ``how``, ``discarder`` or
    ``robbed``, and in a full record the winning ``tile``."""
    return record.get("win") if isinstance(record.get("win"), dict) else {}


def winner_of(record: dict[str, Any]) -> str:
    """The winner's seat label of a stored deal (``"seat"``; ``""`` for a draw)."""
    return "" if record.get("draw") else str(record.get("seat") or record.get("winner") or "")


def source_of(record: dict[str, Any]) -> str:
    """Who paid the winner alone: the discarder or the robbed player; ``""`` for a self-drawn win."""
    win = win_of(record)
    return str(win.get("discarder") or win.get("robbed") or record.get("discarder") or "")


def how_of(record: dict[str, Any]) -> str:
    """How a stored deal was won: the full record's ``win.how``, else read off a quick one (a
    robbed player: robbing an added kong; a discarder: on a discard; neither: self-drawn)."""
    win = win_of(record)
    if win.get("how"):
        return str(win["how"])
    if win.get("robbed"):
        return "rob_added_kong"
    return "discard" if source_of(record) else "self"


def tai_of(record: dict[str, Any]) -> int | None:
    """The tai entered with a quick deal (``"tai"``); ``None`` for a full one (the engine counts
    its tai)."""
    return as_int(record.get("tai"))



class Taiwanese(FourPlayerGame):
    """The Taiwanese adapter (engine ``taiwanese``); sides are the seats E, S, W, N."""

    key = engine = "taiwanese"
    label = _("Taiwanese 16-tile mahjong")
    sides = SEATS
    entry_template = "games/mahjong/entry_modes.html"
    item_unit = _("tai")
    #: 8 deals by default; or whole wind rounds (a wind round: every seat has dealt once, the dealer
    #: staying on a win or a draw, so a wind round is at least 4 deals: the Taiwanese rule text,
    #: "De dealer en doorgeven"); or until the time limit.
    round_formats = (FIXED_HANDS, WIND_ROUNDS, TIME_LIMIT)
    round_counts = {FIXED_HANDS: 8, WIND_ROUNDS: 1}
    override_example = '{"cap": 16}'

    def side_labels(self) -> list[str]:
        return [str(SEAT_NAMES[s]) for s in SEATS]

    def initial_state(self) -> dict[str, Any]:
        return initial_hand_state()

    def wind_round_done(self, before, after) -> bool:
        """The deal passed from North back to East (``engines.taiwanese.next_hand_state`` moves
        the round wind on at that moment): every seat has dealt once more."""
        return before.get("dealer") == "N" and after.get("dealer") == "E"

    def evaluate_record(self, record, state, settings) -> RecordOutcome:
        """A draw scores nothing and keeps the dealer; a win is the engine's ``score`` with the
        carried dealer, streak and round wind; the winner receives what every payer pays."""
        if not isinstance(record, dict):
            raise RuleViolation([Violation("", "The deal record must be an object.")])
        carried = {k: state[k] for k in CARRIED}
        keeps = bool(self.resolve_rules(settings.rules).get("draw_keeps_dealer", True))
        if record.get("draw"):
            return RecordOutcome({"draw": True, **carried}, (0, 0, 0, 0), {"draw": True, "pay": {}},
                                 next_hand_state(state, None, draw_keeps_dealer=keeps))
        data = {k: v for k, v in record.items() if k != "rules"}
        if "tai" in data:
            refuse_quick(settings, "tai")
        data.update(carried)
        out = engines.run("taiwanese", "score", self.with_rules(data, settings.rules))
        winner = data.get("seat")
        net = [0, 0, 0, 0]
        for label, amount in (out.get("pay") or {}).items():
            net[SEATS.index(label)] -= int(amount)
            net[SEATS.index(winner)] += int(amount)
        return RecordOutcome(data, tuple(net), out, next_hand_state(state, winner, draw_keeps_dealer=keeps))

    def player_statistics(self, results):
        """Deals (draws included), wins (self-drawn, on a discard), deal-ins and placements
        (:func:`scoring.games.fourplayer.mahjong_statistics`); one winner per deal."""
        return mahjong_statistics(results, lambda record: [(winner_of(record), how_of(record), source_of(record))]
                                  if winner_of(record) else [])

    def summary(self, record) -> str:
        """``"South self-draw 5p"`` (a quick deal: ``"South self-draw 6 tai"``) or ``"draw"``, in the
        active language."""
        if record.get("draw"):
            return _t("draw")
        if "tai" in record:
            win = record.get("win") or {}
            who = SEAT_NAMES.get(record.get("seat"), record.get("seat"))
            return quick_win_text(who, win.get("discarder"), win.get("robbed"), record["tai"], _t("tai"))
        win = win_of(record)
        who = SEAT_NAMES.get(winner_of(record), winner_of(record))
        how = win.get("how") or ("discard" if source_of(record) else "self")
        tai = tai_of(record)
        return " ".join(str(x) for x in (who, HOW_WORDS.get(how, how), win.get("tile", ""),
                                         _t("{tai} tai").format(tai=tai) if tai is not None else "") if x)

    def sheet_columns(self) -> list[SheetColumn]:
        """Per deal, as quick entry takes it: who won, from whom (or self-drawn), the tai."""
        return [SheetColumn(_t("Win"), (_t("winner"), _t("from"), _t("tai")), 13)]

    def sheet_cells(self, record) -> list[str]:
        """Winner, from and tai (a full record's tai is counted by the engine: its winning tile is
        printed in brackets instead); a draw: "draw"."""
        if record.get("draw"):
            return [_t("draw"), "", ""]
        source = source_of(record)
        tai, tile = tai_of(record), win_of(record).get("tile")
        return [seat_short(winner_of(record)), seat_short(source) if source else self_drawn_mark(),
                str(tai) if tai is not None else f"({tile})" if tile else ""]

    def sheet_legend(self) -> str:
        return _t("The winner, from whom (the discarder, or \"self\" for a self-drawn win) and the tai; seats E/S/W/N. "
                  "A tai in brackets: entered tile by tile, the winning tile (the engine counts the tai). "
                  "The dealer and the streak are carried.")

    def state_text(self, state) -> str:
        if not state:
            return ""
        return _t("Dealer {dealer}, streak {streak}, round wind {wind}").format(
            dealer=SEAT_NAMES.get(state.get("dealer"), ""), streak=state.get("streak", 0),
            wind=SEAT_NAMES.get(state.get("round_wind", "E"), ""))

    def summary_html(self, record) -> Any:
        """The summary with its tiles shown as tile faces."""
        return with_tile_faces(self.summary(record))

    def preview_items(self, outcome, names) -> list[tuple[str, Any]]:
        out = outcome.output
        items = [(item_label(k), v) for k, v in (out.get("tai_items") or {}).items()]
        if out.get("dealer_tai"):
            items.append((_t("dealer tai"), out["dealer_tai"]))
        if out.get("tai") is not None:
            items.append((_t("Tai"), out["tai"]))
        return items

    def payments(self, outcome, names) -> list[dict[str, Any]]:
        winner = outcome.record.get("seat")
        pays = (outcome.output.get("pay") or {}).items()
        return self.payment_rows([{"from": seat, "to": winner, "amount": amount, "reason": ""} for seat, amount in pays], names)

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return TaiwaneseDealEntry(data, names=names, initial=initial, prefix="deal", settings=settings)
