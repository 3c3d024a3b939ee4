"""Two organisers removing or demoting each other at the same moment (issue 10 item 4), on
PostgreSQL: released together by a barrier (:func:`tests.race.race`), each in its own thread and
database connection, :data:`TRIES` times per race. The invariant, checked after every try: the
tournament always keeps at least one organiser (docs/tournaments.md "Roles"; the last organiser can be
neither removed nor made a referee).

:mod:`scoring.participants.members` locks the tournament row first and re-reads the memberships
inside the lock (the actor's own role too), so the second change sees the first one: its actor is
no longer an organiser (refused) or the other is the last one.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from scoring.errors import NotAllowed
from scoring.models import Membership, Tournament
from scoring.participants import members
from tests.factories import TournamentFactory, staff
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50 (the issue), more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
ORGANISER, REFEREE = Membership.Role.ORGANISER, Membership.Role.REFEREE


def reload(obj):
    """A fresh copy of ``obj`` from the database, as a request would read it."""
    return type(obj).objects.get(pk=obj.pk)


def _organisers(tournament: Tournament) -> list[int]:
    return sorted(Membership.objects.filter(tournament=tournament, role=ORGANISER).values_list("user_id", flat=True))


def _one_try(action: str) -> str:
    tournament = TournamentFactory()
    people = staff(tournament, organisers=2, referees=1)
    first, second = people["organisers"]
    mine = {user.pk: Membership.objects.get(tournament=tournament, user=user) for user in (first, second)}
    if action == "remove":
        def act(actor, other):
            return lambda: members.remove(reload(tournament), mine[other.pk].pk, reload(actor))
    else:
        def act(actor, other):
            return lambda: members.set_role(reload(tournament), reload(other), REFEREE, reload(actor))
    outcomes = race(act(first, second), act(second, first))
    left = _organisers(tournament)
    # The invariant: the tournament keeps an organiser.
    assert left, f"two organisers {action}d each other and left the tournament without one"
    # Exactly one change went through; the other was refused (its actor no longer an organiser,
    # or the other one the last organiser).
    assert sum(o.ok for o in outcomes) == 1, [o.error for o in outcomes]
    winner = 0 if outcomes[0].ok else 1
    refused = outcomes[1 - winner].error
    assert isinstance(refused, (PermissionDenied, NotAllowed)), refused
    assert left == [(first, second)[winner].pk]
    assert Membership.objects.filter(tournament=tournament, role=REFEREE).count() == (1 if action == "remove" else 2)
    return "first won" if winner == 0 else "second won"


@pytest.mark.parametrize("action", ["remove", "demote"])
def test_two_organisers_race_to_remove_or_demote_each_other_and_one_organiser_always_stays(action):
    """Two organisers (and a referee): each removes the other's membership (``members.remove``),
    or makes the other a referee (``members.set_role``), at the same moment. After every try one
    organiser is left: the change that came first, and the other was refused."""
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"
    counts = Counter(_one_try(action) for _ in range(TRIES))
    print(f"\norganisers {action} each other: {TRIES} tries, "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ", 0 violations")
