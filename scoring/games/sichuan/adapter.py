"""Sichuan bloody battle (血战到底): four players, a deal is the engine's ``settle`` input
``{"players": ["E", "S", "W", "N"], "events": [...], "exhaustion": null|{...}}`` with the seat
labels as player names (docs/engines/sichuan.md). Nothing is carried from deal to deal."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation, Violation
from scoring.games.base import FIXED_HANDS, RecordOutcome
from scoring.games.fourplayer import FourPlayerGame
from scoring.games.labels import item_label
from scoring.games.mahjong_forms import SEAT_NAMES, SEATS
from scoring.games.sichuan.forms import SichuanEntry

HOW_WORDS = {"discard": _("on a discard"), "self": _("self-draw"), "rob_added_kong": _("robbing an added kong")}
KONG_WORDS = {"exposed": _("exposed"), "concealed": _("concealed"), "added": _("added")}


class Sichuan(FourPlayerGame):
    """The Sichuan adapter (engine ``sichuan``); sides are the seats E, S, W, N."""

    key = engine = "sichuan"
    label = _("Sichuan mahjong (bloody battle)")
    sides = SEATS
    entry_template = "games/sichuan/entry.html"
    item_unit = _("fan")
    #: A round is 8 deals (each seat deals twice; a bloody-battle deal plays on until three have won).
    round_counts = {FIXED_HANDS: 8}
    override_example = '{"fan_cap": 6}'

    def side_labels(self) -> list[str]:
        return [str(SEAT_NAMES[s]) for s in SEATS]

    def evaluate_record(self, record, state, settings) -> RecordOutcome:
        """Engine ``settle`` of one deal; ``net`` per seat."""
        if not isinstance(record, dict):
            raise RuleViolation([Violation("", "The deal record must be an object.")])
        data = {**record, "players": list(SEATS)}
        data.pop("rules", None)
        data.setdefault("exhaustion", None)
        out = engines.run("sichuan", "settle", self.with_rules(data, settings.rules))
        net = out.get("net", {})
        return RecordOutcome(data, tuple(int(net.get(s, 0)) for s in SEATS), out, {})

    def summary(self, record) -> str:
        """``"win East self-draw 5p; kong South exposed 3m"`` in the active language."""
        parts = []
        for ev in record.get("events") or []:
            who = SEAT_NAMES.get(ev.get("player"), ev.get("player"))
            if ev.get("type") == "kong":
                parts.append(" ".join(str(x) for x in (_t("kong"), who, KONG_WORDS.get(ev.get("kind"), ev.get("kind", "")), ev.get("tile", "")) if x))
            else:
                win = (ev.get("hand") or {}).get("win") or {}
                parts.append(" ".join(str(x) for x in (_t("win"), who, HOW_WORDS.get(win.get("how"), win.get("how", "")), win.get("tile", "")) if x))
        if record.get("exhaustion") is not None:
            parts.append(_t("wall exhausted"))
        return "; ".join(parts)

    def preview_items(self, outcome, names) -> list[tuple[str, Any]]:
        items = []
        for win in outcome.output.get("wins") or []:
            who = names.get(win.get("player"), win.get("player", ""))
            for name, value in (win.get("fan_items") or {}).items():
                items.append((f"{who} {item_label(name)}", value))
            if "fan" in win:
                items.append((f"{who} {_t('fan')}", win["fan"]))
        return items

    def payments(self, outcome, names) -> list[dict[str, Any]]:
        return self.payment_rows(outcome.output.get("payments") or [], names)

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return SichuanEntry(data, names=names, initial=initial, prefix="deal", settings=settings)
