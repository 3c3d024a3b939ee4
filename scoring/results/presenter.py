"""How a result is shown: its records as rows with their scores and running totals, its outcome
and the readable values of its audit trail. The one presenter of pages, the API and the PDF
score sheets (nothing is scored here: the scores are the stored, engine-derived ones; the running
totals are added up by :func:`scoring.games.base.running_totals`)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext as _

from scoring.games.base import GameAdapter, RuleViolation, running_totals
from scoring.kinds import ResultKind, kind_of
from scoring.models import ResultContainer, ResultRecord


@dataclass(frozen=True)
class RecordRow:
    """One stored record as shown: ``rec`` (the model row), ``number``, ``record`` (what was
    entered, the engine's input), ``scores`` and ``running`` (totals after it), one number per
    side in ``adapter.sides`` order."""

    rec: ResultRecord
    adapter: GameAdapter
    scores: tuple[int, ...]
    running: tuple[int, ...]

    @property
    def number(self) -> int:
        """The record's number in its result (1..n)."""
        return self.rec.number

    @property
    def record(self) -> dict[str, Any]:
        """What was entered (as evaluated and stored: the engine's input)."""
        return self.rec.record

    @cached_property
    def summary(self) -> str:
        """One translated line describing the record (:meth:`GameAdapter.summary`)."""
        return str(self.adapter.summary(self.rec.record))

    @cached_property
    def summary_html(self) -> Any:
        """The summary as HTML for pages (:meth:`GameAdapter.summary_html`: tiles as tile faces)."""
        return self.adapter.summary_html(self.rec.record)

    @cached_property
    def cells(self) -> list[Any]:
        """What was entered, as cells under ``adapter.record_headers()`` (pages)."""
        return self.adapter.record_cells(self.rec.record)

    @cached_property
    def sheet_cells(self) -> list[Any]:
        """What was entered, as cells under ``adapter.sheet_columns()`` (the printed sheet)."""
        return self.adapter.sheet_cells(self.rec.record)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """``(score, running total)`` per side."""
        return list(zip(self.scores, self.running, strict=True))


def record_rows(kind: ResultKind, adapter: GameAdapter, records: Iterable[ResultRecord]) -> list[RecordRow]:
    """``records`` (stored, in play order) as :class:`RecordRow`\\ s with their running totals."""
    records = list(records)
    scores = [tuple(kind.scores(rec)) for rec in records]
    running = running_totals(scores, len(adapter.sides))
    return [RecordRow(rec, adapter, s, r) for rec, s, r in zip(records, scores, running, strict=True)]


def rows_of(container: ResultContainer, records: Iterable[ResultRecord] | None = None) -> list[RecordRow]:
    """The record rows of ``container`` (its stored records, read here unless given)."""
    kind = kind_of(container)
    adapter = container.round.tournament.adapter
    return record_rows(kind, adapter, kind.records(container) if records is None else records)


# --------------------------------------------------------------------------- verification per hand

#: A record's verification state (verification per hand): acknowledged at its revision, pending,
#: or disagreed with (an open disagreement of a side, with a referee).
ACKNOWLEDGED, PENDING, DISPUTED = "acknowledged", "pending", "disputed"


def verification_state(rec: ResultRecord, disputed: set[int]) -> str:
    """``rec``'s verification state; ``disputed``: the ids of records with an open disagreement
    (:attr:`scoring.results.result.ResultSheet.open_record_disputes`)."""
    if rec.pk in disputed:
        return DISPUTED
    return ACKNOWLEDGED if rec.is_acknowledged else PENDING


def verification_label(state: str) -> str:
    """The state in words, for pages and the PDF."""
    return {ACKNOWLEDGED: _("Acknowledged"), PENDING: _("Not yet acknowledged"),
            DISPUTED: _("Disagreed: with a referee")}[state]


# --------------------------------------------------------------------------- outcome


def winner_name(container: ResultContainer) -> str:
    """The winning side's name of a finished result, ``""`` for a draw or none."""
    kind = kind_of(container)
    index = kind.winner_index(container)
    if index is None:
        return ""
    return kind.sides(container, container.round.tournament.adapter)[index]["name"]


def outcome_text(container: ResultContainer) -> str:
    """The outcome of a finished result in words ("Winner: Team Anna", "Draw"), ``""`` when
    unfinished, a bye, or when the kind names no winner (a four-player table)."""
    kind = kind_of(container)
    if not kind.has_winner or not container.is_finished or kind.is_bye(container):
        return ""
    name = winner_name(container)
    return _("Winner: %(team)s") % {"team": name} if name else _("Draw")


def end_outcome(container: ResultContainer) -> str:
    """What ending ``container`` at the time limit now would decide, in words (the adapter's
    evaluation with the time limit): "Team A wins 340 – 220", "A draw: 300 – 300", or the totals
    of a four-player table; ``""`` when its records break the rules."""
    kind = kind_of(container)
    tournament = container.round.tournament
    adapter = tournament.adapter
    try:
        evaluation = adapter.evaluate([r.record for r in kind.records(container)], tournament, ended_at_time=True)
    except RuleViolation:
        return ""
    sides = kind.sides(container, adapter)
    scores = " – ".join(str(t) for t in evaluation.totals)
    if kind.has_winner:
        if evaluation.winner is None:
            return _("It ends in a draw: %(scores)s.") % {"scores": scores}
        return _("%(side)s wins: %(scores)s.") % {"side": sides[evaluation.winner]["name"], "scores": scores}
    parts = ", ".join(f"{side['label']} {total}" for side, total in zip(sides, evaluation.totals, strict=False))
    return _("The totals so far are the result: %(totals)s.") % {"totals": parts}


# --------------------------------------------------------------------------- audit values


def totals_text(adapter: GameAdapter, totals) -> str:
    """Totals per side with the side labels: ``"NS 400 / EW 300"``."""
    return " / ".join(f"{label} {t}" for label, t in zip(adapter.side_labels(), totals or [], strict=False))


def record_text(kind: ResultKind, adapter: GameAdapter, snapshot: dict[str, Any] | None) -> str:
    """A record's audit value (:meth:`ResultKind.record_snapshot`) in words: the scores per side and
    the record's summary."""
    if not snapshot:
        return ""
    head = totals_text(adapter, kind.snapshot_scores(snapshot))
    summary = adapter.summary(snapshot.get("record") or {})
    return f"{head} ({summary})" if summary else head


def result_text(kind: ResultKind, adapter: GameAdapter, snapshot: dict[str, Any] | None) -> str:
    """A result's audit value (:meth:`ResultKind.snapshot`) in words: status, totals, winner and
    match points where the kind has them, and an end at the time limit."""
    if not snapshot:
        return ""
    status = snapshot.get("status")
    parts = [str(ResultContainer.Status(status).label) if status in ResultContainer.Status.values else str(status or "")]
    totals = kind.snapshot_totals(snapshot)
    if totals is not None:
        parts.append(totals_text(adapter, totals))
    if kind.has_winner and totals is not None and status in ("finished", "confirmed"):
        parts.append(_("winner %(team)s") % {"team": snapshot["winner"]} if snapshot.get("winner") else _("draw"))
        if "points_ns" in snapshot:
            parts.append(_("match points %(ns)s – %(ew)s") % {"ns": snapshot["points_ns"], "ew": snapshot.get("points_ew", 0)})
    if snapshot.get("ended") == ResultContainer.Ended.TIME:
        parts.append(str(ResultContainer.Ended.TIME.label))
    return ", ".join(p for p in parts if p)
