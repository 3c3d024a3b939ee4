"""Concurrent referees never lose or duplicate a record (issue 5 item 4), tested with threads
against PostgreSQL, for both kinds of result (Tai Pan matches: hands; four-player Sichuan tables:
deals) through the one result sheet (:mod:`scoring.results.sheet`): every record acknowledged to
a referee is in the database exactly once, numbers stay unique and contiguous, and a stale edit is
refused with StaleVersion instead of overwriting.

Migrated from ``tests/test_concurrency.py`` (``scoring.results.matches.add_hand``/``update_hand``
-> ``sheet.add_record``/``edit_record``; the referees now hold the referee role in the
tournament, which every service write checks)."""
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from scoring.errors import StaleVersion
from scoring.models import Deal, Hand, Match, Table
from scoring.results import sheet
from tests.factories import staff, table_round, taipan_round

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TABLES = 25
SUBMISSIONS = 500
THREADS = 20
# 50:50 hands without calls: totals stay equal, so the match never finishes (equal totals at or
# above the target play on, docs/engines/taipan.md) and every submission contends for the same rows.
EVEN_HAND = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}
#: A Sichuan deal: East wins by self-draw with all chows and one pair (no fan items, base 1): each
#: other player pays 1 + 1 for the self-draw (docs/engines/sichuan.md). A table without a fixed number of
#: deals never finishes by itself (only at the time limit), so every submission contends.
EAST_SELF_DRAW = {"events": [{"type": "win", "player": "E", "hand": {
    "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
    "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None}
SOUTH_SELF_DRAW = {"events": [{"type": "win", "player": "S", "hand": EAST_SELF_DRAW["events"][0]["hand"]}], "exhaustion": None}
WEST_SELF_DRAW = {"events": [{"type": "win", "player": "W", "hand": EAST_SELF_DRAW["events"][0]["hand"]}], "exhaustion": None}

KINDS = {
    # kind: (container model, record model, record's foreign key, one record, its totals per side)
    "match": (Match, Hand, "match_id", EVEN_HAND, [50, 50]),
    "table": (Table, Deal, "table_id", EAST_SELF_DRAW, [6, -2, -2, -2]),
}


def _world(kind: str):
    """One published round of :data:`TABLES` results of ``kind`` and four referees."""
    if kind == "match":
        rnd, _ = taipan_round(tables=TABLES)
    else:
        rnd, _ = table_round("sichuan", tables=TABLES)
    return staff(rnd.tournament, referees=4)["referees"]


def _totals(container) -> list[int]:
    if isinstance(container, Match):
        return [container.total_ns, container.total_ew]
    return [s.total for s in container.seats.order_by("seat")]


@pytest.mark.parametrize("kind", KINDS)
def test_concurrent_submissions_lose_and_duplicate_nothing(kind):
    assert connection.vendor == "postgresql"
    container_model, record_model, fk, record, per_record = KINDS[kind]
    referees = _world(kind)
    ids = list(container_model.objects.values_list("pk", flat=True))
    acknowledged: list[tuple[int, int]] = []  # (container id, record pk)
    stale = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def submit(i: int) -> None:
        rng = random.Random(i)
        try:
            if i < THREADS:
                start.wait(timeout=30)
            container = container_model.objects.get(pk=rng.choice(ids))
            # Half the referees send the version their page showed (optimistic check), half append.
            expected = container.version if i % 2 else None
            try:
                rec = sheet.add_record(container, dict(record), rng.choice(referees), expected_version=expected)
            except StaleVersion:
                with lock:
                    stale.append(i)
                return
            with lock:
                acknowledged.append((container.pk, rec.pk))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(submit, range(SUBMISSIONS)))

    assert len(acknowledged) + len(stale) == SUBMISSIONS
    stored = list(record_model.objects.values_list(fk, "pk", "number"))
    # Exactly once: the stored records are exactly the acknowledged ones.
    assert sorted((c, pk) for c, pk, _ in stored) == sorted(acknowledged)
    for container in container_model.objects.all():
        numbers = sorted(n for c, _, n in stored if c == container.pk)
        assert numbers == list(range(1, len(numbers) + 1)), f"{kind} {container.pk}: {numbers}"
        assert _totals(container) == [x * len(numbers) for x in per_record]
    print(f"\n{SUBMISSIONS} concurrent submissions ({kind}): {len(acknowledged)} acknowledged and stored once, "
          f"{len(stale)} refused as stale, 0 lost, 0 duplicated")


EDITS = {
    "match": [
        {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 60, "EW": 40}},
        {"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 30, "EW": 70}},
    ],
    "table": [SOUTH_SELF_DRAW, WEST_SELF_DRAW],
}


@pytest.mark.parametrize("kind", KINDS)
def test_two_referees_editing_the_same_record_one_wins_one_is_told_to_reload(kind):
    container_model, record_model, fk, record, _ = KINDS[kind]
    referees = _world(kind)
    container = container_model.objects.first()
    rec = sheet.add_record(container, dict(record), referees[0])
    container.refresh_from_db()
    version = container.version
    edits = EDITS[kind]
    outcomes = []
    barrier = threading.Barrier(2)

    def edit(k: int) -> None:
        try:
            barrier.wait(timeout=30)
            sheet.edit_record(container_model.objects.get(pk=container.pk), rec.number, edits[k], referees[k + 1],
                              expected_version=version, reason="typo")
            outcomes.append(("ok", k))
        except StaleVersion:
            outcomes.append(("stale", k))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=edit, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o for o, _ in outcomes) == ["ok", "stale"]
    winner = next(k for o, k in outcomes if o == "ok")
    rec.refresh_from_db()
    # The winner's record is stored as entered (the engine may add derived keys, e.g. the seats).
    assert {key: rec.record.get(key) for key in edits[winner]} == edits[winner]
    assert record_model.objects.filter(**{fk: container.pk}).count() == 1
