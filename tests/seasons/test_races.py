"""Races on one season, on PostgreSQL (as tests/results/test_races.py): several managers save the
edit form built from the same version at the same moment, released together by a barrier
(:func:`tests.race.race`), each in its own thread and database connection; several organisers
create a season with the same name at the same moment.

Invariants: of the edits built from one version exactly one is acknowledged and stored, the others
are refused as stale (no lost update); of the creations exactly one season exists and every other
creation is refused as a slug error (never an ``IntegrityError``)."""
from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError

from scoring.errors import StaleVersion
from scoring.models import Membership, Season
from scoring.seasons.manage import save_season
from tests.factories import MembershipFactory, TournamentFactory, UserFactory
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race (RACE_TRIES=N for a longer run).
TRIES = max(1, int(os.environ.get("RACE_TRIES", "10")))


def _organisers(n: int) -> list:
    t = TournamentFactory()
    users = [UserFactory() for _ in range(n)]
    for user in users:
        MembershipFactory(tournament=t, user=user, role=Membership.Role.ORGANISER)
    return users


def _refusal_or(value_of):
    """``value_of()``, or the slug ``ValidationError`` it raised (a refusal, not a failure)."""
    def run():
        try:
            return value_of()
        except ValidationError as exc:
            return exc
    return run


def test_simultaneous_edits_from_one_version_keep_exactly_one():
    managers = _organisers(10)
    s = Season.objects.create(name="Season", slug="s1", created_by=managers[0])
    s.managers.set(managers[1:])
    for attempt in range(TRIES):
        version = Season.objects.get(pk=s.pk).version

        def edit(i, attempt=attempt, version=version):
            return lambda: save_season(Season.objects.get(pk=s.pk), managers[i], {"description": f"{attempt}-{i}"},
                                       expected_version=version)
        outcomes = race(*[edit(i) for i in range(len(managers))])
        acknowledged = [i for i, o in enumerate(outcomes) if o.ok]
        assert len(acknowledged) == 1, outcomes
        assert all(isinstance(o.error, StaleVersion) for o in outcomes if not o.ok)
        stored = Season.objects.get(pk=s.pk)
        assert stored.version == version + 1 and stored.description == f"{attempt}-{acknowledged[0]}"


def test_simultaneous_creations_with_one_name_make_one_season():
    organisers = _organisers(8)
    for attempt in range(TRIES):
        name = f"Cup {attempt}"
        outcomes = race(*[_refusal_or(lambda u=u, name=name: save_season(None, u, {"name": name})) for u in organisers])
        made = [o.value for o in outcomes if isinstance(o.value, Season)]
        refused = [o.value for o in outcomes if isinstance(o.value, ValidationError)]
        assert len(made) == 1 and len(refused) == len(organisers) - 1, outcomes
        assert all(list(err.message_dict) == ["slug"] for err in refused)
        assert Season.objects.filter(name=name).count() == 1
