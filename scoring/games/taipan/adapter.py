"""Tai Pan (NSKT rules and variants): teams of two, a match NS against EW made of hands
(docs/engines/taipan.md and docs/tournaments.md).

Records are the engine's ``score`` input ``{"calls", "first_out", "double_victory",
"card_points"}`` (the tournament's rules apply, a record never carries its own). A match is
evaluated by the engine's ``match`` command (its end rule: a team at or above the target with a
higher total wins; equal totals play on).

Round formats (docs/tournaments.md):

- ``target``: match points win 2, draw 1, loss 0 once finished; ended at the time limit the higher
  total wins and equal totals are a draw.
- ``fixed_hands``: exactly ``hands_per_round`` hands; victory points per hand as in the German
  championships: the higher hand score 2 (equal 1 each), a double victory 3 for its team (0 for
  the other); the match's points are the summed victory points, more victory points win.
- A bye is a win with 0:0 (``fixed_hands``: 2 victory points per hand).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

import engines
from engines.errors import Collector, RuleViolation, Violation
from scoring.games.base import FIXED_HANDS, TARGET, EntrantKind, Evaluation, GameAdapter, RecordOutcome, SheetColumn
from scoring.games.statistics import PlayedResult, Series, Statistic, Statistics, average
from scoring.games.taipan import rules_check
from scoring.games.taipan.forms import SEATS, TaiPanEntry

TEAMS = ("NS", "EW")
#: Record keys of a stored hand (the engine's ``score`` input without ``rules``).
RECORD_KEYS = ("calls", "first_out", "double_victory", "card_points")

#: Match points per match (docs/tournaments.md, NSKT ranking).
WIN_POINTS, DRAW_POINTS, LOSS_POINTS = 2, 1, 0
#: Victory points per hand in the ``fixed_hands`` format (German championships).
HAND_WIN_VP, HAND_DRAW_VP, DOUBLE_VICTORY_VP = 2, 1, 3

CALL_SHORT = {"tai_pan": _("TP"), "grand_tai_pan": _("GTP")}
CALL_NAMES = {"tai_pan": _("Tai Pan"), "grand_tai_pan": _("Grand Tai Pan")}
AUDIT_SENTENCES = {
    "create": gettext_noop("Hand %(number)s entered"),
    "update": gettext_noop("Hand %(number)s changed"),
    "delete": gettext_noop("Hand %(number)s deleted"),
    "restore": gettext_noop("Hand %(number)s restored"),
    "acknowledge": gettext_noop("Hand %(number)s acknowledged"),
    "dispute": gettext_noop("Hand %(number)s disagreed with"),
}


def clean_record(record: Any) -> dict[str, Any]:
    """The stored form of a hand record: the ``score`` input keys (missing ones ``None``, calls
    ``{}``), ``rules`` dropped, any other key kept so the engine refuses it. Raises
    :class:`RuleViolation` when ``record`` is not an object."""
    if not isinstance(record, dict):
        raise RuleViolation([Violation("", "A hand record must be a JSON object.")])
    out = {key: record.get(key) for key in RECORD_KEYS}
    if out["calls"] is None:
        out["calls"] = {}
    for key, value in record.items():
        if key not in out and key != "rules":
            out[key] = value
    return out


def _team_total(value: Any) -> int:
    return int(value["total"]) if isinstance(value, dict) else int(value)


def hand_victory_points(record: dict[str, Any], ns: int, ew: int) -> tuple[int, int]:
    """Victory points (NS, EW) of one hand in the ``fixed_hands`` format: a double victory 3 for
    that team (0 for the other), otherwise the higher hand score 2, equal 1 each."""
    dv = record.get("double_victory")
    if dv == "NS":
        return DOUBLE_VICTORY_VP, 0
    if dv == "EW":
        return 0, DOUBLE_VICTORY_VP
    if ns > ew:
        return HAND_WIN_VP, 0
    if ew > ns:
        return 0, HAND_WIN_VP
    return HAND_DRAW_VP, HAND_DRAW_VP


class TaiPan(GameAdapter):
    """The Tai Pan adapter (engine ``taipan``); sides are the teams ``NS`` and ``EW``."""

    key = engine = "taipan"
    label = _("Tai Pan")
    entrants = EntrantKind.TEAMS
    sides = TEAMS
    record_noun = (_("hand"), _("hands"))
    entry_template = "games/taipan/entry.html"
    item_unit = _("points")
    rules_check = rules_check
    time_limit_rule = _("The higher total wins; equal totals are a draw.")
    finished_rule = _("Finished. Its %(records)s can still be edited or deleted until the result is confirmed; the result "
                      "is then rebuilt from them (it may become unfinished, or the other side may win).")
    time_ended_rule = _("Ended at the time limit. Its %(records)s can still be edited or deleted until the result is "
                        "confirmed; the result is then rebuilt from them (the totals decide again: the other side may win, "
                        "or it may be a draw). To add more, resume play first.")

    def ended_text(self, ended, settings) -> str:
        """"Target reached" for a match played to the target, "All hands of the round played" in
        the fixed-hands format, "Time limit"; ``""`` when not ended."""
        if ended == "target" and settings.round_format == FIXED_HANDS:
            return str(_("All hands of the round played"))
        if ended == "target":
            return str(_("Target reached"))
        return super().ended_text(ended, settings)
    #: Play to the rules' target (NSKT 800), or a fixed number of hands (German championships).
    round_formats = (TARGET, FIXED_HANDS)
    round_counts: dict[str, int] = {}
    form_groups = ("pairing", "forfeit", "tiebreaks")
    override_example = '{"target": 1000}'

    # ------------------------------------------------------------------ rules

    def target(self, settings) -> int | None:
        """The match target of a tournament's rules (NSKT 800), ``None`` when they do not resolve."""
        try:
            return int(self.resolve_rules(settings.rules)["target"])
        except (RuleViolation, KeyError, TypeError, ValueError):
            return None

    def preset_summary(self, name: str) -> str:
        options = self.presets().get(name) or {}
        return _t("to %(target)s points") % {"target": options["target"]} if "target" in options else ""

    # ------------------------------------------------------------------ records

    def clean_record(self, record) -> dict[str, Any]:
        """:func:`clean_record` with seats (N, E, S, W) and teams (NS, EW) in a fixed order."""
        rec = clean_record(record)
        calls = rec.get("calls") or {}
        if isinstance(calls, dict):
            rec["calls"] = {s: calls[s] for s in SEATS if s in calls} | {k: v for k, v in calls.items() if k not in SEATS}
        cp = rec.get("card_points")
        if isinstance(cp, dict):
            rec["card_points"] = {k: cp[k] for k in TEAMS if k in cp} | {k: v for k, v in cp.items() if k not in TEAMS}
        return rec

    def record_from_totals(self, calls: dict[str, str], totals: dict[str, int]) -> dict[str, Any]:
        """A hand record from a score sheet that only records the totals: the engine's
        ``check-totals`` first explanation (first out, double victory, card points). Raises
        :class:`RuleViolation` when no finishing situation gives those totals."""
        out = engines.run("taipan", "check-totals", {"calls": calls, "totals": totals})
        first = out["explanations"][0]
        return {"calls": calls, "first_out": first["first_out"], "double_victory": first["double_victory"],
                "card_points": first["card_points"]}

    def evaluate_record(self, record, state, settings) -> RecordOutcome:
        """Engine ``score`` of one hand (fields ``card_points.NS`` ...)."""
        clean = self.clean_record(record)
        out = engines.run("taipan", "score", self.with_rules(clean, settings.rules))
        return RecordOutcome(clean, (_team_total(out["NS"]), _team_total(out["EW"])), out, {})

    def evaluate(self, records: Sequence[dict[str, Any]], settings, *, ended_at_time: bool = False) -> Evaluation:
        """The whole match (module docstring). Violations are prefixed ``hands[i]``."""
        records = [self.clean_record(r) for r in records]
        if settings.round_format == FIXED_HANDS:
            return self._evaluate_fixed(records, settings, ended_at_time)
        outcomes: list[RecordOutcome] = []
        totals = (0, 0)
        finished, winner_key = False, None
        if records:
            out = engines.run("taipan", "match", self.with_rules({"hands": records}, settings.rules))
            for record, entry in zip(records, out["hands"], strict=True):
                outcomes.append(RecordOutcome(record, (_team_total(entry["NS"]), _team_total(entry["EW"])), entry, {}))
            totals = (int(out["totals"]["NS"]), int(out["totals"]["EW"]))
            finished, winner_key = bool(out.get("finished")), out.get("winner")
        ended = "target" if finished else ""
        winner = TEAMS.index(winner_key) if winner_key in TEAMS else None
        if not finished and ended_at_time:
            finished, ended = True, "time"
            winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None
        points = (0, 0)
        if finished:
            if winner is None:
                points = (DRAW_POINTS, DRAW_POINTS)
            else:
                points = (WIN_POINTS, LOSS_POINTS) if winner == 0 else (LOSS_POINTS, WIN_POINTS)
        return Evaluation(outcomes, totals, finished, ended, winner, points, {})

    def _evaluate_fixed(self, records, settings, ended_at_time: bool) -> Evaluation:
        limit = self.record_limit(settings) or 0
        errors = Collector()
        outcomes: list[RecordOutcome] = []
        vp = [0, 0]
        for i, record in enumerate(records):
            if limit and i >= limit:
                errors.add(f"hands[{i}]", "A hand after the match finished: this format plays {limit} hands.", limit=limit)
                continue
            try:
                outcome = self.evaluate_record(record, {}, settings)
            except RuleViolation as exc:
                errors.extend(exc, prefix=f"hands[{i}]")
                continue
            hv = hand_victory_points(record, *outcome.scores)
            vp = [vp[0] + hv[0], vp[1] + hv[1]]
            outcomes.append(outcome)
        errors.raise_if_any()
        totals = (sum(o.scores[0] for o in outcomes), sum(o.scores[1] for o in outcomes))
        finished = bool(limit) and len(records) >= limit
        ended = "target" if finished else ""
        if not finished and ended_at_time:
            finished, ended = True, "time"
        winner = None
        if finished:
            winner = 0 if vp[0] > vp[1] else 1 if vp[1] > vp[0] else None
        points = (vp[0], vp[1]) if finished else (0, 0)
        return Evaluation(outcomes, totals, finished, ended, winner, points, {})

    def bye_points(self, settings) -> int:
        """Ranking points of a bye: a win (2); ``fixed_hands``: 2 victory points per hand."""
        if settings.round_format == FIXED_HANDS:
            return HAND_WIN_VP * (settings.hands_per_round or 0)
        return WIN_POINTS

    # ------------------------------------------------------------------ display

    def side_labels(self) -> list[str]:
        return list(TEAMS)

    def side_headings(self) -> list[str]:
        return [_t("Team NS"), _t("Team EW")]

    def record_headers(self) -> list[Any]:
        return ["N", "E", "S", "W", _("First out"), _("Double victory"), _("Card points NS"), _("Card points EW")]

    def record_cells(self, record) -> list[Any]:
        calls = record.get("calls") or {}
        cp = record.get("card_points") or {}
        return [
            *(str(CALL_SHORT[calls[s]]) if calls.get(s) in CALL_SHORT else "" for s in SEATS),
            record.get("first_out") or "",
            record.get("double_victory") or "",
            cp.get("NS", ""),
            cp.get("EW", ""),
        ]

    def summary(self, record) -> str:
        """``"card points 75 / 25, N Tai Pan, first out N"``."""
        parts = []
        cp = record.get("card_points") or {}
        if cp:
            parts.append(_t("card points %(ns)s / %(ew)s") % {"ns": cp.get("NS", "?"), "ew": cp.get("EW", "?")})
        for seat in SEATS:
            call = (record.get("calls") or {}).get(seat)
            if call:
                parts.append(f"{seat} {CALL_NAMES.get(call, call)}")
        if record.get("double_victory"):
            parts.append(_t("double victory %(team)s") % {"team": record["double_victory"]})
        if record.get("first_out"):
            parts.append(_t("first out %(seat)s") % {"seat": record["first_out"]})
        return ", ".join(str(p) for p in parts)

    def preview_items(self, outcome, names):
        out = outcome.output
        rows = []
        for key, label in (("card_points", _("Card points")), ("double_victory", _("Double victory")), ("calls", _("Calls"))):
            rows.append((str(label), " / ".join(str((out.get(t) or {}).get(key) or 0) for t in TEAMS)))
        return rows

    def player_statistics(self, results: Sequence[PlayedResult]) -> Statistics:
        """A player's Tai Pan numbers (``result.seat``: N, E, S or W; ``result.side``: the team,
        NS 0 / EW 1): hands played; the player's own Tai Pan and Grand Tai Pan calls, made when
        the caller went out first (rules: a call succeeds when the caller is first out); the
        team's double victories; the team's average card points per hand without a double
        victory (either team's: none are counted then); the team's match points per finished
        match, chronologically (summed: ``match_points``)."""
        hands = made_dv = card_sum = card_hands = 0
        calls = {"tai_pan": [0, 0], "grand_tai_pan": [0, 0]}
        labels, groups, points = [], [], []
        for result in results:
            team = TEAMS[result.side]
            for record in result.records:
                hands += 1
                call = (record.get("calls") or {}).get(result.seat)
                if call in calls:
                    calls[call][0] += 1
                    calls[call][1] += record.get("first_out") == result.seat
                dv = record.get("double_victory")
                made_dv += dv == team
                cp = record.get("card_points") or {}
                if not dv and isinstance(cp.get(team), int):
                    card_sum, card_hands = card_sum + cp[team], card_hands + 1
            if result.finished and result.points is not None:
                labels.append(result.label)
                groups.append(result.group)
                points.append(result.points)
        items = [
            Statistic("hands", _("Hands played"), hands),
            Statistic("tai_pan_calls", _("Tai Pan calls"), calls["tai_pan"][0]),
            Statistic("tai_pan_made", _("Tai Pan calls made"), calls["tai_pan"][1]),
            Statistic("grand_tai_pan_calls", _("Grand Tai Pan calls"), calls["grand_tai_pan"][0]),
            Statistic("grand_tai_pan_made", _("Grand Tai Pan calls made"), calls["grand_tai_pan"][1]),
            Statistic("double_victories", _("Double victories (team)"), made_dv),
            Statistic("average_card_points", _("Average card points per hand (team, without double victories)"),
                      average(card_sum, card_hands)),
            Statistic("matches", _("Finished matches"), len(points)),
            Statistic("match_points", _("Match points"), sum(points)),
        ]
        charts = [
            Series("match_points", _("Match points per match"), "bars", labels, points, groups),
            Series("calls", _("Calls made and succeeded"), "bars",
                   [str(_("TP called")), str(_("TP made")), str(_("GTP called")), str(_("GTP made"))],
                   [*calls["tai_pan"], *calls["grand_tai_pan"]]),
        ]
        return Statistics(items, charts)

    def audit_sentence(self, action, number) -> str:
        template = AUDIT_SENTENCES.get(action)
        return _t(template) % {"number": number} if template else ""

    # ------------------------------------------------------------------ entry

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return TaiPanEntry(data, names=names, initial=initial, prefix=None, settings=settings)

    # ------------------------------------------------------------------ printing

    def sheet_columns(self) -> list[SheetColumn]:
        return [
            SheetColumn(_("Calls"), ("N", "E", "S", "W"), 11),
            SheetColumn(_("First out"), ("",), 15),
            SheetColumn(_("Double victory"), ("",), 15),
            SheetColumn(_("Card points"), ("NS", "EW"), 15),
        ]

    def sheet_cells(self, record) -> list[str]:
        calls = record.get("calls") or {}
        cp = record.get("card_points") or {}
        return [*(str(CALL_SHORT.get(calls.get(s), "")) for s in SEATS), record.get("first_out") or "",
                record.get("double_victory") or "", str(cp.get("NS", "")), str(cp.get("EW", ""))]

    def sheet_legend(self) -> str:
        return _t("Calls: TP = Tai Pan, GTP = Grand Tai Pan. First out: N/E/S/W. Double victory: NS/EW (no card points then). "
                  "Card points NS + EW = 100.")

    def sheet_rows(self, settings) -> int:
        return self.record_limit(settings) or 20
