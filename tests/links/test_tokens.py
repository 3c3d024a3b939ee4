"""Private link tokens (issue 15, ``scoring/participants/links.py``): unguessable, stored only as a
SHA-256 (the database never holds a token), reproducible from the nonce and ``SECRET_KEY`` so
cards can be printed again, invalid after regenerating, revoking or changing ``SECRET_KEY``."""
from __future__ import annotations

import hashlib
import json

import pytest
from django.core.cache import caches
from django.db import IntegrityError, transaction

from scoring import ratecache
from scoring.models import EntrantLink
from scoring.participants import links
from tests.factories import PlayerFactory, TeamFactory, TournamentFactory
from tests.links.conftest import db_state

pytestmark = pytest.mark.django_db


def test_every_entrant_gets_one_link_of_its_kind(world):
    tp_links = links.ensure_links(world.tp)
    assert [str(link.entrant) for link in tp_links] == ["Alpha", "Bravo", "Charlie", "Delta"]
    assert all(link.team_id and link.player_id is None for link in tp_links)
    sc_links = links.ensure_links(world.sc)
    assert len(sc_links) == 8 and all(link.player_id and link.team_id is None for link in sc_links)
    # Asking again makes nothing new and keeps every token.
    again = links.ensure_links(world.tp)
    assert [(link.pk, link.token_hash) for link in again] == [(link.pk, link.token_hash) for link in tp_links]
    assert EntrantLink.objects.count() == 12


def test_a_token_is_24_base32_characters_and_only_its_sha256_is_stored(world):
    link = EntrantLink.objects.get(pk=world.links["Alpha"].pk)
    token = links.token_of(link)
    assert len(token) == 24 and set(token) <= set("abcdefghijklmnopqrstuvwxyz234567")
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest()
    # No row of the database holds any token, in any column.
    dump = json.dumps(db_state(), default=str)
    for name in world.links:
        assert world.token(name) not in dump, name
    # Tokens differ per link (120 random bits each).
    assert len({world.token(name) for name in world.links}) == len(world.links)


def test_the_token_is_reproducible_for_printing_again(world):
    link = EntrantLink.objects.get(pk=world.links["Bravo"].pk)
    assert links.token_of(link) == links.token_of(EntrantLink.objects.get(pk=link.pk))
    assert links.path_of(link) == f"/p/#{links.token_of(link)}"
    assert links.url_of(link, "https://nskt.example.org/") == f"https://nskt.example.org/p/#{links.token_of(link)}"
    assert links.grouped(links.token_of(link)).count("-") == 5


def test_resolve_accepts_the_token_as_typed(world):
    token = world.token("Alpha")
    for typed in (token, token.upper(), links.grouped(token), " " + links.grouped(token).upper() + " "):
        assert links.resolve(typed).pk == world.links["Alpha"].pk, typed
    for wrong in ("", "x", token[:-1], token[:-1] + ("a" if token[-1] != "a" else "b"), token + "a", "'; drop table --"):
        assert links.resolve(wrong) is None, wrong


def test_regenerating_gives_a_new_token_and_the_old_one_stops_working(world):
    link = EntrantLink.objects.get(pk=world.links["Alpha"].pk)
    old = links.token_of(link)
    links.regenerate(link)
    new = links.token_of(link)
    assert new != old
    assert links.resolve(old) is None
    assert links.resolve(new).pk == link.pk


def test_a_revoked_link_stops_working_until_it_is_regenerated(world):
    link = EntrantLink.objects.get(pk=world.links["Ann"].pk)
    token = links.token_of(link)
    links.revoke(link)
    assert links.resolve(token) is None
    links.regenerate(link)
    assert not link.revoked and links.resolve(links.token_of(link)).pk == link.pk
    assert links.resolve(token) is None


def test_a_new_secret_key_invalidates_every_printed_link(world, settings):
    old = {name: world.token(name) for name in ("Alpha", "Ann")}
    settings.SECRET_KEY = "another-secret-key-for-this-test-only-0123456789"
    for token in old.values():
        assert links.resolve(token) is None
    # Printing again (ensure_links) re-hashes: the new tokens work, the old ones never again.
    links.ensure_links(world.tp)
    links.ensure_links(world.sc)
    for name, token in old.items():
        new = world.token(name)
        assert new != token and links.resolve(new).pk == world.links[name].pk
        assert links.resolve(token) is None


def test_a_link_belongs_to_a_team_or_a_player_never_both(db):
    t = TournamentFactory()
    team, player = TeamFactory(tournament=t), PlayerFactory(tournament=t)
    link = links.link_for(team)
    assert link.team_id == team.pk and links.link_for(team).pk == link.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantLink.objects.create(tournament=t, team=TeamFactory(tournament=t), player=player, nonce="n",
                                   token_hash="h", issued_at=link.issued_at)
    with pytest.raises(IntegrityError), transaction.atomic():
        EntrantLink.objects.create(tournament=t, nonce="n2", token_hash="h2", issued_at=link.issued_at)


def test_the_rate_limiter_counts_per_window_and_lets_through_when_the_cache_fails(monkeypatch, one_window):
    assert [links.allow("t", "a", "3/minute") for _ in range(4)] == [True, True, True, False]
    assert links.allow("t", "b", "3/minute")  # per ident
    assert links.exceeded("t", "a", "3/minute") and not links.exceeded("t", "b", "3/minute")  # looking does not count
    assert not links.exceeded("t", "b", "3/minute") and links.allow("t", "b", "3/minute")
    assert links.parse_rate("10/second") == (10, 1) and links.parse_rate("5/hour") == (5, 3600)

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(ratecache, "_down", None)  # the failure below leaves the cache alone a while
    monkeypatch.setattr(caches["default"], "add", broken)
    assert links.allow("t", "a", "3/minute")
