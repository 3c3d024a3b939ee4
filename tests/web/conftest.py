"""Fixtures of the web tests: English pages, a clean cache and media folder per test, a snapshot of
every row the app keeps (to prove a refused request changed nothing) and a small world of two
running tournaments (Tai Pan and Sichuan) with their staff, built from ``tests/factories.py``."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache

from scoring.models import Match, Membership, Player, Round, Table, Team, Tournament
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)


@pytest.fixture
def english(client, settings):
    """Pages in English (the source language) whatever translations exist, also after a logout
    (which drops the client's cookies); Dutch is the site's default (``tests/web/test_dutch.py``)."""
    settings.LANGUAGE_CODE = "en"
    client.cookies["django_language"] = "en"


@pytest.fixture(autouse=True)
def _fresh_cache_and_media(settings, tmp_path):
    """The in-process cache outlives a test's database rollback: start each test with an empty one,
    and write round packs to a temporary media folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


def db_state() -> dict[str, list[dict]]:
    """Every row of every model of the app and every user (without ``last_login``, which a login
    updates): equal before and after a request that changed nothing."""
    out = {}
    for model in [*apps.get_app_config("scoring").get_models(), get_user_model()]:
        rows = list(model.objects.order_by("pk").values())
        for row in rows:
            row.pop("last_login", None)
        out[model._meta.label] = rows
    return out


@dataclass
class World:
    """Two running tournaments with the same staff: ``tp`` (Tai Pan; round 1 published, matches
    ``match`` and ``match2`` between four teams) and ``sc`` (Sichuan; round 1 published, ``table``
    with four seated players). ``organiser`` organises both, ``referee`` and ``confirmer`` referee
    both; ``other_referee`` referees only ``elsewhere``; ``outsider`` is logged in without a role;
    ``staff_user`` is a staff user without a role."""

    organiser: object
    referee: object
    confirmer: object
    other_referee: object
    outsider: object
    staff_user: object
    tp: Tournament
    tp_round: Round
    match: Match
    match2: Match
    teams: list[Team]
    sc: Tournament
    sc_round: Round
    table: Table
    players: list[Player]
    elsewhere: Tournament

    def users(self) -> dict[str, object]:
        return {"organiser": self.organiser, "referee": self.referee, "outsider": self.outsider,
                "other_referee": self.other_referee}

    def add_staff(self, tournament: Tournament) -> Tournament:
        """Give this world's organiser, referee and confirmer their roles in ``tournament``."""
        MembershipFactory(tournament=tournament, user=self.organiser, role=Membership.Role.ORGANISER)
        for user in (self.referee, self.confirmer):
            MembershipFactory(tournament=tournament, user=user, role=Membership.Role.REFEREE)
        return tournament


@pytest.fixture
def world(db) -> World:
    names = ("organiser", "referee", "confirmer", "other_referee", "outsider")
    users = {name: UserFactory(username=name) for name in names}
    users["staff_user"] = UserFactory(username="staff", is_staff=True)
    tp = TournamentFactory(name="Tai Pan Cup", slug="tp")
    sc = TournamentFactory(name="Sichuan Open", slug="sc", game="sichuan")
    elsewhere = TournamentFactory(name="Elsewhere", slug="elsewhere")
    MembershipFactory(tournament=elsewhere, user=users["other_referee"], role=Membership.Role.REFEREE)
    teams = [TeamFactory(tournament=tp, name=f"Team {i}") for i in range(4)]
    tp_round = RoundFactory(tournament=tp, number=1)
    match = MatchFactory(round=tp_round, table=1, team_ns=teams[0], team_ew=teams[1])
    match2 = MatchFactory(round=tp_round, table=2, team_ns=teams[2], team_ew=teams[3])
    sc_round = RoundFactory(tournament=sc, number=1)
    table = TableFactory(round=sc_round, number=1)
    w = World(tp=tp, tp_round=tp_round, match=match, match2=match2, teams=teams, sc=sc, sc_round=sc_round,
              table=table, players=[s.player for s in table.seats.order_by("seat")], elsewhere=elsewhere, **users)
    w.add_staff(tp)
    w.add_staff(sc)
    return w


@dataclass
class Cup:
    """A Tai Pan tournament ``nskt`` (NSKT rules; tie-breaks point difference, Buchholz, points
    scored) in registration with teams ``Team 0``..``Team 3`` (players ``Team i A``/``Team i B``),
    its ``organiser`` and a ``referee``."""

    tournament: Tournament
    organiser: object
    referee: object


@pytest.fixture
def cup(db) -> Cup:
    t = TournamentFactory(name="NSKT", slug="nskt", rules={"preset": "nskt"},
                          tiebreaks=["point_difference", "buchholz", "points_scored"])
    for i in range(4):
        TeamFactory(tournament=t, name=f"Team {i}", first_player__name=f"Team {i} A", second_player__name=f"Team {i} B")
    organiser = MembershipFactory(tournament=t, user__username="org", role=Membership.Role.ORGANISER).user
    referee = MembershipFactory(tournament=t, user__username="ref", role=Membership.Role.REFEREE).user
    return Cup(t, organiser, referee)
