"""Fuzzed tournament JSON imports (issue 12 items 3 and 8): hypothesis replaces a value anywhere in
a real export (of each game) with a generated one (text with control characters, huge and
negative numbers, wrong types, nested lists and objects), or generates whole JSON documents. The
import either succeeds or is refused with :class:`ImportRefused` listing JSON paths; it never
raises anything else, and a refusal creates nothing. ``FUZZ_EXAMPLES`` examples per game."""
from __future__ import annotations

import copy
import json
import os

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.io.tournament_json import ImportRefused, load_tournament
from scoring.models import Deal, Hand, Match, Membership, Player, Round, Table, Team, Tournament
from tests.factories import UserFactory
from tests.io.hostile.make import base
from tests.io.played import USERNAMES

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8")) * 3

SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=False),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40),
    st.sampled_from(["", "\x00", "\u200b", "../../x y", "closed", "draft", "time", "target", "NS", "E", "taipan", "2024-02-30"]),
)
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)


def paths(value, prefix=()):
    """Every path to a value inside ``value`` (objects and lists), the root excluded."""
    out = []
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return out
    for key, child in items:
        out.append((*prefix, key))
        out += paths(child, (*prefix, key))
    return out


def counts():
    return [m.objects.count() for m in (Tournament, Membership, Team, Player, Round, Match, Hand, Table, Deal)]


class _Rollback(Exception):
    pass


def attempt(text: str) -> None:
    try:
        with transaction.atomic():
            before = counts()
            try:
                load_tournament(text, slug="fuzzed")
            except ImportRefused as exc:
                assert exc.errors and all(path.startswith(("$", "--")) for path, _msg in exc.errors)
                assert counts() == before
            raise _Rollback
    except _Rollback:
        pass


@pytest.fixture
def accounts():
    return [UserFactory(username=u) for u in USERNAMES]


FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.every_game
def test_a_mutated_export_is_imported_or_refused_cleanly(game, accounts):
    original = base(game)
    where = paths(original)

    @FUZZ
    @given(st.data())
    def run(data):
        doc = copy.deepcopy(original)
        for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
            path = data.draw(st.sampled_from(where))
            target = doc
            try:
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = data.draw(JSON)
            except (KeyError, IndexError, TypeError):
                continue  # an earlier change removed this place
        attempt(json.dumps(doc))

    run()


def test_generated_documents_are_refused_cleanly(accounts):
    @FUZZ
    @given(JSON)
    def run(doc):
        attempt(json.dumps(doc))

    run()


def test_a_valid_mutation_still_imports(accounts):
    """Control: the harness does import a file that is still valid (a renamed venue)."""
    doc = base("sichuan")
    doc["venue"] = "Elsewhere"
    t = load_tournament(json.dumps(doc), slug="fuzzed").tournament
    assert t.venue == "Elsewhere" and t.players.count() == 9


@pytest.mark.every_game
@pytest.mark.parametrize("where", ["key", "value"])
def test_a_nul_character_in_a_record_is_refused_not_half_imported(game, where, accounts):
    """Found by the fuzzing above on PostgreSQL: a Tien Gow deal holding ``{"banker": {"\\x00":
    null}}`` reached the database, which cannot store U+0000 in jsonb, and the import failed with a
    database error. Every record (hand or deal) is refused at the schema, with its path."""
    doc = base(game)
    records = [r for rnd in doc["rounds"] for unit in rnd.get("matches", []) + rnd.get("tables", [])
               for r in unit.get("hands", []) + unit.get("deals", [])]
    assert records, "the export has a record to spoil"
    records[0]["extra"] = {"\x00": None} if where == "key" else "a\x00b"
    before = counts()
    with pytest.raises(ImportRefused) as refused:
        load_tournament(json.dumps(doc), slug="nul")
    assert any("NUL character" in message for _path, message in refused.value.errors), refused.value.errors
    assert counts() == before


@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_numbers_json_does_not_have_are_refused(accounts, constant):
    """Found by the fuzz on PostgreSQL: a Tien Gow deal's ``"banker": Infinity`` was accepted and
    then refused by ``jsonb`` mid-import. JSON has no such numbers: the file is refused, naming
    the word, and nothing is stored. The same words inside a string are text and stay allowed."""
    doc = base("tiengow")
    text = json.dumps(doc).replace('"banker": 0', f'"banker": {constant}', 1)
    assert constant in text
    before = counts()
    with pytest.raises(ImportRefused) as refused:
        load_tournament(text, slug="fuzzed")
    assert refused.value.errors == [("$", f"not valid JSON: {constant} is not a JSON number")]
    assert counts() == before
    doc["venue"] = f"Hall {constant}"
    assert load_tournament(json.dumps(doc), slug="fuzzed").tournament.venue == f"Hall {constant}"
