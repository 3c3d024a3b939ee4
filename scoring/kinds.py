"""Kinds of result: the one answer to "which kind of result is this?" (docs/architecture.md).

A tournament's results are kept in one of two kinds of container, decided by the game's kind of
entrants (:class:`~scoring.games.base.EntrantKind`):

- **match** (:data:`MATCHES`): teams of two at a Tai Pan table, team NS against team EW; its
  records are **hands** with a score per team, and the match keeps totals, match points and a
  winner; a match without team EW is a bye.
- **table** (:data:`TABLES`): four individual players seated at a four-player table; its records
  are **deals** with a net result per seat, and the table keeps seat totals and the state carried
  from deal to deal (the Taiwanese dealer, the Tien Gow banker).

A :class:`ResultKind` carries everything that differs between them: the entrant kind, the models
and their fields, its key (the same word in URLs, the API's ``kind``, the audit trail's
``object_type`` and the round pack), the URL names of its pages, its nouns, the check "is this
actor a side of it", whether state is carried from record to record, and how its derived numbers
are stored. Everything else asks the kind; nothing outside ``scoring/games/`` and this module
branches on which kind it has (``tests/games/test_registry_boundary.py``).

The *display* of a result (record rows with running totals, outcome and titles) is
:mod:`scoring.results.presenter`'s; the *rules* of a result are :mod:`scoring.results.sheet`'s.
"""
from __future__ import annotations

from typing import Any

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games.base import EntrantKind, Evaluation, GameAdapter
from scoring.models import Deal, Hand, Match, ResultContainer, ResultRecord, Round, Table, TableSeat
from scoring.models.persons import shown_name

#: The actions of a result page, by name (the keys of :attr:`ResultKind.url_names`).
PAGE_ACTIONS = ("detail", "enter", "preview", "end", "resume", "confirm", "dispute", "reopen", "sheet")
#: The actions that take a record's number (or, for ``restore``, an audit entry's id).
RECORD_ACTIONS = ("edit", "delete", "restore", "acknowledge", "disagree")


def shown(player, container: ResultContainer) -> str:
    """``player``'s name as the public sees it (issue 26: the player's own setting, else the
    tournament's; :func:`scoring.participants.names.public_name`). The tournament is read from
    ``container.round.tournament`` only when the player has no setting of their own."""
    if player.public_name:
        return shown_name(player.name, player.public_name, "")
    return shown_name(player.name, "", container.round.tournament.public_names)


class ResultKind:
    """One kind of result container; see the module docstring. Subclasses set the class
    attributes and implement the storage methods for their columns."""

    #: The kind's one name: URL ``kind``, API ``kind``, audit ``object_type`` ("match", "table").
    key: str = ""
    #: The records' name in the same places ("hand", "deal").
    record_key: str = ""
    #: The API's collection name of these results ("matches", "tables").
    api_name: str = ""
    #: The kind of entrants whose results are kept in this kind of container.
    entrants: EntrantKind = EntrantKind.TEAMS
    container_model: type[ResultContainer]
    record_model: type[ResultRecord]
    #: Name of the record's foreign key to its container, and the container's reverse accessor.
    record_fk: str = ""
    records_name: str = ""
    #: The round's reverse accessor of these containers (``round.matches``, ``round.tables``).
    round_related: str = ""
    #: The container's field holding its table number in the round.
    number_field: str = ""
    #: What one container and one record are called in sentences (translated).
    noun: Any = ""
    record_noun: Any = ""
    #: "this hand" / "this deal" (translated as a whole: Dutch says "deze hand" but "dit spel").
    this_record: Any = ""
    #: True when the container carries the game's state from record to record (``container.state``).
    carries_state: bool = False
    #: True when a finished result names a winning side (or a draw) of its own.
    has_winner: bool = False
    #: URL name (without the ``scoring:`` namespace) of each page action and record action.
    url_names: dict[str, str] = {}
    #: Aggregates over the round's containers that change whenever a side's printed name changes
    #: (the round pack's and the result page's fingerprints, :mod:`scoring.tasks`,
    #: :mod:`scoring.web.conditional`): ``{"round": ..., "result": ...}``.
    side_aggregates: dict[str, dict[str, Any]] = {}

    def __repr__(self) -> str:
        return f"<ResultKind {self.key}>"

    def url_name(self, action: str) -> str:
        """The namespaced URL name of ``action`` (:data:`PAGE_ACTIONS`, :data:`RECORD_ACTIONS`);
        ``KeyError`` for another."""
        return f"scoring:{self.url_names[action]}"

    # ------------------------------------------------------------------ who sits at it

    def queryset(self) -> QuerySet:
        """Containers with everything a result page or the sheet reads (round, tournament, sides)."""
        raise NotImplementedError

    def sides(self, container: ResultContainer, adapter: GameAdapter) -> list[dict[str, Any]]:
        """Each side as ``{"key", "label", "name", "players", "affiliation"}`` in ``adapter.sides``
        order (a Tai Pan team with its two players by seat, or a seated player), plus ``"team"`` or
        ``"player"``: the entrant (``None`` for a bye's empty side)."""
        raise NotImplementedError

    def names(self, container: ResultContainer, adapter: GameAdapter) -> dict[str, str]:
        """Side key (``adapter.sides``) -> the name shown for it, and for Tai Pan also each seat
        N/E/S/W -> its player (entry labels)."""
        raise NotImplementedError

    def is_side(self, actor, container: ResultContainer) -> bool:
        """True when ``actor`` (an entrant acting through its private link, with ``team_id`` and
        ``player_id``) sits at ``container``: one of the match's two teams, one of the table's
        seated players."""
        raise NotImplementedError

    def is_bye(self, container: ResultContainer) -> bool:
        """True for a bye (no opponent, no records, no confirmation needed)."""
        return False

    def decided_without_records(self, container: ResultContainer) -> bool:
        """True for a result finished without records: a bye, or a match forfeited by a no-show
        (:meth:`MatchKind.apply` derives its numbers)."""
        return self.is_bye(container)

    def bye_q(self, prefix: str = "") -> Q | None:
        """A filter for the byes among these containers (``prefix``: the path that reaches them,
        ending in ``__``), or ``None`` when the kind has no byes."""
        return None

    def number(self, container: ResultContainer) -> int:
        """The container's table number in its round."""
        return getattr(container, self.number_field)

    def title(self, container: ResultContainer) -> str:
        """The heading of the result's page ("Team Anna – Team Cees", "Table 3")."""
        return _("Table %(number)s") % {"number": self.number(container)}

    def note(self, container: ResultContainer) -> str:
        """Why the table was drawn like this (the pairing reason, or the repeat meetings)."""
        return ""

    def winner_index(self, container: ResultContainer) -> int | None:
        """Index (in ``adapter.sides``) of the side a finished result names as its winner, or
        ``None`` (a draw, unfinished, or a game without a winner per table)."""
        return None

    def points(self, container: ResultContainer) -> list[int] | None:
        """The ranking points each side took from a finished result (Tai Pan's match points), or
        ``None`` where the kind keeps none."""
        return None

    # ------------------------------------------------------------------ records

    def in_round(self, rnd: Round) -> QuerySet:
        """The round's containers in table order, with what their pages read."""
        return self.queryset().filter(round=rnd).order_by(self.number_field)

    def seat_state(self, rnd: Round) -> dict[str, Any]:
        """What the round's seats add to its printed state beyond :attr:`side_aggregates`
        (four-player: count, ids, players and the players' last change in one aggregate; a
        re-seated or renamed player changes it); ``{}`` where the sides are in the containers."""
        return {}

    def needing_confirmation(self, rnd: Round) -> QuerySet:
        """The round's containers that need a confirmation to close the round (byes need none)."""
        return self.container_model.objects.filter(round=rnd)

    def records(self, container: ResultContainer) -> list[ResultRecord]:
        """The container's records in play order (one query)."""
        return list(getattr(container, self.records_name).order_by("number"))

    def record(self, container: ResultContainer, number: int) -> ResultRecord | None:
        """Record ``number`` of ``container``, or ``None``."""
        return self.record_model.objects.filter(**{self.record_fk: container, "number": number}).first()

    def records_of_round(self, rnd: Round, within: list[int] | None = None) -> dict[int, list[ResultRecord]]:
        """Container id -> its records in order, for every container of ``rnd`` (or only the
        containers whose ids are ``within``: a part of a long round pack; one query)."""
        out: dict[int, list[ResultRecord]] = {}
        found = self.record_model.objects.filter(**{f"{self.record_fk}__round": rnd})
        if within is not None:
            found = found.filter(**{f"{self.record_fk}_id__in": within})
        for rec in found.order_by("number"):
            out.setdefault(getattr(rec, f"{self.record_fk}_id"), []).append(rec)
        return out

    def new_record(self, container: ResultContainer, number: int, record: dict[str, Any], scores: tuple[int, ...], user,
                   submission: str | None = None) -> ResultRecord:
        """Create record ``number`` with its derived ``scores`` (and the entry form's idempotency
        key ``submission``, :mod:`scoring.results.retry`)."""
        return self.record_model.objects.create(**{self.record_fk: container}, number=number, record=record,
                                                **self._score_fields(scores), submission=submission,
                                                entered_by=user if getattr(user, "is_authenticated", False) else None)

    def _score_fields(self, scores: tuple[int, ...]) -> dict[str, Any]:
        raise NotImplementedError

    def set_scores(self, rec: ResultRecord, record: dict[str, Any], scores: tuple[int, ...]) -> bool:
        """Write ``record`` (as evaluated) and its derived ``scores`` onto ``rec``; True when
        something changed (the caller saves)."""
        fields = {"record": record, **self._score_fields(scores)}
        changed = any(getattr(rec, name) != value for name, value in fields.items())
        for name, value in fields.items():
            setattr(rec, name, value)
        return changed

    def scores(self, rec: ResultRecord) -> tuple[int, ...]:
        """A stored record's derived scores per side."""
        raise NotImplementedError

    def record_snapshot(self, rec: ResultRecord) -> dict[str, Any]:
        """Audit value of a record: ``{"number", "record", ...its scores}``."""
        return {"number": rec.number, "record": rec.record, **self._score_fields(self.scores(rec))}

    def snapshot_scores(self, snapshot: dict[str, Any]) -> list[int]:
        """The scores per side kept in a :meth:`record_snapshot` (an audit value)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ derived numbers

    def apply(self, container: ResultContainer, evaluation: Evaluation, adapter: GameAdapter, settings) -> None:
        """Write the container's derived columns from ``evaluation`` (not its status)."""
        raise NotImplementedError

    def totals(self, container: ResultContainer) -> list[int]:
        """The stored totals per side (what a confirmation confirms)."""
        raise NotImplementedError

    def confirmation_totals(self, container: ResultContainer) -> Any:
        """The totals as kept on a :class:`~scoring.models.Confirmation`."""
        return self.totals(container)

    def snapshot(self, container: ResultContainer) -> dict[str, Any]:
        """Audit value of the result (status, totals, how it ended)."""
        raise NotImplementedError

    def snapshot_totals(self, snapshot: dict[str, Any]) -> list[int] | None:
        """The totals per side kept in a :meth:`snapshot` (an audit value), or ``None``."""
        raise NotImplementedError

    def audit_link(self, container: ResultContainer) -> dict[str, Any]:
        """The foreign key of this container on an :class:`~scoring.models.AuditEntry`,
        :class:`~scoring.models.Confirmation` or :class:`~scoring.models.Dispute`
        (``{"match": m}`` or ``{"table": t}``)."""
        return {self.key: container}


class MatchKind(ResultKind):
    """A Tai Pan match: hands with ``ns``/``ew``, ``total_ns``/``total_ew``, ``points_ns``/
    ``points_ew`` and ``winner``; a bye (no team EW) is a finished win with 0:0."""

    key, record_key, api_name = "match", "hand", "matches"
    entrants = EntrantKind.TEAMS
    container_model, record_model = Match, Hand
    record_fk, records_name, round_related, number_field = "match", "hands", "matches", "table"
    noun, record_noun = gettext_lazy("match"), gettext_lazy("hand")
    this_record = gettext_lazy("this hand")
    carries_state = False
    has_winner = True
    url_names = {"detail": "match_detail", "enter": "match_enter", "preview": "hand_preview", "edit": "hand_edit",
                 "delete": "hand_delete", "end": "match_end", "resume": "match_resume", "confirm": "match_confirm",
                 "dispute": "match_dispute", "reopen": "match_reopen", "restore": "audit_restore",
                 "sheet": "score_sheet_pdf", "acknowledge": "hand_acknowledge", "disagree": "hand_disagree"}
    side_aggregates = {
        # Which teams play (ids), and the last change of the teams and their players (one
        # aggregate over the round's matches; the joins are to-one, no row counts twice).
        "round": {"ns": Sum("team_ns_id"), "ew": Sum("team_ew_id"), "byes": Count("pk", filter=Q(team_ew=None)),
                  "ns_t": Max("team_ns__updated_at"), "ew_t": Max("team_ew__updated_at"),
                  "ns1_t": Max("team_ns__first_player__updated_at"), "ns2_t": Max("team_ns__second_player__updated_at"),
                  "ew1_t": Max("team_ew__first_player__updated_at"), "ew2_t": Max("team_ew__second_player__updated_at")},
        "result": {"sides": Max("team_ns__updated_at"), "sides_ew": Max("team_ew__updated_at"),
                   "players_ns": Max("team_ns__first_player__updated_at"),
                   "players_ns2": Max("team_ns__second_player__updated_at"),
                   "players_ew": Max("team_ew__first_player__updated_at"),
                   "players_ew2": Max("team_ew__second_player__updated_at")},
    }

    def queryset(self):
        return Match.objects.with_teams()

    def sides(self, container, adapter):
        m, out = container, []
        for key, team in (("NS", m.team_ns), ("EW", m.team_ew)):
            if team is None:
                out.append({"key": key, "label": key, "name": "", "players": [], "affiliation": "", "team": None})
                continue
            seats = ("N", "S") if key == "NS" else ("E", "W")
            out.append({"key": key, "label": key, "name": team.name, "affiliation": team.affiliation, "team": team,
                        "players": [(seats[0], shown(team.first_player, m)), (seats[1], shown(team.second_player, m))]})
        return out

    def names(self, container, adapter):
        m = container
        out = {"NS": m.team_ns.name, "EW": m.team_ew.name if m.team_ew_id else "",
               "N": shown(m.team_ns.first_player, m), "S": shown(m.team_ns.second_player, m), "E": "", "W": ""}
        if m.team_ew_id:
            out["E"], out["W"] = shown(m.team_ew.first_player, m), shown(m.team_ew.second_player, m)
        return out

    def is_side(self, actor, container):
        team_id = getattr(actor, "team_id", None)
        return team_id is not None and team_id in (container.team_ns_id, container.team_ew_id)

    def is_bye(self, container):
        return container.team_ew_id is None

    def bye_q(self, prefix=""):
        return Q(**{f"{prefix}team_ew__isnull": True})

    def title(self, container):
        return " – ".join(side.name if side else _("bye") for side in (container.team_ns, container.team_ew))

    def note(self, container):
        return container.pairing_reason_text() or (_("bye") if self.is_bye(container) else "")

    def winner_index(self, container):
        if not container.is_finished or not container.winner_id:
            return None
        return 0 if container.winner_id == container.team_ns_id else 1

    def points(self, container):
        return [container.points_ns, container.points_ew] if container.is_finished else None

    def needing_confirmation(self, rnd):
        return super().needing_confirmation(rnd).exclude(team_ew=None)

    def _score_fields(self, scores):
        return {"ns": scores[0], "ew": scores[1]}

    def scores(self, rec):
        return (rec.ns, rec.ew)

    def snapshot_scores(self, snapshot):
        return [snapshot["ns"], snapshot["ew"]]

    def decided_without_records(self, container):
        return self.is_bye(container) or bool(container.forfeit)

    def apply(self, container, evaluation, adapter, settings):
        m = container
        if m.forfeit and not self.is_bye(m):
            # A forfeit (scoring.draw.noshow): the side that is there wins with the tournament's
            # forfeit score (default the target) and forfeit match points (default a win), the
            # absent side gets 0 and 0 (docs/hall.md "No-show after the draw").
            present = 1 if m.forfeit == "NS" else 0
            score = settings.forfeit_score if settings.forfeit_score is not None else (adapter.target(settings) or 0)
            points = settings.forfeit_points if settings.forfeit_points is not None else adapter.bye_points(settings)
            totals, match_points = [0, 0], [0, 0]
            totals[present], match_points[present] = score, points
            (m.total_ns, m.total_ew), (m.points_ns, m.points_ew) = totals, match_points
            m.winner_id = m.team_ew_id if present else m.team_ns_id
            m.ended = ""
            return
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

    def snapshot(self, container):
        m = container
        winner = None
        if m.winner_id:
            winner = m.team_ns.name if m.winner_id == m.team_ns_id else m.team_ew.name
        return {"status": m.status, "total_ns": m.total_ns, "total_ew": m.total_ew, "winner": winner,
                "points_ns": m.points_ns, "points_ew": m.points_ew, "ended": m.ended}

    def snapshot_totals(self, snapshot):
        if "total_ns" not in snapshot:
            return None
        return [snapshot.get("total_ns"), snapshot.get("total_ew")]


class TableKind(ResultKind):
    """A four-player table: deals with ``net`` per seat, seat totals and the carried ``state``."""

    key, record_key, api_name = "table", "deal", "tables"
    entrants = EntrantKind.PLAYERS
    container_model, record_model = Table, Deal
    record_fk, records_name, round_related, number_field = "table", "deals", "tables", "number"
    noun, record_noun = gettext_lazy("table"), gettext_lazy("deal")
    this_record = gettext_lazy("this deal")
    carries_state = True
    url_names = {"detail": "table_detail", "enter": "table_enter", "preview": "deal_preview", "edit": "deal_edit",
                 "delete": "deal_delete", "end": "table_end", "resume": "table_resume", "confirm": "table_confirm",
                 "dispute": "table_dispute", "reopen": "table_reopen", "restore": "table_audit_restore",
                 "sheet": "table_sheet_pdf", "acknowledge": "deal_acknowledge", "disagree": "deal_disagree"}
    side_aggregates = {
        "round": {},  # the seats are read apart (:meth:`seat_state`)
        "result": {"sides": Max("seats__player__updated_at"), "seat_count": Count("seats")},
    }

    def queryset(self):
        seats = Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat"))
        return Table.objects.select_related("round__tournament").prefetch_related(seats)

    def _seats(self, container) -> list[TableSeat]:
        return sorted(container.seats.all(), key=lambda s: s.seat)

    def sides(self, container, adapter):
        labels = adapter.side_labels()
        return [{"key": adapter.sides[s.seat], "label": labels[s.seat], "name": shown(s.player, container), "player": s.player,
                 "affiliation": s.player.affiliation, "players": [], "total": s.total} for s in self._seats(container)]

    def names(self, container, adapter):
        return {adapter.sides[s.seat]: shown(s.player, container) for s in self._seats(container)}

    def is_side(self, actor, container):
        player_id = getattr(actor, "player_id", None)
        if player_id is None:
            return False
        return TableSeat.objects.filter(table_id=container.pk, player_id=player_id).exists()

    def note(self, container):
        return container.seating_note

    def seat_state(self, rnd):
        return TableSeat.objects.filter(table__round=rnd).aggregate(
            n=Count("pk"), ids=Sum("pk"), players=Sum("player_id"), t=Max("player__updated_at"))

    def _score_fields(self, scores):
        return {"net": list(scores)}

    def scores(self, rec):
        return tuple(rec.net or (0, 0, 0, 0))

    def snapshot_scores(self, snapshot):
        return list(snapshot.get("net") or [])

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

    def snapshot(self, container):
        return {"status": container.status, "totals": self.totals(container), "ended": container.ended}

    def snapshot_totals(self, snapshot):
        return list(snapshot["totals"]) if snapshot.get("totals") else None


MATCHES = MatchKind()
TABLES = TableKind()
#: Every kind by its key (URL ``kind``, API ``kind``, audit ``object_type``).
KINDS: dict[str, ResultKind] = {kind.key: kind for kind in (MATCHES, TABLES)}
#: The kind each kind of entrants keeps its results in.
BY_ENTRANTS: dict[EntrantKind, ResultKind] = {kind.entrants: kind for kind in KINDS.values()}
_BY_MODEL: dict[type, ResultKind] = {kind.container_model: kind for kind in KINDS.values()}


def kind_of(container: ResultContainer) -> ResultKind:
    """The kind of ``container`` (a :class:`~scoring.models.Match` or :class:`~scoring.models.Table`);
    ``KeyError`` for anything else."""
    return _BY_MODEL[type(container)._meta.concrete_model]


def kind_for(adapter: GameAdapter) -> ResultKind:
    """The kind a game keeps its results in (by its kind of entrants): matches for team games,
    tables for four-player games."""
    return BY_ENTRANTS[adapter.entrants]

