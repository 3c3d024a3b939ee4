"""Races on one result (issue 10 item 4), on PostgreSQL: two people act on the same result at the
same moment, released together by a barrier (:func:`tests.race.race`), each in its own thread and
database connection, at least :data:`TRIES` times per race; the invariant is checked after every
try. Both kinds of result: a Tai Pan match (hands) and a four-player Sichuan table (deals).

Each actor passes the version its page showed before the barrier (``expected_version``), as the
web forms do. The result sheet locks the round, then the result, and checks that version inside
the lock (:mod:`scoring.results.sheet`), so of two changes made from the same version only the
first one is acknowledged; the other is refused (stale, or locked once confirmed).

Invariants (docs/tournaments.md: results are confirmed by a second person; every change is kept with who,
when and why):

- confirm vs edit: a confirmation always confirms the totals its confirmer saw;
- restore vs edit: no acknowledged change is lost (overwritten by someone who never saw it);
- close round vs reopen: a closed round holds only confirmed results;
- delete vs save: numbers stay 1..n, no acknowledged save is lost, an acknowledged delete removed
  exactly the record it named.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.db import connection

from scoring.draw import rounds
from scoring.draw.lifecycle import unconfirmed_numbers
from scoring.errors import Locked, NotAllowed, StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry, Confirmation, ResultContainer, Round
from scoring.results import sheet
from tests.factories import staff, table_round, taipan_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50 (the issue), more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
KINDS = ["match", "table"]


def _taipan_hand(first_out: str, ns: int) -> dict:
    """A Tai Pan hand without calls: ``first_out`` went out first, card points NS ``ns``, EW
    ``100 - ns`` (NSKT: the card points of a hand add up to 100, so four hands stay far below the
    target of 800 and the match plays on)."""
    return {"calls": {}, "first_out": first_out, "double_victory": None, "card_points": {"NS": ns, "EW": 100 - ns}}


def _sichuan_self_draw(player: str) -> dict:
    """A Sichuan deal: ``player`` wins by self-draw with all chows and one pair (no fan items,
    base 1): each other player pays 1 + 1 for the self-draw, the winner gets 6 (docs/engines/sichuan.md)."""
    return {"events": [{"type": "win", "player": player, "hand": {
        "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
        "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None}


#: Four records per kind, told apart by :func:`ident` (who went out first / who won).
RECORDS = {
    "match": [_taipan_hand("N", 75), _taipan_hand("E", 60), _taipan_hand("S", 45), _taipan_hand("W", 30)],
    "table": [_sichuan_self_draw("E"), _sichuan_self_draw("S"), _sichuan_self_draw("W"), _sichuan_self_draw("N")],
}
#: The totals each single record gives: Tai Pan NS : EW card points; Sichuan net per seat E, S, W, N.
TOTALS = {
    "match": [[75, 25], [60, 40], [45, 55], [30, 70]],
    "table": [[6, -2, -2, -2], [-2, 6, -2, -2], [-2, -2, 6, -2], [-2, -2, -2, 6]],
}


def ident(kind: str, record: dict) -> int:
    """Which of ``RECORDS[kind]`` a stored record is (0..3)."""
    if kind == "match":
        return "NESW".index(record["first_out"])
    return "ESWN".index(record["events"][0]["player"])


def reload(obj):
    """A fresh copy of ``obj`` from the database, as a request would read it (users too: no role
    cached on a shared object)."""
    return type(obj).objects.get(pk=obj.pk)


def world(kind: str, *, records: int = 1, end: bool = False, confirm: bool = False) -> tuple[ResultContainer, dict]:
    """A published round with one result of ``kind`` and its staff (an organiser, two referees):
    the first referee entered ``records`` of ``RECORDS[kind]`` and, with ``end``, ended it at the
    time limit; with ``confirm`` the second referee confirmed it."""
    if kind == "match":
        rnd, (container,) = taipan_round()
    else:
        rnd, (container,) = table_round("sichuan")
    people = staff(rnd.tournament)
    entering, other = people["referees"]
    for record in RECORDS[kind][:records]:
        sheet.add_record(container, record, entering, expected_version=container.version)
    if end:
        sheet.end_at_time(container, entering, expected_version=container.version, reason="time limit")
    if confirm:
        sheet.confirm(container, other, expected_version=container.version)
    return container, people


def stored(container: ResultContainer) -> list[tuple[int, int, int]]:
    """``(number, pk, ident)`` of the result's records in number order."""
    result_kind = kind_of(container)
    return [(r.number, r.pk, ident(result_kind.key, r.record)) for r in result_kind.records(container)]


def entries_after(container: ResultContainer, after: int) -> list[AuditEntry]:
    """The result's audit entries written after entry id ``after``, in the order written."""
    link = kind_of(container).audit_link(container)
    return list(AuditEntry.objects.filter(pk__gt=after, **link).order_by("pk"))


def last_entry_id() -> int:
    return AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def report(name: str, counts: Counter) -> None:
    print(f"\n{name}: {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ", 0 violations")


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


# --------------------------------------------------------------------------- 1. confirm vs edit


def _confirm_vs_edit(kind: str) -> str:
    container, people = world(kind, records=1, end=True)
    editor, confirmer = people["referees"]
    result_kind = kind_of(container)
    seen_version, seen_totals = container.version, result_kind.confirmation_totals(container)
    confirm, edit = race(
        lambda: sheet.confirm(reload(container), reload(confirmer), expected_version=seen_version),
        lambda: sheet.edit_record(reload(container), 1, RECORDS[kind][3], reload(editor),
                                  expected_version=seen_version, reason="typo"),
    )
    container.refresh_from_db()
    active = Confirmation.objects.filter(active=True, **result_kind.audit_link(container)).first()
    if confirm.ok:
        # The stored confirmation is of the totals the confirmer saw, and they are still the totals.
        assert confirm.value.totals == seen_totals
        assert active is not None and active.totals == seen_totals
        assert container.status == ResultContainer.Status.CONFIRMED
        assert result_kind.confirmation_totals(container) == seen_totals
        assert not edit.ok, "an edit was acknowledged on a confirmed result"
        assert isinstance(edit.error, (StaleVersion, Locked)), edit.error
        return "confirm won"
    assert isinstance(confirm.error, StaleVersion), confirm.error
    assert edit.ok, f"neither was acknowledged: {edit.error!r}"
    assert active is None and container.status == ResultContainer.Status.FINISHED
    assert result_kind.totals(container) == TOTALS[kind][3]
    return "edit won"


@pytest.mark.parametrize("kind", KINDS)
def test_confirm_vs_edit_race_a_confirmation_always_confirms_the_totals_its_confirmer_saw(kind):
    """A finished result (one record, ended at the time limit; no blind confirmation, so the
    version is the only guard): one referee confirms the version their page showed while the
    other corrects the record to other totals. Whenever the confirmation is acknowledged, its
    stored totals are the ones the confirmer saw, and the result still has them."""
    counts = Counter(_confirm_vs_edit(kind) for _ in range(TRIES))
    report(f"confirm vs edit ({kind})", counts)


# --------------------------------------------------------------------------- 2. restore vs edit


def _restore_vs_edit(kind: str) -> str:
    container, people = world(kind, records=1)
    editor, restorer = people["referees"]
    result_kind = kind_of(container)
    created = entries_after(container, 0)[0]  # the entry of record 1 as first entered (RECORDS[0])
    sheet.edit_record(container, 1, RECORDS[kind][1], editor, expected_version=container.version, reason="typo")
    seen_version, after = container.version, last_entry_id()
    restore, edit = race(
        lambda: sheet.restore(reload(container), created, reload(restorer), expected_version=seen_version,
                              reason="the first entry was right"),
        lambda: sheet.edit_record(reload(container), 1, RECORDS[kind][2], reload(editor),
                                  expected_version=seen_version, reason="another typo"),
    )
    acknowledged = {"restore": restore, "edit": edit}
    entries = entries_after(container, after)
    # Every acknowledged change is in the audit trail, and nothing else was written.
    assert sorted(e.action for e in entries) == sorted(
        {"restore": AuditEntry.Action.RESTORE, "edit": AuditEntry.Action.UPDATE}[k] for k, o in acknowledged.items() if o.ok)
    assert entries, f"neither was acknowledged: {restore.error!r}, {edit.error!r}"
    for entry in entries:
        # Each acknowledged change replaced the version its actor saw (RECORDS[1]), never an
        # acknowledged change its actor did not see (that change would be lost).
        assert ident(kind, entry.old["record"]) == 1, f"{entry.action} overwrote an acknowledged change it never saw"
    # The final record is the one of the change acknowledged last.
    (number, _pk, final), = stored(container)
    assert final == ident(kind, entries[-1].new["record"])
    for outcome in acknowledged.values():
        if not outcome.ok:
            assert isinstance(outcome.error, StaleVersion), outcome.error
    container.refresh_from_db()
    assert result_kind.totals(container) == TOTALS[kind][final]
    return "restore won" if restore.ok else "edit won"


@pytest.mark.parametrize("kind", KINDS)
def test_restore_vs_edit_race_no_acknowledged_change_is_lost(kind):
    """Record 1 was entered (RECORDS[0]) and corrected (RECORDS[1]). One referee restores the first
    entry from the audit trail while the other corrects record 1 again (RECORDS[2]), both from the
    same page version. After both: every acknowledged change is in the audit trail, none of them
    overwrote a change its actor never saw, and the record is the one acknowledged last."""
    counts = Counter(_restore_vs_edit(kind) for _ in range(TRIES))
    report(f"restore vs edit ({kind})", counts)


# --------------------------------------------------------------------------- 3. close round vs reopen


def _close_vs_reopen(kind: str, by_organiser: bool) -> str:
    container, people = world(kind, records=1, end=True, confirm=True)
    rnd = Round.objects.get(pk=container.round_id)
    organiser = people["organiser"]
    reopener = organiser if by_organiser else people["referees"][0]
    seen_version = container.version
    close, reopen = race(
        lambda: rounds.close_round(reload(rnd), reload(organiser)),
        lambda: sheet.reopen(reload(container), reload(reopener), "wrong totals", expected_version=seen_version),
    )
    rnd.refresh_from_db()
    container.refresh_from_db()
    # The invariant: a closed round holds only confirmed results.
    if rnd.status == Round.Status.CLOSED:
        assert unconfirmed_numbers(rnd) == [], "a closed round holds an unconfirmed result"
        assert container.status == ResultContainer.Status.CONFIRMED
    active = Confirmation.objects.filter(active=True, **kind_of(container).audit_link(container)).count()
    if reopen.ok:
        assert container.status == ResultContainer.Status.FINISHED and active == 0
        assert rnd.status == Round.Status.IN_PROGRESS
    else:
        assert container.status == ResultContainer.Status.CONFIRMED and active == 1
    if close.ok and reopen.ok:
        # Closed first, then an organiser reopened the result: the round is in progress again.
        assert by_organiser
        return "closed, then reopened"
    if close.ok:
        assert rnd.status == Round.Status.CLOSED
        assert not by_organiser and reopen.error is not None  # a referee may not reopen in a closed round
        return "closed, reopen refused"
    assert isinstance(close.error, NotAllowed), close.error
    assert reopen.ok, f"neither was acknowledged: {reopen.error!r}"
    return "reopened, close refused"


@pytest.mark.parametrize("kind", KINDS)
def test_close_round_vs_reopen_race_a_closed_round_holds_only_confirmed_results(kind):
    """A round whose only result is confirmed: the organiser closes the round while someone
    reopens the result (a referee in even tries, who may not reopen once the round is closed; the
    organiser in odd tries, whose reopening puts a closed round back to in progress). After every
    try a closed round holds only confirmed results."""
    counts = Counter(_close_vs_reopen(kind, by_organiser=bool(i % 2)) for i in range(TRIES))
    report(f"close round vs reopen ({kind})", counts)


# --------------------------------------------------------------------------- 5. delete vs save


SAVES = ("add", "append", "edit")


def _delete_vs_save(kind: str, save: str) -> str:
    container, people = world(kind, records=3)
    deleter, saver = people["referees"]
    before = stored(container)  # [(1, pk, 0), (2, pk, 1), (3, pk, 2)]
    named = before[1]  # the deleter names record 2
    seen_version, after = container.version, last_entry_id()
    new = RECORDS[kind][3]
    if save == "edit":
        def saving():
            return sheet.edit_record(reload(container), 3, new, reload(saver), expected_version=seen_version, reason="typo")
    else:
        # "add": from the page's version; "append": without one (the services allow appending
        # without a version; only the order of the records then depends on who comes first).
        expected = seen_version if save == "add" else None

        def saving():
            return sheet.add_record(reload(container), new, reload(saver), expected_version=expected)
    delete, saved = race(
        lambda: sheet.delete_record(reload(container), named[0], reload(deleter), expected_version=seen_version,
                                    reason="entered twice"),
        saving,
    )
    result = stored(container)
    # Numbers stay 1..n without gaps or duplicates.
    assert [n for n, _, _ in result] == list(range(1, len(result) + 1))
    # Replay the acknowledged changes in the order they were written on the records as they were.
    entries = entries_after(container, after)
    assert len(entries) == delete.ok + saved.ok, "an acknowledged change is missing from the audit trail"
    expected_records = [(pk, which) for _, pk, which in before]
    for entry in entries:
        if entry.action == AuditEntry.Action.DELETE:
            # The delete removed exactly the record it named.
            assert entry.object_id == named[1] and ident(kind, entry.old["record"]) == named[2]
            expected_records = [r for r in expected_records if r[0] != named[1]]
        elif entry.action == AuditEntry.Action.CREATE:
            assert saved.ok and entry.object_id == saved.value.pk
            expected_records.append((saved.value.pk, 3))
        else:
            assert entry.action == AuditEntry.Action.UPDATE and entry.object_id == before[2][1]
            expected_records = [(pk, 3 if pk == before[2][1] else which) for pk, which in expected_records]
    assert [(pk, which) for _, pk, which in result] == expected_records
    if saved.ok:  # no acknowledged save is lost
        assert any(pk == saved.value.pk and which == 3 for _, pk, which in result)
    if delete.ok:
        assert all(pk != named[1] for _, pk, _ in result)
    for outcome in (delete, saved):
        if not outcome.ok:
            assert isinstance(outcome.error, StaleVersion), outcome.error
    assert delete.ok or saved.ok, "neither was acknowledged"
    container.refresh_from_db()
    totals = [sum(TOTALS[kind][which][i] for _, _, which in result) for i in range(len(TOTALS[kind][0]))]
    assert kind_of(container).totals(container) == totals
    return "both" if delete.ok and saved.ok else "delete won" if delete.ok else f"{save} won"


@pytest.mark.parametrize("save", SAVES)
@pytest.mark.parametrize("kind", KINDS)
def test_delete_vs_save_race_numbers_stay_one_to_n_and_nothing_acknowledged_is_lost(kind, save):
    """Three records: one referee deletes record 2 while the other saves (adds a record from the
    same page version, appends one without a version, or corrects record 3). After every try the
    numbers are 1..n, the records are exactly the initial ones with the acknowledged changes
    applied in the order they were written (no acknowledged save lost, an acknowledged delete
    removed exactly the record it named), and the totals are those of the stored records."""
    counts = Counter(_delete_vs_save(kind, save) for _ in range(TRIES))
    report(f"delete vs {save} ({kind})", counts)


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_each_racing_operation_has_its_own_database_connection():
    """The race helper itself: the operations run in their own threads, each with its own
    PostgreSQL connection (so their transactions and row locks really compete)."""
    first, second = race(_backend_pid, _backend_pid)
    assert first.ok and second.ok
    assert len({first.value, second.value, _backend_pid()}) == 3
