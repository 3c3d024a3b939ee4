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
from scoring.games.base import FIXED_HANDS, TIME_LIMIT, WIND_ROUNDS, RecordOutcome
from scoring.games.fourplayer import FourPlayerGame
from scoring.games.labels import item_label
from scoring.games.mahjong_forms import SEAT_NAMES, SEATS
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

    def summary(self, record) -> str:
        """``"East self-draw 5p"`` or ``"draw"``, in the active language."""
        if record.get("draw"):
            return _t("draw")
        win = record.get("win") or {}
        who = SEAT_NAMES.get(record.get("seat"), record.get("seat"))
        if "tai" in record:
            return quick_win_text(who, win.get("discarder"), win.get("robbed"), record["tai"], _t("tai"))
        return " ".join(str(x) for x in (who, HOW_WORDS.get(win.get("how"), win.get("how", "")), win.get("tile", "")) if x)

    def state_text(self, state) -> str:
        if not state:
            return ""
        return _t("Dealer {dealer}, streak {streak}, round wind {wind}").format(
            dealer=SEAT_NAMES.get(state.get("dealer"), ""), streak=state.get("streak", 0),
            wind=SEAT_NAMES.get(state.get("round_wind", "E"), ""))

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
