"""Shared setup of the hall tests: a round of either kind with staff, and records from the race
tests' set (their totals are derived from the rules there: :mod:`tests.results.test_races`)."""
from __future__ import annotations

from scoring.models import Membership
from tests.factories import MembershipFactory, staff, table_round, taipan_round
from tests.results.test_races import RECORDS, TOTALS

KINDS = ["match", "table"]

__all__ = ["KINDS", "RECORDS", "TOTALS", "hall_round"]


def hall_round(kind: str, tables: int = 3):
    """A published round 1 of ``tables`` results of ``kind`` (Tai Pan matches or Sichuan tables)
    and its people: an organiser, two referees, a head referee (``people["head"]``)."""
    if kind == "match":
        rnd, containers = taipan_round(tables=tables)
    else:
        rnd, containers = table_round("sichuan", tables=tables)
    people = staff(rnd.tournament)
    people["head"] = MembershipFactory(tournament=rnd.tournament, role=Membership.Role.HEAD_REFEREE).user
    return rnd, containers, people
