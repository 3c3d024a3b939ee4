"""Referee zones and claimed tables (issue 23 item 4, docs/hall.md).

Per round, an organiser gives each referee a **zone**: the tables they look after, written as
ranges or lists ("1-10, 14, 20-22"). The rules:

- A zone is the whole list of a referee's tables in the round: setting it again replaces it (an
  empty zone clears it). Table 0, a table beyond the round's last table, a reversed range
  ("10-1") or anything but numbers, commas and dashes (spaces around them) is refused with the reason, on the field.
- **Overlapping zones**: a table already in another referee's zone (or claimed by them) is
  refused, naming the tables and the referee, unless the organiser asks to take them over
  (``take_over``): then they move to this referee.
- A referee (or head referee, or organiser) can **claim** a table of a published or running round:
  it becomes theirs for the round (from whoever had it), marked as claimed, and an open call for a
  referee at that table is answered by them.

Only members who may enter results (referees, head referees, organisers) can have tables.
"""
from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.kinds import kind_for
from scoring.live import state as live_state
from scoring.locking import lock
from scoring.models import Membership, RefereeAssignment, RefereeCall, Round
from scoring.policy import Perm

#: The roles that may look after tables (in the order the organiser's page lists them).
REFEREE_ROLES = (Membership.Role.REFEREE, Membership.Role.HEAD_REFEREE, Membership.Role.ORGANISER)
_PART = re.compile(r"^(\d{1,4})(?:-(\d{1,4}))?$")


def table_count(rnd: Round) -> int:
    """The highest table number of ``rnd`` (0 when it has none)."""
    kind = kind_for(rnd.tournament.adapter)
    return max(kind.in_round(rnd).values_list(kind.number_field, flat=True), default=0)


def parse_tables(text: str, last: int) -> list[int]:
    """The table numbers written in ``text`` ("1-10, 14, 20-22": commas between the parts, a dash
    for a range, spaces around them allowed), sorted and without repeats.
    :class:`~scoring.errors.ServiceError` (bad input) on field ``tables`` for anything else (a
    semicolon, numbers separated by spaces only, letters), table 0, a reversed range or a table
    above ``last``."""
    numbers: set[int] = set()
    for raw in re.sub(r"\s*[-\u2013]\s*", "-", (text or "").strip()).split(","):
        part = raw.strip()
        if not part:
            continue
        m = _PART.match(part)
        if m is None:
            raise ServiceError(_("“{part}” is not a table number or a range like 1-10: write numbers and ranges "
                                 "separated by commas, e.g. 1-10, 14.").format(part=part), field="tables")
        first = int(m.group(1))
        end = int(m.group(2)) if m.group(2) else first
        if first == 0:
            raise ServiceError(_("There is no table 0: tables start at 1."), field="tables")
        if end < first:
            raise ServiceError(_("The range {part} runs backwards: write it from low to high.").format(part=part),
                             field="tables")
        if end > last:
            raise ServiceError(_("This round has {n} tables: there is no table {number}.").format(n=last, number=end),
                             field="tables")
        numbers.update(range(first, end + 1))
    return sorted(numbers)


def format_tables(numbers) -> str:
    """Table numbers as short ranges: ``[1, 2, 3, 5, 7, 8]`` -> ``"1-3, 5, 7-8"``."""
    parts, run = [], []
    for n in sorted(set(numbers)):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(parts)


def referees(tournament) -> list:
    """The members who may look after tables (referees, head referees, organisers), by name."""
    ids = Membership.objects.filter(tournament=tournament, role__in=REFEREE_ROLES).values_list("user_id", flat=True)
    return list(get_user_model().objects.filter(pk__in=ids).order_by("username"))


def assignments(rnd: Round) -> dict[int, RefereeAssignment]:
    """Table number -> its referee's assignment (with ``referee`` loaded), one query."""
    return {a.table: a for a in RefereeAssignment.objects.filter(round=rnd).select_related("referee")}


def zones(rnd: Round) -> dict[int, list[int]]:
    """Referee's user id -> their table numbers in ``rnd`` (zone and claims), one query."""
    out: dict[int, list[int]] = {}
    for table, user_id in RefereeAssignment.objects.filter(round=rnd).order_by("table").values_list("table", "referee_id"):
        out.setdefault(user_id, []).append(table)
    return out


def tables_of(rnd: Round, user) -> list[int]:
    """The table numbers ``user`` looks after in ``rnd``."""
    return list(RefereeAssignment.objects.filter(round=rnd, referee_id=user.pk).order_by("table")
                .values_list("table", flat=True))


def _require_referee(tournament, user) -> None:
    if user is None or not policy.has_perm(user, Perm.ENTER_RESULTS, tournament) or policy.is_entrant(user):
        raise NotAllowed(_("Only a referee, head referee or organiser of this tournament can look after tables."),
                         field="referee")


def set_zone(rnd: Round, referee, text: str, actor, *, take_over: bool = False) -> list[int]:
    """Make ``text`` ("1-10, 14") the zone of ``referee`` in ``rnd`` (organisers,
    ``Perm.MANAGE``): it replaces the referee's tables in the round. Returns the table numbers.
    Refused (:class:`NotAllowed`) for bad input (:func:`parse_tables`), a referee who is not a
    member who may enter results, a closed round, and tables of another referee unless
    ``take_over``."""
    policy.require(actor, Perm.MANAGE, rnd.tournament)
    _require_referee(rnd.tournament, referee)
    with transaction.atomic():
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        if locked.status == Round.Status.CLOSED:
            raise NotAllowed(_("Round {number} is closed: its zones no longer change.").format(number=locked.number))
        numbers = parse_tables(text, table_count(locked))
        taken = (RefereeAssignment.objects.filter(round=locked, table__in=numbers).exclude(referee_id=referee.pk)
                 .select_related("referee").order_by("table"))
        others = list(taken)
        if others and not take_over:
            first = others[0].referee
            raise NotAllowed(_("Table(s) {tables} are already in the zone of {name}. Leave them out, or take them over "
                               "(they move to this referee).").format(
                tables=format_tables(a.table for a in others if a.referee_id == first.pk), name=first.get_username()),
                field="tables")
        RefereeAssignment.objects.filter(round=locked, table__in=numbers).exclude(referee_id=referee.pk).delete()
        RefereeAssignment.objects.filter(round=locked, referee_id=referee.pk).exclude(table__in=numbers).delete()
        have = set(RefereeAssignment.objects.filter(round=locked, referee_id=referee.pk).values_list("table", flat=True))
        RefereeAssignment.objects.bulk_create([
            RefereeAssignment(round=locked, table=n, referee=referee, assigned_by=policy.user_of(actor))
            for n in numbers if n not in have])
        live_state.bump(locked.tournament_id, live_state.HALL, live_state.board_topic(locked.number))
    return numbers


def claim(rnd: Round, table: int, actor) -> RefereeAssignment:
    """``actor`` (a referee, head referee or organiser) claims table ``table`` of a published or
    running round: it becomes theirs (``claimed``), from whoever had it, and open calls for a
    referee there are answered. :class:`NotAllowed` for an unknown table or another round state."""
    policy.require(actor, Perm.ENTER_RESULTS, rnd.tournament)
    _require_referee(rnd.tournament, actor)
    with transaction.atomic():
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        if not locked.is_open:
            raise NotAllowed(_("Tables can be claimed in a published or running round."))
        if not 1 <= int(table) <= table_count(locked):
            raise NotAllowed(_("This round has no table {number}.").format(number=table), field="table")
        assignment, _created = RefereeAssignment.objects.update_or_create(
            round=locked, table=int(table), defaults={"referee": actor, "claimed": True, "assigned_by": actor})
        RefereeCall.objects.filter(round=locked, table=int(table), answered_at=None).update(
            answered_at=timezone.now(), answered_by=actor)
        live_state.bump(locked.tournament_id, live_state.HALL, live_state.board_topic(locked.number))
    return assignment
