"""The progress board of a round (issue 23 item 5, docs/hall.md), for organisers and head
referees (:data:`scoring.policy.Perm.VIEW_BOARD`): every table of the round with its state, the
records entered, the totals, the time since its last record, its open disputes, its referee and
whether a side called a referee, sorted by what needs attention:

1. a side called a referee and no referee answered yet;
2. an open dispute (of the totals or of a single record);
3. a stale table: still playing (or not started) while no record came for
   :data:`STALE_MINUTES` (not started: while other tables of the round have been playing that
   long);
4. the rest, by table number: the tables still playing (or finished, to confirm) first, then the
   confirmed tables and the byes.

A call for a referee shows only on a table still playing in an open round: once the table is
finished (by its referee or at the time limit), confirmed or the round closed, an unanswered call
no longer asks for a referee.

The rows are read in a fixed number of queries, whatever the number of tables (:func:`rows`):
the results with their counts (and, for four-player tables, their seats), the assignments, the
open calls. :func:`state` is the board's state in one query, for the page's ETag.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Exists, Max, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.kinds import kind_for
from scoring.live import state as live_state
from scoring.models import Dispute, RefereeAssignment, RefereeCall, ResultContainer, Round

#: Minutes without a new record after which a playing table counts as stale.
STALE_MINUTES = 15

S = ResultContainer.Status
#: The states a board row shows, with their words.
STATES = {
    "not_started": _("Not started"),
    "playing": _("Playing"),
    "finished": _("Finished"),
    "to_confirm": _("Pending confirmation"),
    "ended_at_time": _("Ended at the time limit"),
    "confirmed": _("Confirmed"),
    "disputed": _("Disputed"),
}
#: Why a row is near the top (the attention order, most urgent first).
NEEDS_REFEREE, DISPUTED, STALE, NOTHING = 0, 1, 2, 3


@dataclass
class Row:
    """One table of the board. ``state``: a key of :data:`STATES`; ``records``: how many
    records; ``totals`` per side; ``last_record``: when the last one was entered (``None``);
    ``disputes``: open disputes; ``referee``: the username looking after it (``claimed``: they
    claimed it); ``call``: the open :class:`~scoring.models.RefereeCall` or ``None``;
    ``attention``: :data:`NEEDS_REFEREE`, :data:`DISPUTED`, :data:`STALE` or :data:`NOTHING`."""

    number: int
    pk: int
    title: str
    sides: list[dict[str, Any]]
    state: str
    records: int
    totals: list[int]
    last_record: datetime | None
    disputes: int
    bye: bool
    referee: str = ""
    claimed: bool = False
    call: RefereeCall | None = None
    attention: int = NOTHING
    urls: dict[str, str] = field(default_factory=dict)

    @property
    def state_label(self) -> str:
        return str(STATES[self.state])

    @property
    def minutes_since(self) -> int | None:
        """Whole minutes since the last record (``None`` without one)."""
        if self.last_record is None:
            return None
        return int((timezone.now() - self.last_record).total_seconds() // 60)

    @property
    def done(self) -> bool:
        """True for a confirmed table or a bye: nothing left to do (sorts last)."""
        return self.bye or self.state == "confirmed"

    @property
    def unfinished(self) -> bool:
        """True while the round cannot close because of this table (not confirmed, not a bye)."""
        return not self.bye and self.state != "confirmed"


def _state(c: ResultContainer, bye: bool, disputed: bool) -> str:
    if bye:
        return "finished"
    if c.status == S.CONFIRMED:
        return "confirmed"
    if disputed:
        return "disputed"
    if c.status == S.FINISHED:
        return "ended_at_time" if c.ended == c.Ended.TIME else "to_confirm"
    return "playing" if c.status == S.PLAYING else "not_started"


def rows(rnd: Round, *, now: datetime | None = None) -> list[Row]:
    """The board of ``rnd``: one :class:`Row` per table, in attention order (see the module
    docstring). Queries: the results (2 for four-player tables: their seats), the assignments, the
    open calls; none per table."""
    now = now or timezone.now()
    kind = kind_for(rnd.tournament.adapter)
    adapter = rnd.tournament.adapter
    r = kind.records_name
    open_dispute = Dispute.objects.filter(confirmation=None, resolved_at=None, **{kind.key: OuterRef("pk")})
    qs = kind.in_round(rnd).annotate(n_records=Count(r, distinct=True), last_record=Max(f"{r}__created_at"),
                                     disputed=Exists(open_dispute),
                                     n_disputes=Count("disputes", filter=Q(disputes__confirmation=None,
                                                                           disputes__resolved_at=None), distinct=True))
    assigned = {a.table: a for a in RefereeAssignment.objects.filter(round=rnd).select_related("referee")}
    calls: dict[int, RefereeCall] = {}
    for c in RefereeCall.objects.filter(round=rnd, answered_at=None).order_by("called_at"):
        calls.setdefault(c.table, c)
    out = []
    for c in qs:
        c.round = rnd
        bye = kind.is_bye(c)
        number = kind.number(c)
        a = assigned.get(number)
        out.append(Row(number=number, pk=c.pk, title=kind.title(c), sides=kind.sides(c, adapter),
                       state=_state(c, bye, c.disputed), records=c.n_records, totals=list(kind.totals(c)),
                       last_record=c.last_record, disputes=c.n_disputes, bye=bye,
                       referee=a.referee.get_username() if a else "", claimed=bool(a and a.claimed),
                       call=None if bye or c.status in (S.FINISHED, S.CONFIRMED) or not rnd.is_open
                       else calls.get(number)))
    stale_after = timedelta(minutes=STALE_MINUTES)
    first = min((row.last_record for row in out if row.last_record), default=None)
    for row in out:
        if row.call is not None:
            row.attention = NEEDS_REFEREE
        elif row.disputes or row.state == "disputed":
            row.attention = DISPUTED
        elif row.state in ("playing", "not_started") and not row.bye and (
                (row.last_record is not None and now - row.last_record > stale_after)
                or (row.last_record is None and first is not None and now - first > stale_after)):
            row.attention = STALE
    out.sort(key=lambda row: (row.attention, row.done, row.number))
    return out


def summary(board: list[Row]) -> dict[str, int]:
    """Counts for the board's head: tables per state key, and ``tables``, ``open`` (tables that
    keep the round from closing), ``calls``, ``disputed``, ``stale``."""
    out: dict[str, int] = {key: 0 for key in STATES}
    for row in board:
        out[row.state] += 1
    out.update(tables=len(board), open=sum(row.unfinished for row in board),
               calls=sum(row.attention == NEEDS_REFEREE for row in board),
               disputed=sum(row.attention == DISPUTED for row in board),
               stale=sum(row.attention == STALE for row in board))
    return out


def state(rnd: Round) -> list:
    """What the board shows, in one query by primary keys (:func:`scoring.live.state.round_row`):
    the round's status, its board counter (every change in the round: a hand, an assignment, a
    call, time's up), the tournament's counters (names, its rounds, the hall), and the minute (the
    "minutes since the last record" move on). For the page's ETag (:mod:`scoring.web.conditional`)."""
    row = live_state.round_row(rnd.tournament_id, rnd.number) or []
    return [*row, int(timezone.now().timestamp() // 60)]
