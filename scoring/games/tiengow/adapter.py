"""Tien Gow (Chinese dominoes): four players in seats 0..3; a deal is ``{"mode": "settle", ...the
engine's settle input}`` or ``{"mode": "deal", ...the engine's deal input}``; the banker is
carried from deal to deal (the engine's ``next_banker``) and written into each stored record
(docs/engines/tiengow.md)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

import engines
from engines.errors import RuleViolation, Violation
from scoring.games.base import FIXED_HANDS, RecordOutcome, SheetColumn
from scoring.games.fourplayer import FourPlayerGame, as_int
from scoring.games.labels import item_label
from scoring.games.statistics import Series, Statistic, Statistics, placements
from scoring.games.tiengow.forms import TienGowEntry

MODES = ("settle", "deal")
#: How a trick was won, as the printed sheet abbreviates it (the legend says it; ordinary: "–").
GROUP_SHORT = {"ordinary": "–", "quartet": "Q", "supreme": "S", "little_three": "1-2"}


def seat_number(value: Any) -> str:
    """A seat ``0``..``3`` as printed, ``"1"``..``"4"``; ``"–"`` when missing or not a seat."""
    seat = as_int(value)
    return str(seat + 1) if seat is not None and 0 <= seat < 4 else "–"


class TienGow(FourPlayerGame):
    """The Tien Gow adapter (engine ``tiengow``); sides are the seats ``"0"`` .. ``"3"``."""

    key = engine = "tiengow"
    #: No entry mode: a deal is entered by its settlement or trick by trick, never tile by tile.
    form_groups = ("pairing", "placement", "tiebreaks")
    label = _("Tien Gow")
    sides = ("0", "1", "2", "3")
    entry_template = "games/tiengow/entry.html"
    item_unit = _("item")
    #: A round is 16 deals (a Tien Gow deal is short: eight tricks).
    round_counts = {FIXED_HANDS: 16}
    override_example = '{"banker_double": false}'

    def side_labels(self) -> list[str]:
        return [_t("Seat %(n)s") % {"n": i + 1} for i in range(4)]

    def initial_state(self) -> dict[str, Any]:
        return {"banker": 0}

    def evaluate_record(self, record, state, settings) -> RecordOutcome:
        """Engine ``settle`` or ``deal`` (``record["mode"]``) with the carried banker."""
        if not isinstance(record, dict):
            raise RuleViolation([Violation("", "The deal record must be an object.")])
        mode = record.get("mode", "settle")
        if mode not in MODES:
            raise RuleViolation([Violation("mode", "Unknown entry mode {mode!r}.", {"mode": mode})])
        data = {k: v for k, v in record.items() if k not in ("mode", "rules")}
        data["banker"] = state.get("banker", 0)
        out = engines.run("tiengow", mode, self.with_rules(data, settings.rules))
        net = tuple(int(x) for x in out.get("net", [0, 0, 0, 0]))
        return RecordOutcome({"mode": mode, **data}, net, out, {"banker": int(out["next_banker"])})

    def player_statistics(self, results):
        """Deals played; the deals the player was banker (the stored record's carried ``banker``
        is the player's seat) and the player's net result over those deals (the deal's scores);
        the placements at the finished tables (:func:`scoring.games.statistics.placements`)."""
        deals = banker_deals = banker_net = 0
        for result in results:
            for record, scores in zip(result.records, result.scores, strict=False):
                deals += 1
                if as_int(record.get("banker", 0)) == result.side:
                    banker_deals += 1
                    banker_net += int(scores[result.side])
        places, chart = placements(results)
        items = [Statistic("deals", _("Deals played"), deals), Statistic("banker_deals", _("Deals as banker"), banker_deals),
                 Statistic("banker_net", _("Net result as banker"), banker_net), *places]
        banker = Series("banker", _("Deals as banker"), "bars", [str(_("as banker")), str(_("other deals"))],
                        [banker_deals, deals - banker_deals])
        return Statistics(items, [chart, banker])

    def summary(self, record) -> str:
        banker = int(record.get("banker", 0)) + 1
        if record.get("mode") == "deal":
            return _t("trick by trick (banker {banker})").format(banker=banker)
        cols = record.get("columns")
        if cols:
            return _t("banker {banker} · columns {columns}").format(banker=banker, columns="/".join(str(c) for c in cols))
        return _t("banker {banker}").format(banker=banker)

    def sheet_columns(self) -> list[SheetColumn]:
        """Per deal, as quick entry takes it: the banker, the columns per seat, the last trick's
        winner and how it was won, the immediate payments."""
        return [SheetColumn(_t("Banker"), ("",), 16), SheetColumn(_t("Columns"), ("1", "2", "3", "4"), 7),
                SheetColumn(_t("Last trick"), (pgettext("score sheet column", "won by"), _t("with")), 12), SheetColumn(_t("Immediate"), ("",), 20)]

    def sheet_cells(self, record) -> list[str]:
        """Banker, four column counts, last-trick winner and group, immediate payments ("3 S": seat 3
        won the Supreme, one line each); a trick-by-trick record prints its banker only (its
        columns are derived, see the result page)."""
        cols = record.get("columns") if isinstance(record.get("columns"), list) else []
        columns = [str(c) if as_int(c) is not None else "–" for c in cols[:4]] + ["–"] * (4 - len(cols[:4]))
        last = record.get("last_trick") if isinstance(record.get("last_trick"), dict) else {}
        group = str(last.get("group") or "ordinary")
        immediate = [f"{seat_number(imm.get('winner'))} {GROUP_SHORT.get(str(imm.get('group')), imm.get('group'))}"
                     for imm in record.get("immediate") or [] if isinstance(imm, dict)]
        return [seat_number(record.get("banker", 0)), *columns, seat_number(last.get("winner")) if last else "–",
                GROUP_SHORT.get(group, group) if last else "–", "\n".join(immediate) or "–"]

    def sheet_legend(self) -> str:
        return _t("Seats 1-4. Last trick won with: – ordinary, Q a quartet, S the Supreme, 1-2 the single Little Three. "
                  "Immediate: the seat that won a Supreme (S) or a quartet (Q) during the deal. – : nothing. "
                  "The winner of the last trick is the next banker.")

    def state_text(self, state) -> str:
        return _t("Banker: seat {seat}").format(seat=int(state.get("banker", 0)) + 1) if state else ""

    def preview_items(self, outcome, names) -> list[tuple[str, Any]]:
        out = outcome.output
        items: list[tuple[str, Any]] = []
        if out.get("columns") is not None:
            items.append((_t("columns"), "/".join(str(c) for c in out["columns"])))
        for imm in out.get("immediate") or []:
            if isinstance(imm, dict):
                items.append((_t("immediate"), ", ".join(f"{k}: {v}" for k, v in imm.items())))
        return items

    def payments(self, outcome, names) -> list[dict[str, Any]]:
        rows = []
        for tr in (outcome.output.get("final") or {}).get("transfers") or []:
            rows.append({"from": names.get(str(tr.get("from")), tr.get("from")), "to": names.get(str(tr.get("to")), tr.get("to")),
                         "amount": tr.get("amount"), "reason": ", ".join(item_label(f) for f in tr.get("factors") or [])})
        return rows

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return TienGowEntry(data, names=names, initial=initial, prefix="deal", settings=settings)
