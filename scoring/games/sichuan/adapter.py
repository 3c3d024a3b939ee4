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
from scoring.games.quick import quick_win_text, refuse_quick
from scoring.games.sichuan.forms import SichuanDealEntry

HOW_WORDS = {"discard": _("on a discard"), "self": _("self-draw"), "rob_added_kong": _("robbing an added kong")}
KONG_WORDS = {"exposed": _("exposed"), "concealed": _("concealed"), "added": _("added")}


class Sichuan(FourPlayerGame):
    """The Sichuan adapter (engine ``sichuan``); sides are the seats E, S, W, N."""

    key = engine = "sichuan"
    label = _("Sichuan mahjong (bloody battle)")
    sides = SEATS
    entry_template = "games/mahjong/entry_modes.html"
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
        quick = quick_field(data)
        if quick:
            refuse_quick(settings, quick)
        out = engines.run("sichuan", "settle", self.with_rules(data, settings.rules))
        net = out.get("net", {})
        return RecordOutcome(data, tuple(int(net.get(s, 0)) for s in SEATS), out, {})

    def summary(self, record) -> str:
        """``"win East self-draw 5p; kong South exposed 3m"`` (quick: ``"win East from South 3
        fan"``) in the active language."""
        parts = []
        for ev in record.get("events") or []:
            who = SEAT_NAMES.get(ev.get("player"), ev.get("player"))
            if ev.get("type") == "kong":
                parts.append(" ".join(str(x) for x in (_t("kong"), who, KONG_WORDS.get(ev.get("kind"), ev.get("kind", "")), ev.get("tile", "")) if x))
            elif "fan" in ev:
                parts.append(f"{_t('win')} {quick_win_text(who, ev.get('discarder'), ev.get('robbed'), ev.get('fan'), _t('fan'))}")
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
        """Quick entry beside the full tile entry (:class:`SichuanDealEntry`); full only when the
        tournament's ``entry_mode`` is full."""
        return SichuanDealEntry(data, names=names, initial=initial, prefix="deal", settings=settings)


def quick_field(data: dict[str, Any]) -> str:
    """The field of the first quick value of a deal (``events[i].fan``, a tile-less kong's
    ``events[i].tile``, an exhaustion entry without tiles), or ``""`` for a deal with tiles."""
    for i, ev in enumerate(data.get("events") or []):
        if isinstance(ev, dict) and ("fan" in ev or (ev.get("type") == "kong" and "tile" not in ev)):
            return f"events[{i}].{'fan' if 'fan' in ev else 'tile'}"
    ex = data.get("exhaustion")
    if isinstance(ex, dict):
        for seat, entry in ex.items():
            if isinstance(entry, dict) and not entry.keys() & {"void", "concealed", "melds"}:
                return f"exhaustion.{seat}"
    return ""
