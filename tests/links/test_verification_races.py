"""Race of verification per hand (issue 22 acceptance), on PostgreSQL: the other side acknowledges
a record through its link (one tap, sending the record's revision its phone showed) while the
entering side edits that same record, released together by a barrier (:func:`tests.race.race`),
each in its own thread and database connection, :data:`TRIES` times per kind of result.

Invariant after every try: an acknowledgement never stands for a version of the record it did not
see. Either the acknowledgement landed first (on revision 1) and the edit made the record pending
again (revision 2, acknowledged revision 1), or the edit landed first and the acknowledgement was
refused as stale (revision 2, nothing acknowledged). Both sheets lock the round, then the result,
and the acknowledgement compares the revision inside that lock.

Values: Tai Pan hand 1 is PLAIN_HAND (NS 75, EW 25) corrected to TAI_PAN_HAND (NS 175, EW 25, N's
Tai Pan made); Sichuan East's self-drawn win (+6 / -2 / -2 / -2) corrected to South's.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.db import connection

from scoring.errors import StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry, EntrantLink, ResultContainer, Tournament
from scoring.participants import links
from scoring.policy import EntrantActor
from scoring.results import sheet
from tests.factories import PLAIN_HAND, SICHUAN_SELF_DRAW, TAI_PAN_HAND, table_round, taipan_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
SICHUAN_SOUTH = {**SICHUAN_SELF_DRAW, "events": [{**SICHUAN_SELF_DRAW["events"][0], "player": "S"}]}
RECORD = {"match": PLAIN_HAND, "table": SICHUAN_SELF_DRAW}
CORRECTION = {"match": TAI_PAN_HAND, "table": SICHUAN_SOUTH}
#: The scores of record 1 before and after the correction (the rules' values, module docstring).
SCORES = {"match": ([75, 25], [175, 25]), "table": ([6, -2, -2, -2], [-2, 6, -2, -2])}


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def actor(link_id: int) -> EntrantActor:
    return EntrantActor(EntrantLink.objects.select_related("tournament", "team", "player").get(pk=link_id))


def reload(container):
    return type(container).objects.get(pk=container.pk)


def world(kind: str) -> tuple[ResultContainer, int, int]:
    """A result with one record entered through the entering side's link, verification per hand:
    ``(result, entering link id, acknowledging link id)``."""
    options = {"player_entry": True, "verification": Tournament.Verification.PER_RECORD}
    if kind == "match":
        _rnd, (container,) = taipan_round(**options)
        entering, checking = links.link_for(container.team_ns), links.link_for(container.team_ew)
    else:
        _rnd, (container,) = table_round("sichuan", **options)
        seats = {s.seat: s.player for s in container.seats.all()}
        entering, checking = links.link_for(seats[0]), links.link_for(seats[2])
    sheet.add_record(container, RECORD[kind], actor(entering.pk), expected_version=container.version)
    return container, entering.pk, checking.pk


def _ack_vs_edit(kind: str) -> str:
    container, entering, checking = world(kind)
    result_kind = kind_of(container)
    seen = result_kind.record(container, 1)
    assert (seen.revision, list(result_kind.scores(seen))) == (1, SCORES[kind][0])
    ack, edit = race(
        lambda: sheet.acknowledge(reload(container), 1, actor(checking), revision=seen.revision),
        lambda: sheet.edit_record(reload(container), 1, CORRECTION[kind], actor(entering),
                                  expected_version=container.version, reason="wrong winner"),
    )
    assert edit.ok, f"the edit was refused: {edit.error!r}"
    rec = result_kind.record(container, 1)
    assert rec.revision == 2 and list(result_kind.scores(rec)) == SCORES[kind][1]
    assert not rec.is_acknowledged, "the edited version counts as acknowledged"
    entries = list(AuditEntry.objects.filter(action=AuditEntry.Action.ACKNOWLEDGE, **result_kind.audit_link(container)))
    if ack.ok:
        # The acknowledgement stands for revision 1, the version the side saw, with its scores.
        assert rec.acknowledged_revision == 1 and rec.acknowledged_via_link_id == checking
        assert len(entries) == 1 and entries[0].new["revision"] == 1
        assert list(result_kind.snapshot_scores(entries[0].new)) == SCORES[kind][0]
        return "ack first, pending again"
    assert isinstance(ack.error, StaleVersion), ack.error
    assert rec.acknowledged_revision is None and entries == []
    return "edit first, ack stale"


def report(name: str, counts: Counter) -> None:
    print(f"\n{name}: {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ", 0 violations")


@pytest.mark.parametrize("kind", ["match", "table"])
def test_acknowledge_vs_edit_race_never_acknowledges_an_unseen_version(kind):
    counts = Counter(_ack_vs_edit(kind) for _ in range(TRIES))
    report(f"link acknowledge vs link edit ({kind})", counts)
    assert sum(counts.values()) == TRIES
