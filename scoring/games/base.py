"""The contract between a game and the rest of the app (docs/architecture.md: one engine and one adapter
serve every page, command and PDF).

A :class:`GameAdapter` owns everything game-specific that the other layers need:

- **identity and entrants**: ``key`` (``Tournament.game``), ``label``, whether entrants are
  teams of two paired at a table (:attr:`EntrantKind.TEAMS`, Tai Pan) or individual players seated
  four to a table (:attr:`EntrantKind.PLAYERS`); the ``sides`` a result is kept for (teams NS/EW,
  or four seats) and their labels;
- **rules**: the engine's presets and default preset, validating a tournament's ``rules`` value;
- **records**: the state carried from record to record (Taiwanese dealer and streak, Tien Gow
  banker), evaluating one record (:meth:`GameAdapter.evaluate_record`) and a whole result
  (:meth:`GameAdapter.evaluate`) through the engine, the end rule and ranking points;
- **display**: the record's cells and one-line summary for pages and PDFs, the preview lines,
  the text of the carried state, the audit sentences;
- **entry**: the entry form (an :class:`scoring.games.entry.Entry`) and its template;
- **printing**: the score sheet's columns (:class:`SheetColumn`).

Adapters never import models: they read a tournament's settings through
:class:`TournamentSettings` (any object with ``rules``, ``round_format`` and ``hands_per_round``,
such as a :class:`~scoring.models.Tournament`).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from django.utils.html import conditional_escape
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

import engines
from engines.errors import Collector, RuleViolation, Violation
from scoring.games.statistics import PlayedResult, Statistic, Statistics

__all__ = [
    "FIXED_HANDS",
    "ROUND_FORMATS",
    "TARGET",
    "TIME_LIMIT",
    "WIND_ROUNDS",
    "EntrantKind",
    "Evaluation",
    "GameAdapter",
    "RecordOutcome",
    "RuleViolation",
    "SheetColumn",
    "TournamentSettings",
    "Violation",
]

#: ``Tournament.round_format`` values (docs/tournaments.md, "Round formats"); a game offers those of
#: :attr:`GameAdapter.round_formats`:
#: a match is played to the rules' target score (Tai Pan);
TARGET = "target"
#: a round of a fixed number of records, ``hands_per_round`` of them (hands, deals);
FIXED_HANDS = "fixed_hands"
#: a round of a fixed number of wind rounds, ``hands_per_round`` of them: a table is over when the deal
#: has passed every seat that many times (the adapter's :meth:`GameAdapter.wind_round_done`);
WIND_ROUNDS = "wind_rounds"
#: no end by the rules: a table plays until time is called (the time limit ends it).
TIME_LIMIT = "time_limit"
#: Every round format, in the order the form lists them.
ROUND_FORMATS = (TARGET, FIXED_HANDS, WIND_ROUNDS, TIME_LIMIT)
#: The formats whose ``hands_per_round`` is a count (of records, of wind rounds).
COUNTED_FORMATS = (FIXED_HANDS, WIND_ROUNDS)


#: The violations of :meth:`GameAdapter.check_round_format` (translated by the catalogue).
ROUND_FORMAT_MESSAGES = {
    "unknown": gettext_noop("The round format {format!r} cannot be played in {game}: choose one of its own formats."),
    FIXED_HANDS: gettext_noop("Give the number of hands (deals) per round for this format."),
    WIND_ROUNDS: gettext_noop("Give the number of wind rounds per round for this format."),
    "after_winds": gettext_noop("A record after the end: the table has played its {limit} wind round(s)."),
}


#: The names of the formats without a count (a counted format is named by the adapter).
ROUND_FORMAT_LABELS = {
    TARGET: _("Play to the target score"),
    WIND_ROUNDS: _("A fixed number of wind rounds"),
    TIME_LIMIT: _("Until the time limit (tables end when time is called)"),
}


class EntrantKind(StrEnum):
    """Who a game's tournament registers and how a round is drawn (docs/tournaments.md)."""

    #: Teams of two, paired two teams to a table by the Swiss system (Tai Pan).
    TEAMS = "teams"
    #: Individual players, seated four to a table by score (the four-player games).
    PLAYERS = "players"


class TournamentSettings(Protocol):
    """What an adapter reads of a tournament."""

    rules: Any
    round_format: str
    hands_per_round: int | None


@dataclass(frozen=True)
class RecordOutcome:
    """What one record gives. ``record``: the record as stored (carried state written in);
    ``scores``: points per side (one int per entry of :attr:`GameAdapter.sides`; Tai Pan NS/EW hand
    scores, four-player net results summing to 0); ``output``: the engine's output;
    ``state_after``: the carried state after this record."""

    record: dict[str, Any]
    scores: tuple[int, ...]
    output: dict[str, Any]
    state_after: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Evaluation:
    """A whole result evaluated from its records, in order.

    ``outcomes``: one :class:`RecordOutcome` per record; ``totals``: points per side;
    ``finished``: the result is over (by the game's end rule, the fixed number of records, or the
    time limit); ``ended``: ``"target"`` (finished by the rules), ``"time"`` (ended at the time
    limit) or ``""``; ``winner``: index of the winning side, ``None`` for a draw, an unfinished
    result or a game without winners (four-player); ``points``: ranking points per side (Tai Pan
    match points or victory points once finished, else 0; four-player: the totals);
    ``state``: the carried state after the last record."""

    outcomes: list[RecordOutcome]
    totals: tuple[int, ...]
    finished: bool
    ended: str
    winner: int | None
    points: tuple[int, ...]
    state: dict[str, Any]

    def running(self) -> list[tuple[int, ...]]:
        """Running totals per side after each record (:func:`running_totals`)."""
        return running_totals([outcome.scores for outcome in self.outcomes], len(self.totals))


def running_totals(scores: Iterable[Sequence[int]], sides: int) -> list[tuple[int, ...]]:
    """The running totals per side after each record, from each record's ``scores`` (one number
    per side, ``sides`` of them): the one place they are added up (evaluations, pages, the API,
    PDFs)."""
    out, current = [], (0,) * sides
    for row in scores:
        current = tuple(a + b for a, b in zip(current, row, strict=True))
        out.append(current)
    return out


@dataclass(frozen=True)
class SheetColumn:
    """A column group of the printed score sheet: ``title`` (spans the group) and one sub-heading
    per column (``""`` for a single column), ``width`` in millimetres per column."""

    title: Any
    subheads: tuple[str, ...] = ("",)
    width: float = 12.0


class GameAdapter:
    """Base class of a game's adapter; see the module docstring. Subclasses set the class
    attributes and implement :meth:`evaluate_record`, :meth:`entry`, :meth:`record_cells` and
    :meth:`summary`; the rest has working defaults for games whose result is the sum of
    independent records."""

    #: ``Tournament.game`` value and engine package name (``engines.<engine>``).
    key: str = ""
    engine: str = ""
    label: Any = ""
    entrants: EntrantKind = EntrantKind.PLAYERS
    #: Sides a result is kept for: keys as the records name them (``"NS"``, ``"E"``, ``"0"``).
    sides: tuple[str, ...] = ("E", "S", "W", "N")
    #: What one record is called: ``(singular, plural)``, lazily translated.
    record_noun: tuple[Any, Any] = (_("deal"), _("deals"))
    #: Template that renders the entry's fields inside the entry form (context: ``entry``,
    #: ``adapter``); the default renders every field of every form in order.
    entry_template: str = "games/_fields.html"
    #: What a record's points are called in a preview (``fan``, ``tai``, ...).
    item_unit: Any = _("item")
    #: The game's rules check tool for referees (a module with ``RulesCheckForm``, ``judge`` and
    #: ``picker_rows``), or ``None``.
    rules_check: Any = None
    #: The round formats a tournament of this game may choose (``Tournament.round_format``), the
    #: default first. Every one must be reachable: :data:`TARGET` only for a game whose rules end a
    #: match at a target, :data:`WIND_ROUNDS` only for a game that carries a dealer
    #: (:meth:`wind_round_done`). Default: a fixed number of deals, or until the time limit.
    round_formats: tuple[str, ...] = (FIXED_HANDS, TIME_LIMIT)
    #: The default count of each counted format (records per round; wind rounds per round).
    round_counts: dict[str, int] = {FIXED_HANDS: 16}
    #: The groups of game-specific fields the tournament form shows for this game, beside the
    #: round format (scoring.web.forms.tournament.FIELD_GROUPS names each group's fields):
    #: ``"pairing"`` (how round 1 is paired, same-club avoidance of the Swiss pairing), ``"forfeit"`` (forfeit score and points),
    #: ``"tiebreaks"`` (the tie-breaks of the game's kind of entrant,
    #: ``scoring.standings.player_tiebreaks.tiebreak_registry``), ``"placement"`` (placement points,
    #: four-player games), ``"entry"`` (quick or full entry of deals). Default: none.
    form_groups: tuple[str, ...] = ()
    #: An example of the rules overrides the tournament form shows (a JSON object of one option of
    #: the game's presets, ``'{"target": 1000}'``), or ``""``.
    override_example: str = ""
    #: What one wind round is called (``"wind round"``), for a game offering :data:`WIND_ROUNDS`.
    wind_round_noun: tuple[Any, Any] = (_("wind round"), _("wind rounds"))

    # ------------------------------------------------------------------ sides and seats

    def side_labels(self) -> list[str]:
        """Display label of each side, in :attr:`sides` order (e.g. ``["NS", "EW"]``,
        ``["East", "South", "West", "North"]``)."""
        return [str(s) for s in self.sides]

    def side_headings(self) -> list[str]:
        """Column heads of the sides on a round's page (Tai Pan: "Team NS", "Team EW")."""
        return self.side_labels()

    # ------------------------------------------------------------------ rules

    def presets(self) -> dict[str, dict[str, Any]]:
        """The engine's rules presets: name -> complete option dict (``engines.presets``)."""
        return engines.presets(self.engine or self.key)

    def default_preset(self) -> str:
        """The preset used when a tournament sets no rules (``engines.default_preset``)."""
        return engines.default_preset(self.engine or self.key)

    def resolve_rules(self, raw: Any) -> dict[str, Any]:
        """The effective options of a tournament's ``rules`` value (``None``/``{}``/``""``: the
        default preset). Raises :class:`RuleViolation` (fields ``rules.*``)."""
        if raw in (None, "", {}):
            raw = None
        return engines.resolve_rules(self.engine or self.key, raw)

    def round_format_label(self, round_format: str) -> str:
        """What the form calls ``round_format`` for this game ("A fixed number of deals")."""
        if round_format == FIXED_HANDS:
            return _t("A fixed number of %(records)s") % {"records": self.record_noun[1]}
        return str(ROUND_FORMAT_LABELS.get(round_format, round_format))

    def round_format_text(self, settings: TournamentSettings) -> str:
        """A tournament's round format in a few words for its pages ("8 deals per round", "until
        the time limit")."""
        fmt, count = settings.round_format, settings.hands_per_round
        if fmt in COUNTED_FORMATS and count:
            noun = self.record_noun if fmt == FIXED_HANDS else self.wind_round_noun
            return _t("%(count)s %(noun)s per round") % {"count": count, "noun": noun[0] if count == 1 else noun[1]}
        return self.round_format_label(fmt)

    def default_round_format(self) -> str:
        """The round format a new tournament of this game starts with (the first of
        :attr:`round_formats`)."""
        return self.round_formats[0]

    def fallback_round_format(self) -> str:
        """The format a tournament gets when it names none its game offers (a tournament made by a
        script, the migration of an unreachable ``target``): :data:`TIME_LIMIT` when offered
        (tables end when time is called, as before formats were per game), else the default."""
        return TIME_LIMIT if TIME_LIMIT in self.round_formats else self.default_round_format()

    def default_round_count(self, round_format: str) -> int | None:
        """The default ``hands_per_round`` of ``round_format`` (``None`` for a format without a count)."""
        return self.round_counts.get(round_format) if round_format in COUNTED_FORMATS else None

    def check_round_format(self, round_format: str, count: int | None) -> None:
        """Check a tournament's ``round_format`` and its count (``hands_per_round``) against this
        game: the format must be one of :attr:`round_formats` (so its end can be reached) and a
        counted format (:data:`COUNTED_FORMATS`) needs a count of at least 1. The one rule of the
        form, the tournament JSON import and the data migration. Raises :class:`RuleViolation`
        with fields ``round_format`` and ``hands_per_round``."""
        errors = Collector()
        if round_format not in self.round_formats:
            errors.add("round_format", ROUND_FORMAT_MESSAGES["unknown"], format=round_format, game=str(self.label))
        elif round_format in COUNTED_FORMATS and not count:
            errors.add("hands_per_round", ROUND_FORMAT_MESSAGES[round_format])
        errors.raise_if_any()

    def wind_round_done(self, before: dict[str, Any], after: dict[str, Any]) -> bool:
        """True when the record played in carried state ``before`` (leaving ``after``) completed a
        wind round: the deal passed from the last seat back to the first. Only a game offering
        :data:`WIND_ROUNDS` says it; the default: never."""
        return False

    def preset_summary(self, name: str) -> str:
        """One line describing preset ``name`` for the organiser (e.g. its target); ``""``."""
        return ""

    @staticmethod
    def with_rules(data: dict[str, Any], rules: Any) -> dict[str, Any]:
        """``data`` plus ``"rules"`` when the tournament sets rules (else the engine default)."""
        if rules not in (None, {}, ""):
            return {**data, "rules": rules}
        return data

    # ------------------------------------------------------------------ records

    def clean_record(self, record: Any) -> dict[str, Any]:
        """The canonical stored form of a record (fixed key order, so an export is byte-identical
        however the database kept the JSON). Raises :class:`RuleViolation` for a non-object."""
        if not isinstance(record, dict):
            raise RuleViolation([Violation("", "A record must be a JSON object.")])
        return dict(record)

    def initial_state(self) -> dict[str, Any]:
        """The carried state before a result's first record (``{}`` when nothing is carried)."""
        return {}

    def record_limit(self, settings: TournamentSettings) -> int | None:
        """Records per result in the fixed-hands round format (docs/tournaments.md: "N hands per
        round"), else ``None``."""
        if settings.round_format == FIXED_HANDS and settings.hands_per_round:
            return int(settings.hands_per_round)
        return None

    def bye_points(self, settings: TournamentSettings) -> int:
        """The ranking points a team takes from a bye (a match without an opponent: team games
        only, :class:`~scoring.models.Match`). Every team game says it; raises
        ``NotImplementedError`` otherwise."""
        raise NotImplementedError(f"{type(self).__name__} is a team game: give bye_points(settings)")

    def evaluate_record(self, record: Any, state: dict[str, Any], settings: TournamentSettings) -> RecordOutcome:
        """Check and score one record with the carried ``state`` before it. Violations name the
        record's own fields (``card_points.NS``). Raises :class:`RuleViolation`."""
        raise NotImplementedError

    def evaluate(self, records: Sequence[dict[str, Any]], settings: TournamentSettings, *,
                 ended_at_time: bool = False) -> Evaluation:
        """Evaluate a whole result from its ``records`` in order. Default: records are independent
        apart from the carried state; the result is finished after :meth:`record_limit` records, in
        the :data:`WIND_ROUNDS` format once ``hands_per_round`` wind rounds are complete
        (:meth:`wind_round_done`), or when ended at the time limit; points are the totals; no winner. Violations of a later
        record are prefixed with its position (``records[3].…``). Raises :class:`RuleViolation`."""
        limit = self.record_limit(settings)
        winds = int(settings.hands_per_round or 0) if settings.round_format == WIND_ROUNDS else 0
        state = self.initial_state()
        outcomes: list[RecordOutcome] = []
        errors = Collector()
        done = 0  # wind rounds completed
        for i, record in enumerate(records):
            if (limit is not None and i >= limit) or (winds and done >= winds):
                if limit is not None:
                    errors.add(f"records[{i}]", "A record after the end: this format plays {limit} per round.", limit=limit)
                else:
                    errors.add(f"records[{i}]", ROUND_FORMAT_MESSAGES["after_winds"], limit=winds)
                continue
            try:
                outcome = self.evaluate_record(record, state, settings)
            except RuleViolation as exc:
                errors.extend(exc, prefix=f"records[{i}]")
                break
            outcomes.append(outcome)
            done += self.wind_round_done(state, outcome.state_after)
            state = outcome.state_after
        errors.raise_if_any()
        totals = tuple(sum(o.scores[k] for o in outcomes) for k in range(len(self.sides)))
        finished = (limit is not None and len(outcomes) >= limit) or bool(winds and done >= winds)
        ended = "target" if finished else ""
        if not finished and ended_at_time:
            finished, ended = True, "time"
        return Evaluation(outcomes, totals, finished, ended, None, totals, state)

    # ------------------------------------------------------------------ display

    def record_headers(self) -> list[Any]:
        """Column heads of a record's cells on pages (:meth:`record_cells`)."""
        return [_("Description")]

    def record_cells(self, record: dict[str, Any]) -> list[Any]:
        """What the referee entered for one record, as cells under :meth:`record_headers`."""
        return [self.summary(record)]

    def summary(self, record: dict[str, Any]) -> str:
        """One translated line describing a stored record (pages, audit, PDFs)."""
        raise NotImplementedError

    def summary_html(self, record: dict[str, Any]) -> Any:
        """:meth:`summary` as HTML for the result pages (escaped; mahjong games show the tiles as
        tile faces)."""
        return conditional_escape(self.summary(record))

    #: What ending a result at the time limit decides (shown next to the button).
    time_limit_rule: Any = _("The totals so far are the result.")
    #: What a finished result's records may still become (under its records, ``%(records)s``: the
    #: record noun, plural): ended by the round format, and ended at the time limit.
    finished_rule: Any = _("Finished. Its %(records)s can still be edited or deleted until the result is confirmed; the "
                           "result is then rebuilt from them (it may become unfinished again).")
    time_ended_rule: Any = _("Ended at the time limit. Its %(records)s can still be edited or deleted until the result is "
                             "confirmed; the result is then rebuilt from them. To add more, resume play first.")

    def ended_text(self, ended: str, settings: TournamentSettings) -> str:
        """What ended a finished result (``ended``: ``"target"`` or ``"time"``, see
        :class:`Evaluation`), for its status line: the time limit, or every record of the round
        format played ("All deals of the round played"); ``""`` when it is not ended."""
        if ended == "time":
            return str(_("Time limit"))
        if ended and settings.round_format == WIND_ROUNDS:
            return str(_("All wind rounds of the round played"))
        return str(_("All deals of the round played")) if ended else ""

    def state_text(self, state: dict[str, Any]) -> str:
        """The carried state as a translated line (``"Dealer East, streak 1, ..."``), or ``""``."""
        return ""

    def preview_items(self, outcome: RecordOutcome, names: dict[str, str]) -> list[tuple[str, Any]]:
        """Scoring items of one record's engine output (fan, tai, columns) as ``(label, value)``;
        ``names``: side key -> player or team name."""
        return []

    def payments(self, outcome: RecordOutcome, names: dict[str, str]) -> list[dict[str, Any]]:
        """Payments of one record as ``[{"from", "to", "amount", "reason"}]`` with names."""
        return []

    def player_statistics(self, results: Sequence[PlayedResult]) -> Statistics:
        """A player's statistics over ``results`` (:class:`~scoring.games.statistics.PlayedResult`,
        chronological), pure Python over the stored records: the one place each game's numbers are
        computed for the profile page and the API (docs/players.md "Player profiles"). Default:
        the records played."""
        return Statistics([Statistic("records", self.record_noun[1], sum(len(r.records) for r in results))])

    def audit_sentence(self, action: str, number: Any) -> str:
        """The audit line of a change to record ``number`` (``action``: create, update, delete,
        restore), e.g. "Hand 5 deleted"; word order is the translation's."""
        raise NotImplementedError

    # ------------------------------------------------------------------ entry

    def entry(self, data=None, *, names: dict[str, str] | None = None, initial: dict[str, Any] | None = None,
              settings: TournamentSettings | None = None):
        """The entry form of one record (an :class:`scoring.games.entry.Entry`), bound to POST
        ``data`` when given; ``names``: side key -> name; ``initial``: a stored record to edit."""
        raise NotImplementedError

    # ------------------------------------------------------------------ printing

    def sheet_columns(self) -> list[SheetColumn]:
        """Column groups of a record on the printed score sheet, before the per-side columns."""
        return [SheetColumn(_("Description"), width=50)]

    def sheet_cells(self, record: dict[str, Any]) -> list[str]:
        """One cell per column of :meth:`sheet_columns` for a stored record."""
        return [self.summary(record)]

    #: Lines to write in on each empty record row of the printed sheet (a deal with several wins
    #: needs two).
    sheet_row_lines: int = 1

    def sheet_legend(self) -> str:
        """A line under the printed records explaining abbreviations (``""`` for none)."""
        return ""

    def sheet_rows(self, settings: TournamentSettings) -> int:
        """Record rows printed on an empty sheet."""
        return self.record_limit(settings) or 16
