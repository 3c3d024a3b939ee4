"""Private link tokens (issue 15, ``scoring/participants/links.py``): unguessable, stored only as a
SHA-256 (the database never holds a token), reproducible from the nonce and ``SECRET_KEY`` so
cards can be printed again, invalid after regenerating, revoking or changing ``SECRET_KEY``."""
from __future__ import annotations

import hashlib
import json

import pytest
from django.core.cache import caches
from django.db import IntegrityError, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


def test_a_token_is_24_crockford_characters_and_only_its_sha256_is_stored(world):
    link = EntrantLink.objects.get(pk=world.links["Alpha"].pk)
    token = links.token_of(link)
    # Crockford's base32: digits and capitals without the look-alikes I, L, O (nor U); 120 bits.
    assert len(token) == 24 and set(token) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
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
    for typed in (token, token.lower(), links.grouped(token), " " + links.grouped(token).lower() + " "):
        assert links.resolve(typed).pk == world.links["Alpha"].pk, typed
    for wrong in ("", "x", token[:-1], token[:-1] + ("A" if token[-1] != "A" else "B"), token + "A", "'; drop table --"):
        assert links.resolve(wrong) is None, wrong


def test_crockford_encoding_of_known_bytes():
    """Crockford's base32 of 15 bytes: 120 bits, 5 a character, the alphabet without I L O U."""
    assert links.crockford(bytes(15)) == "0" * 24
    assert links.crockford(b"\xff" * 15) == "Z" * 24
    assert links.crockford(bytes(14) + b"\x01") == "0" * 23 + "1"
    assert links.crockford(b"\x08" + bytes(14)) == "1" + "0" * 23  # 00001 000...
    assert links.crockford(bytes([0b10010_100, 0b00_000000]) + bytes(13)) == "J" + "G" + "0" * 22  # 18, 16


@pytest.mark.parametrize("look_alike, digit", [("O", "0"), ("o", "0"), ("I", "1"), ("i", "1"), ("L", "1"), ("l", "1")])
def test_a_look_alike_typed_for_a_digit_opens_the_link(world, look_alike, digit):
    """Typing "l" or "I" for "1", "O" for "0" (Crockford decoding): the link still opens."""
    link = EntrantLink.objects.get(pk=world.links["Bravo"].pk)
    # A token with both digits, for the test: a nonce chosen so that the token holds a 0 and a 1.
    for i in range(10_000):
        link.nonce = f"look-alike-{i}"
        token = links.token_of(link)
        if digit in token:
            break
    link.token_hash = links.hash_of(token)
    link.save()
    typed = token.replace(digit, look_alike)
    assert typed != token and links.resolve(typed).pk == link.pk


_SEPARATORS = st.sampled_from(["", "", "", " ", "-", "  ", " - ", "\t", "\u2011"])
_VARIANTS = {"0": "0oO", "1": "1iIlL"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_spelling_of_a_token_opens_the_same_link(world, data):
    """Property: any variant of a token in case, spaces, dashes and look-alikes resolves to the same
    link (Crockford decoding)."""
    name = data.draw(st.sampled_from(sorted(world.links)))
    token = world.token(name)
    typed = ""
    for char in token:
        choices = _VARIANTS.get(char, char + char.lower())
        typed += data.draw(_SEPARATORS) + data.draw(st.sampled_from(choices))
    typed += data.draw(_SEPARATORS)
    assert links.resolve(typed).pk == world.links[name].pk, typed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.text(max_size=60), st.text(alphabet=links.ALPHABET + "ilo -", min_size=20, max_size=40)))
def test_other_strings_open_no_link(world, raw):
    """Property: a string that does not decode to one of the tokens opens nothing."""
    tokens = {world.token(name) for name in world.links}
    if links.normalise(raw) not in tokens:
        assert links.resolve(raw) is None


def test_existing_links_get_their_new_token_when_printed_again(world):
    """Links made before the tokens were Crockford's (their stored hash is of the old lower-case
    RFC base32 token): the old token no longer opens; opening the links page or printing again
    (ensure_links) stores the new token's hash, and the printed card carries the new token."""
    import base64

    from django.utils.crypto import salted_hmac

    from scoring.printing import cards
    from tests.links.test_printing import text_of

    link = EntrantLink.objects.get(pk=world.links["Alpha"].pk)
    old = base64.b32encode(salted_hmac(links.KEY_SALT, link.nonce, algorithm="sha256").digest()[:15]).decode().lower()
    EntrantLink.objects.filter(pk=link.pk).update(token_hash=links.hash_of(old))
    new = links.token_of(link)
    assert links.resolve(new) is None  # not yet re-hashed
    text, _pages = text_of(cards.entrant_cards_pdf(world.tp, base_url="https://nskt.example.org/"))
    assert links.resolve(new).pk == link.pk and links.resolve(old) is None
    groups = links.grouped(new).split("-")
    assert "-".join(groups[:3]) in text and "-".join(groups[3:]) in text


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
    assert links.parse_rate("10/second") == (10, 1) and links.parse_rate("5/hour") == (5, 3600)

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(ratecache, "_down", None)  # the failure below leaves the cache alone a while
    monkeypatch.setattr(caches["default"], "add", broken)
    assert links.allow("t", "a", "3/minute")
