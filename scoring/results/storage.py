"""Where a result's derived numbers are stored: the only part of the result lifecycle that differs
between a Tai Pan :class:`~scoring.models.Match` (two teams, hands with NS/EW scores, match totals,
match points and a winner) and a four-player :class:`~scoring.models.Table` (four seats, deals
with a net result per seat, seat totals and the carried state).

A :class:`Storage` reads and writes those columns from an :class:`~scoring.games.base.Evaluation`;
every rule (who, when, locks, versions, audit) is decided once in :mod:`scoring.results.sheet`.
"""
from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games.base import EntrantKind, Evaluation, GameAdapter
from scoring.models import Deal, Hand, Match, ResultContainer, ResultRecord, Table, TableSeat


class Storage:
    """Storage of one kind of result container; see the module docstring."""

    container_model: type[ResultContainer]
    record_model: type[ResultRecord]
    #: Name of the record's foreign key to its container, and the reverse accessor.
    record_fk: str = ""
    records_name: str = ""
    #: ``AuditEntry.object_type`` of the container and of its records.
    container_type: str = ""
    record_type: str = ""
    #: The round's reverse accessor of these containers (``round.matches``, ``round.tables``).
    round_related: str = ""
    #: The container's field holding its table number in the round.
    number_field: str = ""
    #: What one container is called ("match", "table").
    noun: Any = ""

    def queryset(self) -> QuerySet:
        """Containers with everything a result page or the sheet reads (round, tournament, sides)."""
        raise NotImplementedError

    def records(self, container: ResultContainer) -> list[ResultRecord]:
        """The container's records in play order."""
        return list(getattr(container, self.records_name).order_by("number"))

    def names(self, container: ResultContainer, adapter: GameAdapter) -> dict[str, str]:
        """Side key (``adapter.sides``) -> the name shown for it, and for Tai Pan also each seat
        N/E/S/W -> its player (entry labels)."""
        raise NotImplementedError

    def is_bye(self, container: ResultContainer) -> bool:
        """True for a Tai Pan bye (no opponent, no records, no confirmation needed)."""
        return False

    def new_record(self, container: ResultContainer, number: int, record: dict[str, Any], scores: tuple[int, ...], user,
                   submission: str | None = None) -> ResultRecord:
        """Create record ``number`` with its derived ``scores`` (and the entry form's idempotency
        key ``submission``, see :func:`scoring.results.sheet.add_record`)."""
        raise NotImplementedError

    def set_scores(self, rec: ResultRecord, record: dict[str, Any], scores: tuple[int, ...]) -> bool:
        """Write ``record`` (as evaluated) and its derived ``scores`` onto ``rec``; True when
        something changed (the caller saves)."""
        raise NotImplementedError

    def apply(self, container: ResultContainer, evaluation: Evaluation, adapter: GameAdapter, settings) -> None:
        """Write the container's derived columns from ``evaluation`` (not its status)."""
        raise NotImplementedError

    def totals(self, container: ResultContainer) -> list[int]:
        """The stored totals per side (what a confirmation confirms)."""
        raise NotImplementedError

    def confirmation_totals(self, container: ResultContainer) -> Any:
        """The totals as kept on a :class:`~scoring.models.Confirmation`."""
        return self.totals(container)

    def record_snapshot(self, rec: ResultRecord) -> dict[str, Any]:
        """Audit value of a record."""
        raise NotImplementedError

    def scores(self, rec: ResultRecord) -> tuple[int, ...]:
        """A stored record's derived scores per side."""
        raise NotImplementedError

    def number(self, container: ResultContainer) -> int:
        """The container's table number in its round."""
        raise NotImplementedError

    def winner_name(self, container: ResultContainer) -> str:
        """The winning side's name of a finished result, ``""`` for a draw or none."""
        return ""

    def outcome_text(self, container: ResultContainer) -> str:
        """The outcome of a finished result in words ("Winner: Team Anna", "Draw"), ``""`` when
        unfinished or when the game has no winner."""
        return ""

    def title(self, container: ResultContainer) -> str:
        """The heading of the result's page ("Team Anna – Team Cees", "Table 3")."""
        return _("Table %(number)s") % {"number": self.number(container)}

    def note(self, container: ResultContainer) -> str:
        """Why the table was drawn like this (the pairing reason, or the repeat meetings)."""
        return ""

    def in_round(self, rnd) -> QuerySet:
        """The round's containers in table order, with what their pages read."""
        return self.queryset().filter(round=rnd).order_by(self.number_field)

    def needing_confirmation(self, rnd) -> QuerySet:
        """The round's containers that need a confirmation to close the round (byes need none)."""
        return self.container_model.objects.filter(round=rnd)

    def sides(self, container: ResultContainer, adapter: GameAdapter) -> list[dict[str, Any]]:
        """Each side as ``{"key", "label", "name", "players", "affiliation"}`` in ``adapter.sides``
        order (a Tai Pan team with its two players, or a seated player)."""
        raise NotImplementedError

    def snapshot(self, container: ResultContainer) -> dict[str, Any]:
        """Audit value of the result (status, totals, how it ended)."""
        raise NotImplementedError

    def audit_link(self, container: ResultContainer) -> dict[str, Any]:
        """The :class:`~scoring.models.AuditEntry` / :class:`~scoring.models.Confirmation` foreign
        key of this container (``{"match": m}`` or ``{"table": t}``)."""
        raise NotImplementedError


class MatchStorage(Storage):
    """A Tai Pan match: hands with ``ns``/``ew``, ``total_ns``/``total_ew``, ``points_ns``/
    ``points_ew`` and ``winner``; a bye (no team EW) is a finished win with 0:0."""

    container_model = Match
    record_model = Hand
    record_fk = "match"
    records_name = "hands"
    container_type = "match"
    record_type = "hand"
    round_related = "matches"
    number_field = "table"
    noun = gettext_lazy("match")

    def queryset(self):
        return Match.objects.with_teams()

    def names(self, container, adapter):
        m = container
        out = {"NS": m.team_ns.name, "EW": m.team_ew.name if m.team_ew_id else "",
               "N": m.team_ns.first_player.name, "S": m.team_ns.second_player.name, "E": "", "W": ""}
        if m.team_ew_id:
            out["E"], out["W"] = m.team_ew.first_player.name, m.team_ew.second_player.name
        return out

    def is_bye(self, container):
        return container.team_ew_id is None

    def new_record(self, container, number, record, scores, user, submission=None):
        return Hand.objects.create(match=container, number=number, record=record, ns=scores[0], ew=scores[1],
                                   entered_by=user if getattr(user, "is_authenticated", False) else None,
                                   submission=submission)

    def set_scores(self, rec, record, scores):
        changed = (rec.record, rec.ns, rec.ew) != (record, scores[0], scores[1])
        rec.record, rec.ns, rec.ew = record, scores[0], scores[1]
        return changed

    def apply(self, container, evaluation, adapter, settings):
        m = container
        if self.is_bye(m):
            m.total_ns = m.total_ew = 0
            m.winner_id = m.team_ns_id
            m.points_ns, m.points_ew = adapter.bye_points(settings), 0
            m.ended = ""
            return
        m.total_ns, m.total_ew = evaluation.totals
        m.points_ns, m.points_ew = evaluation.points
        m.winner_id = {0: m.team_ns_id, 1: m.team_ew_id}.get(evaluation.winner)
        m.ended = evaluation.ended

    def totals(self, container):
        return [container.total_ns, container.total_ew]

    def confirmation_totals(self, container):
        return {"NS": container.total_ns, "EW": container.total_ew}

    def record_snapshot(self, rec):
        return {"number": rec.number, "record": rec.record, "ns": rec.ns, "ew": rec.ew}

    def scores(self, rec):
        return (rec.ns, rec.ew)

    def number(self, container):
        return container.table

    def winner_name(self, container):
        if not container.winner_id:
            return ""
        return container.team_ns.name if container.winner_id == container.team_ns_id else container.team_ew.name

    def outcome_text(self, container):
        if not container.is_finished or self.is_bye(container):
            return ""
        name = self.winner_name(container)
        return _("Winner: %(team)s") % {"team": name} if name else _("Draw")

    def title(self, container):
        return " – ".join(side.name if side else _("bye") for side in (container.team_ns, container.team_ew))

    def note(self, container):
        return container.pairing_reason_text() or (_("bye") if self.is_bye(container) else "")

    def needing_confirmation(self, rnd):
        return super().needing_confirmation(rnd).exclude(team_ew=None)

    def sides(self, container, adapter):
        m, out = container, []
        for key, team in (("NS", m.team_ns), ("EW", m.team_ew)):
            if team is None:
                out.append({"key": key, "label": key, "name": "", "players": [], "affiliation": ""})
                continue
            seats = ("N", "S") if key == "NS" else ("E", "W")
            out.append({"key": key, "label": key, "name": team.name, "affiliation": team.affiliation, "team": team,
                        "players": [(seats[0], team.first_player.name), (seats[1], team.second_player.name)]})
        return out

    def snapshot(self, container):
        m = container
        winner = None
        if m.winner_id:
            winner = m.team_ns.name if m.winner_id == m.team_ns_id else m.team_ew.name
        return {"status": m.status, "total_ns": m.total_ns, "total_ew": m.total_ew, "winner": winner,
                "points_ns": m.points_ns, "points_ew": m.points_ew, "ended": m.ended}

    def audit_link(self, container):
        return {"match": container}


class TableStorage(Storage):
    """A four-player table: deals with ``net`` per seat, seat totals and the carried ``state``."""

    container_model = Table
    record_model = Deal
    record_fk = "table"
    records_name = "deals"
    container_type = "table"
    record_type = "deal"
    round_related = "tables"
    number_field = "number"
    noun = gettext_lazy("table")

    def queryset(self):
        seats = Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat"))
        return Table.objects.select_related("round__tournament").prefetch_related(seats)

    def _seats(self, container) -> list[TableSeat]:
        return sorted(container.seats.all(), key=lambda s: s.seat)

    def names(self, container, adapter):
        return {adapter.sides[s.seat]: s.player.name for s in self._seats(container)}

    def new_record(self, container, number, record, scores, user, submission=None):
        return Deal.objects.create(table=container, number=number, record=record, net=list(scores),
                                   entered_by=user if getattr(user, "is_authenticated", False) else None,
                                   submission=submission)

    def set_scores(self, rec, record, scores):
        changed = (rec.record, list(rec.net or [])) != (record, list(scores))
        rec.record, rec.net = record, list(scores)
        return changed

    def apply(self, container, evaluation, adapter, settings):
        container.state = evaluation.state
        container.ended = evaluation.ended
        for seat in self._seats(container):
            total = evaluation.totals[seat.seat]
            if seat.total != total:
                seat.total = total
                seat.save(update_fields=["total"])

    def totals(self, container):
        return [s.total for s in self._seats(container)]

    def record_snapshot(self, rec):
        return {"number": rec.number, "record": rec.record, "net": rec.net}

    def scores(self, rec):
        return tuple(rec.net or (0, 0, 0, 0))

    def number(self, container):
        return container.number

    def note(self, container):
        return container.seating_note

    def sides(self, container, adapter):
        labels = adapter.side_labels()
        return [{"key": adapter.sides[s.seat], "label": labels[s.seat], "name": s.player.name, "player": s.player,
                 "affiliation": s.player.affiliation, "players": [], "total": s.total} for s in self._seats(container)]

    def snapshot(self, container):
        return {"status": container.status, "totals": self.totals(container), "ended": container.ended}

    def audit_link(self, container):
        return {"table": container}


MATCHES = MatchStorage()
TABLES = TableStorage()
#: Where each kind of entrant keeps its results.
BY_ENTRANTS: dict[EntrantKind, Storage] = {EntrantKind.TEAMS: MATCHES, EntrantKind.PLAYERS: TABLES}


def storage_of(container: ResultContainer) -> Storage:
    """The storage of ``container`` (a Match or a Table)."""
    return MATCHES if isinstance(container, Match) else TABLES


def storage_for(adapter: GameAdapter) -> Storage:
    """The storage a game keeps its results in: matches for team games, tables otherwise."""
    return BY_ENTRANTS[adapter.entrants]
