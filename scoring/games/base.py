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
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import Collector, RuleViolation, Violation

__all__ = [
    "FIXED_HANDS",
    "EntrantKind",
    "Evaluation",
    "GameAdapter",
    "RecordOutcome",
    "RuleViolation",
    "SheetColumn",
    "TournamentSettings",
    "Violation",
]

#: ``Tournament.round_format`` value of a round of a fixed number of records (docs/tournaments.md).
FIXED_HANDS = "fixed_hands"


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
        apart from the carried state; the result is finished after :meth:`record_limit` records or
        when ended at the time limit; points are the totals; no winner. Violations of a later
        record are prefixed with its position (``records[3].…``). Raises :class:`RuleViolation`."""
        limit = self.record_limit(settings)
        state = self.initial_state()
        outcomes: list[RecordOutcome] = []
        errors = Collector()
        for i, record in enumerate(records):
            if limit is not None and i >= limit:
                errors.add(f"records[{i}]", "A record after the end: this format plays {limit} per round.", limit=limit)
                continue
            try:
                outcome = self.evaluate_record(record, state, settings)
            except RuleViolation as exc:
                errors.extend(exc, prefix=f"records[{i}]")
                break
            outcomes.append(outcome)
            state = outcome.state_after
        errors.raise_if_any()
        totals = tuple(sum(o.scores[k] for o in outcomes) for k in range(len(self.sides)))
        finished = limit is not None and len(outcomes) >= limit
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
