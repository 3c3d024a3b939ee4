"""Races of player entry (issue 15 acceptance), on PostgreSQL: one side's entry through its private
link races the other side's confirmation through its own, released together by a barrier
(:func:`tests.race.race`), each in its own thread and database connection, at least
:data:`TRIES` times per race; the invariant is checked after every try. Both kinds of result: a
Tai Pan match and a four-player Sichuan table.

The confirming side passes the version its phone showed (``expected_version``), as the pages and
the API do; the sheet locks the round, then the result, and compares that version inside the
lock, so a confirmation never confirms totals its confirmer did not see:

- edit vs confirm: the entering side corrects a record (other totals) while the other side
  confirms the totals it saw;
- delete vs confirm: the entering side deletes the last record (the result is no longer
  finished) while the other side confirms;
- edit vs blind confirm: the same with blind confirmation, the confirmer typing the totals it
  has (the seen ones).

Values: Tai Pan (NSKT) two hands "Grand Tai Pan of N with NS's double victory" are 400 : 0 each
(the target 800 is reached); the correction makes hand 1 a plain 75 : 25. Sichuan (docs/engines/sichuan.md):
East's self-drawn win of base 1 is +6 / -2 / -2 / -2, South's the same from South.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.db import connection

from scoring.errors import Locked, NotAllowed, StaleVersion
from scoring.kinds import kind_of
from scoring.models import Confirmation, EntrantLink, ResultContainer, Tournament
from scoring.participants import links
from scoring.policy import EntrantActor
from scoring.results import sheet
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW, table_round, taipan_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
KINDS = ["match", "table"]
SICHUAN_SOUTH = {**SICHUAN_SELF_DRAW, "events": [{**SICHUAN_SELF_DRAW["events"][0], "player": "S"}]}
#: Per kind: the records that finish it (a table is then ended at the time limit), the totals
#: they give, the correction of record 1, and the totals after it.
FINISH = {"match": [GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS], "table": [SICHUAN_SELF_DRAW]}
FINISHED_TOTALS = {"match": [800, 0], "table": [6, -2, -2, -2]}
CORRECTION = {"match": PLAIN_HAND, "table": SICHUAN_SOUTH}
CORRECTED_TOTALS = {"match": [75 + 400, 25], "table": [-2, 6, -2, -2]}


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def actor(link_id: int) -> EntrantActor:
    """The entrant of link ``link_id`` as a request would build it (read afresh)."""
    return EntrantActor(EntrantLink.objects.select_related("tournament", "team", "player").get(pk=link_id))


def reload(container):
    return type(container).objects.get(pk=container.pk)


def world(kind: str, *, blind: bool = False) -> tuple[ResultContainer, int, int]:
    """A finished result entered through the entering side's link: ``(result, entering link id,
    confirming link id)`` (Tai Pan: team NS enters, team EW confirms; four-player: East enters,
    West confirms)."""
    options = {"player_entry": True, "blind_confirmation": blind}
    if kind == "match":
        rnd, (container,) = taipan_round(**options)
        entering, confirming = links.link_for(container.team_ns), links.link_for(container.team_ew)
    else:
        rnd, (container,) = table_round("sichuan", **options)
        seats = {s.seat: s.player for s in container.seats.all()}
        entering, confirming = links.link_for(seats[0]), links.link_for(seats[2])
    for record in FINISH[kind]:
        sheet.add_record(container, record, actor(entering.pk), expected_version=container.version)
    if container.status != container.Status.FINISHED:
        sheet.end_at_time(container, actor(entering.pk), expected_version=container.version, reason="time")
    assert container.status == container.Status.FINISHED
    assert kind_of(container).totals(container) == FINISHED_TOTALS[kind]
    return container, entering.pk, confirming.pk


def _entry_vs_confirm(kind: str, entry: str, *, blind: bool = False) -> str:
    container, entering, confirming = world(kind, blind=blind)
    result_kind = kind_of(container)
    seen_version, seen_totals = container.version, result_kind.totals(container)
    seen_confirmation = result_kind.confirmation_totals(container)
    typed = list(seen_totals) if blind else None
    if entry == "edit":
        def entering_op():
            return sheet.edit_record(reload(container), 1, CORRECTION[kind], actor(entering), expected_version=seen_version,
                                     reason="wrong hand")
    else:
        last = len(result_kind.records(container))

        def entering_op():
            return sheet.delete_record(reload(container), last, actor(entering), expected_version=seen_version,
                                       reason="entered twice")
    confirm, change = race(
        lambda: sheet.confirm(reload(container), actor(confirming), expected_version=seen_version, totals=typed),
        entering_op,
    )
    container.refresh_from_db()
    active = Confirmation.objects.filter(active=True, **result_kind.audit_link(container)).first()
    if confirm.ok:
        # The confirmation is of exactly the totals the confirming side saw, and they still stand.
        assert confirm.value.totals == seen_confirmation and confirm.value.via_link_id == confirming
        assert active is not None and active.totals == seen_confirmation
        assert container.status == ResultContainer.Status.CONFIRMED
        assert result_kind.totals(container) == seen_totals
        assert not change.ok, f"the entering side's {entry} was acknowledged on a confirmed result"
        assert isinstance(change.error, (StaleVersion, Locked)), change.error
        return "confirm won"
    assert isinstance(confirm.error, (StaleVersion, NotAllowed)), confirm.error
    assert change.ok, f"neither was acknowledged: {change.error!r}"
    assert active is None and container.status != ResultContainer.Status.CONFIRMED
    assert result_kind.totals(container) != seen_totals
    if entry == "edit":
        assert result_kind.totals(container) == CORRECTED_TOTALS[kind]
    return f"{entry} won"


def report(name: str, counts: Counter) -> None:
    print(f"\n{name}: {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ", 0 violations")


@pytest.mark.parametrize("kind", KINDS)
def test_edit_vs_confirm_through_links_confirms_only_what_the_confirmer_saw(kind):
    """The entering side corrects record 1 while the other side confirms the version its phone
    showed: whenever the confirmation is acknowledged it holds the totals the confirmer saw, and
    the result still has them."""
    counts = Counter(_entry_vs_confirm(kind, "edit") for _ in range(TRIES))
    report(f"link edit vs link confirm ({kind})", counts)


@pytest.mark.parametrize("kind", KINDS)
def test_delete_vs_confirm_through_links_confirms_only_what_the_confirmer_saw(kind):
    """The entering side deletes the last record (the result is unfinished again) while the other
    side confirms: never a confirmation of a result that is no longer the one seen."""
    counts = Counter(_entry_vs_confirm(kind, "delete") for _ in range(TRIES))
    report(f"link delete vs link confirm ({kind})", counts)


@pytest.mark.parametrize("kind", KINDS)
def test_edit_vs_blind_confirm_through_links(kind):
    """Blind confirmation: the confirming side types the totals it has (the ones it saw) while the
    entering side corrects record 1; a confirmation is acknowledged only for those very totals."""
    counts = Counter(_entry_vs_confirm(kind, "edit", blind=True) for _ in range(TRIES))
    report(f"link edit vs blind link confirm ({kind})", counts)


def test_the_worlds_use_player_entry():
    container, entering, confirming = world("match")
    assert Tournament.objects.get(pk=container.round.tournament_id).player_entry
    assert entering != confirming
