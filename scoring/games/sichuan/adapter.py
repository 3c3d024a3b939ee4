"""Sichuan bloody battle (血战到底): four players, a deal is the engine's ``settle`` input
``{"players": ["E", "S", "W", "N"], "events": [...], "exhaustion": null|{...}}`` with the seat
labels as player names (docs/engines/sichuan.md). Nothing is carried from deal to deal."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation, Violation
from scoring.games.base import FIXED_HANDS, RecordOutcome, SheetColumn
from scoring.games.fourplayer import FourPlayerGame, as_int, mahjong_statistics, self_drawn_mark
from scoring.games.labels import item_label
from scoring.games.mahjong_forms import SEAT_NAMES, SEATS, seat_short, with_tile_faces
from scoring.games.quick import quick_win_text, refuse_quick
from scoring.games.sichuan.forms import SichuanDealEntry

HOW_WORDS = {"discard": _("on a discard"), "self": _("self-draw"), "rob_added_kong": _("robbing an added kong")}
KONG_WORDS = {"exposed": _("exposed"), "concealed": _("concealed"), "added": _("added")}


def win_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The win events of a stored deal, quick (``{"type": "win", "player", "discarder"?, "fan"}``)
    or full (with ``"hand"``); anything that is not an object is skipped."""
    return [ev for ev in record.get("events") or [] if isinstance(ev, dict) and ev.get("type", "win") == "win"]


def win_hand(ev: dict[str, Any]) -> dict[str, Any]:
    """The ``hand.win`` object of a full win event (``{}`` for a quick one)."""
    hand = ev.get("hand") if isinstance(ev.get("hand"), dict) else {}
    return hand.get("win") if isinstance(hand.get("win"), dict) else {}


def win_source(ev: dict[str, Any]) -> str:
    """Who paid for a win: the discarder or the robbed player (event level, or in a full hand's
    ``win``); ``""`` for a self-drawn win."""
    win = win_hand(ev)
    return str(ev.get("discarder") or ev.get("robbed") or win.get("discarder") or win.get("robbed") or "")


def win_how(ev: dict[str, Any]) -> str:
    """How a win was made: the full hand's ``win.how``, else read off a quick event (a robbed
    player: robbing an added kong; a discarder: on a discard; neither: self-drawn)."""
    how = win_hand(ev).get("how") or ev.get("how")
    if how:
        return str(how)
    if ev.get("robbed"):
        return "rob_added_kong"
    return "discard" if ev.get("discarder") else "self"


def win_fan(ev: dict[str, Any]) -> int | None:
    """The fan entered with a quick win; ``None`` for a full one (the engine counts its fan)."""
    return as_int(ev.get("fan"))



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
            if not isinstance(ev, dict):
                continue
            who = SEAT_NAMES.get(ev.get("player"), ev.get("player"))
            if ev.get("type") == "kong":
                parts.append(" ".join(str(x) for x in (_t("kong"), who, KONG_WORDS.get(ev.get("kind"), ev.get("kind", "")), ev.get("tile", "")) if x))
            elif "fan" in ev:
                parts.append(f"{_t('win')} {quick_win_text(who, ev.get('discarder'), ev.get('robbed'), ev.get('fan'), _t('fan'))}")
            else:  # a full hand: the winning tile where a quick win has its fan ("win East from South 5p")
                source, robbed = win_source(ev), win_how(ev) == "rob_added_kong"
                text = quick_win_text(who, None if robbed else source, source if robbed else None, win_hand(ev).get("tile", ""), "")
                parts.append(f"{_t('win')} {text.strip()}")
        if record.get("exhaustion") is not None:
            parts.append(_t("wall exhausted"))
        return "; ".join(parts)

    def player_statistics(self, results):
        """Deals, wins (self-drawn, on a discard), deal-ins and placements
        (:func:`scoring.games.fourplayer.mahjong_statistics`); every win of a bloody-battle deal
        counts (a deal may have up to three)."""
        return mahjong_statistics(results, lambda record: [(str(ev.get("player") or ""), win_how(ev), win_source(ev))
                                                           for ev in win_events(record)])

    # ------------------------------------------------------------------ printing

    #: Two win lines per deal row: a deal may have several wins (the bloody battle).
    sheet_row_lines = 2

    def sheet_columns(self) -> list[SheetColumn]:
        """Per deal, as quick entry takes it: who won, from whom (or self-drawn), the fan; one
        line per win."""
        return [SheetColumn(_t("Wins"), (_t("winner"), _t("from"), _t("fan")), 13)]

    def sheet_cells(self, record) -> list[str]:
        """Winner, from and fan of every win, one line each (a full record's fan is counted by
        the engine: its winning tile is printed in brackets instead); a deal without a win:
        "wall exhausted"."""
        winners, sources, values = [], [], []
        for ev in win_events(record):
            winners.append(seat_short(ev.get("player")))
            source = win_source(ev)
            sources.append(seat_short(source) if source else self_drawn_mark())
            fan, tile = win_fan(ev), win_hand(ev).get("tile")
            values.append(str(fan) if fan is not None else f"({tile})" if tile else "")
        if not winners:
            winners.append(_t("wall exhausted") if record.get("exhaustion") is not None else "–")
        return ["\n".join(winners), "\n".join(sources), "\n".join(values)]

    def sheet_legend(self) -> str:
        return _t("One line per win: the winner, from whom (the discarder, or \"self\" for a self-drawn win) and the fan; "
                  "seats E/S/W/N. A fan in brackets: entered tile by tile, the winning tile (the engine counts the fan).")

    def summary_html(self, record) -> Any:
        """The summary with its tiles shown as tile faces."""
        return with_tile_faces(self.summary(record))

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
