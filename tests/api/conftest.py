"""Fixtures of the API tests: an API client, a world of tournaments with staff holding API tokens,
and a snapshot of every row the app keeps (to prove a refused request changed nothing), built
from ``tests/factories.py``."""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring.models import Match, Membership, Round, Table, Tournament
from scoring.participants import api_tokens
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)


@pytest.fixture(autouse=True)
def _english_and_fresh_cache(settings):
    """Messages in English (the source language; Dutch is the site default, the API follows
    ``Accept-Language``) and an empty cache (standings cache and rate-limit counters) per test."""
    settings.LANGUAGE_CODE = "en"
    cache.clear()
    with translation.override("en"):
        yield
    cache.clear()


def db_state() -> dict[str, list[dict]]:
    """Every row of every model of the app (API tokens without ``last_used``) and every user
    (without ``last_login``): equal before and after a request that changed nothing."""
    out = {}
    for model in [*apps.get_app_config("scoring").get_models(), get_user_model()]:
        rows = list(model.objects.order_by("pk").values())
        for row in rows:
            row.pop("last_login", None)
            row.pop("last_used", None)
        out[model._meta.label] = rows
    return out


def api_url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=list(args))


def issue_token(user, name: str = "test") -> api_tokens.Issued:
    """A new API token of ``user`` (30 days); its ``key`` is the secret to send."""
    return api_tokens.issue(user, name)


def client_for(token: api_tokens.Issued | None) -> APIClient:
    """An API client sending ``token`` (anything with the secret as ``key``; ``None``: anonymous)."""
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@dataclass
class ApiWorld:
    """Three tournaments and their staff, each user with an API token:

    - ``tp`` (Tai Pan, NSKT): round 1 published with ``match`` (Team 0 - Team 1, table 1) and
      ``match2`` (Team 2 - Team 3, table 2); round 2 a draft with ``draft_match``.
    - ``sc`` (Sichuan): round 1 published with ``table``; round 2 a draft with ``draft_table``.
    - ``elsewhere`` (Tai Pan): round 1 published with ``other_match``.

    ``organiser`` organises ``tp`` and ``sc``; ``referee`` and ``confirmer`` referee both;
    ``other_referee`` referees ``elsewhere`` only; ``outsider`` has no role anywhere."""

    tp: Tournament
    sc: Tournament
    elsewhere: Tournament
    match: Match
    match2: Match
    draft_match: Match
    table: Table
    draft_table: Table
    other_match: Match
    users: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=dict)

    def client(self, who: str | None) -> APIClient:
        """An API client with ``who``'s token (``None`` or ``"anonymous"``: none)."""
        return client_for(self.tokens.get(who) if who else None)

    def __getattr__(self, name):
        users = self.__dict__.get("users", {})
        if name in users:
            return users[name]
        raise AttributeError(name)


ROLES = ("organiser", "referee", "confirmer", "other_referee", "outsider")


@pytest.fixture
def api_world(db) -> ApiWorld:
    users = {name: UserFactory(username=name) for name in ROLES}
    tp = TournamentFactory(name="Tai Pan Cup", slug="tp")
    sc = TournamentFactory(name="Sichuan Open", slug="sc", game="sichuan")
    elsewhere = TournamentFactory(name="Elsewhere", slug="elsewhere")
    for t in (tp, sc):
        MembershipFactory(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
        for name in ("referee", "confirmer"):
            MembershipFactory(tournament=t, user=users[name], role=Membership.Role.REFEREE)
    MembershipFactory(tournament=elsewhere, user=users["other_referee"], role=Membership.Role.REFEREE)
    teams = [TeamFactory(tournament=tp, name=f"Team {i}", first_player__name=f"Team {i} A",
                         second_player__name=f"Team {i} B") for i in range(4)]
    r1 = RoundFactory(tournament=tp, number=1)
    match = MatchFactory(round=r1, table=1, team_ns=teams[0], team_ew=teams[1])
    match2 = MatchFactory(round=r1, table=2, team_ns=teams[2], team_ew=teams[3])
    r2 = RoundFactory(tournament=tp, number=2, status=Round.Status.DRAFT)
    draft_match = MatchFactory(round=r2, table=1, team_ns=teams[0], team_ew=teams[2])
    sc1 = RoundFactory(tournament=sc, number=1)
    table = TableFactory(round=sc1, number=1)
    sc2 = RoundFactory(tournament=sc, number=2, status=Round.Status.DRAFT)
    draft_table = TableFactory(round=sc2, number=1, players=[s.player for s in table.seats.order_by("seat")])
    e1 = RoundFactory(tournament=elsewhere, number=1)
    other_match = MatchFactory(round=e1, table=1)
    tokens = {name: issue_token(user) for name, user in users.items()}
    return ApiWorld(tp=tp, sc=sc, elsewhere=elsewhere, match=match, match2=match2, draft_match=draft_match,
                    table=table, draft_table=draft_table, other_match=other_match, users=users, tokens=tokens)
