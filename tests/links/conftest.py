"""Fixtures of the private link tests (issue 15): English messages, a clean cache (rate-limit
counters) per test, a snapshot of every row the app keeps, and a world of two tournaments with
player entry on and every entrant's link, built from ``tests/factories.py``."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring.models import EntrantLink, Match, Membership, Round, Table, Team, Tournament
from scoring.participants import links
from scoring.policy import EntrantActor
from tests.api.conftest import db_state as api_db_state
from tests.api.conftest import issue_token
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    named_teams,
)

#: Every row of the app, every user and API token (``tests/api/conftest.py``).
db_state = api_db_state


@pytest.fixture(autouse=True)
def _english_and_fresh_cache(settings):
    settings.LANGUAGE_CODE = "en"
    cache.clear()
    with translation.override("en"):
        yield
    cache.clear()


@pytest.fixture
def one_window(monkeypatch):
    """The rate limiter's clock stands still in the middle of a window, so a test's requests all
    count in one window whenever the test runs (no test straddles a window's end)."""
    from types import SimpleNamespace

    monkeypatch.setattr(links, "time", SimpleNamespace(time=lambda: 1_000_000_030.0))


@pytest.fixture
def english(client):
    client.cookies["django_language"] = "en"
    return client


@dataclass
class LinkWorld:
    """Two tournaments with player entry on:

    - ``tp`` (Tai Pan, NSKT): teams Alpha, Bravo, Charlie, Delta; round 1 published with ``match``
      (Alpha NS - Bravo EW, table 1) and ``match2`` (Charlie - Delta, table 2); round 2 a draft
      with ``draft_match`` (Alpha - Charlie).
    - ``sc`` (Sichuan): players Ann, Ben, Cas, Dee seated E, S, W, N at ``table`` in round 1 and
      Eve, Fay, Gus, Hal at ``table2``; round 2 a draft with ``draft_table`` (Ann's four again).

    ``links``: every entrant's link by name (``"Alpha"``, ``"Ann"``); ``organiser`` organises
    both, ``referee`` and ``confirmer`` referee both, ``outsider`` has no role; every user has an
    API token (``tokens``)."""

    tp: Tournament
    sc: Tournament
    match: Match
    match2: Match
    draft_match: Match
    table: Table
    table2: Table
    draft_table: Table
    teams: dict[str, Team]
    links: dict[str, EntrantLink]
    users: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=dict)

    def __getattr__(self, name):
        users = self.__dict__.get("users", {})
        if name in users:
            return users[name]
        raise AttributeError(name)

    def actor(self, name: str) -> EntrantActor:
        """The entrant ``name`` acting through its link (as a request would build it)."""
        return EntrantActor(EntrantLink.objects.select_related("tournament", "team", "player").get(pk=self.links[name].pk))

    def token(self, name: str) -> str:
        return links.token_of(EntrantLink.objects.get(pk=self.links[name].pk))

    def api(self, who: str | None) -> APIClient:
        """An API client: ``who`` an entrant's name (its link), a user's role name (its token) or
        ``None`` (anonymous)."""
        client = APIClient()
        if who in self.links:
            client.credentials(HTTP_AUTHORIZATION=f"Link {self.token(who)}")
        elif who is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[who].key}")
        return client


def build_link_world(*, player_entry: bool = True, **tournament_kwargs) -> LinkWorld:
    users = {name: UserFactory(username=name) for name in ("organiser", "referee", "confirmer", "outsider")}
    tp = TournamentFactory(name="Tai Pan Cup", slug="tp", player_entry=player_entry, **tournament_kwargs)
    sc = TournamentFactory(name="Sichuan Open", slug="sc", game="sichuan", player_entry=player_entry, **tournament_kwargs)
    for t in (tp, sc):
        MembershipFactory(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
        for name in ("referee", "confirmer"):
            MembershipFactory(tournament=t, user=users[name], role=Membership.Role.REFEREE)
    alpha, bravo, charlie, delta = named_teams(tp, ["Alpha", "Bravo", "Charlie", "Delta"])
    r1 = RoundFactory(tournament=tp, number=1)
    match = MatchFactory(round=r1, table=1, team_ns=alpha, team_ew=bravo)
    match2 = MatchFactory(round=r1, table=2, team_ns=charlie, team_ew=delta)
    r2 = RoundFactory(tournament=tp, number=2, status=Round.Status.DRAFT)
    draft_match = MatchFactory(round=r2, table=1, team_ns=alpha, team_ew=charlie)
    players = {n: PlayerFactory(tournament=sc, name=n) for n in ("Ann", "Ben", "Cas", "Dee", "Eve", "Fay", "Gus", "Hal")}
    s1 = RoundFactory(tournament=sc, number=1)
    table = TableFactory(round=s1, number=1, players=[players[n] for n in ("Ann", "Ben", "Cas", "Dee")])
    table2 = TableFactory(round=s1, number=2, players=[players[n] for n in ("Eve", "Fay", "Gus", "Hal")])
    s2 = RoundFactory(tournament=sc, number=2, status=Round.Status.DRAFT)
    draft_table = TableFactory(round=s2, number=1, players=[players[n] for n in ("Ann", "Ben", "Cas", "Dee")])
    all_links = {str(link.entrant): link for t in (tp, sc) for link in links.ensure_links(t)}
    tokens = {name: issue_token(user) for name, user in users.items()}
    return LinkWorld(tp=tp, sc=sc, match=match, match2=match2, draft_match=draft_match, table=table, table2=table2,
                     draft_table=draft_table, teams={t.name: t for t in (alpha, bravo, charlie, delta)},
                     links=all_links, users=users, tokens=tokens)


@pytest.fixture
def world(db) -> LinkWorld:
    return build_link_world()


def open_link(client, token: str):
    """Open a private link on a phone the way ``/p/#<token>`` does (the page's script posts the
    token from the fragment)."""
    return client.post(reverse("scoring:open_link"), {"code": token})
