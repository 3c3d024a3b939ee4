"""Reopening a confirmed result, the same for matches and tables (docs/results.md, "Who may reopen
a confirmed result?"): a reason is required; a referee or organiser may reopen while the round is
open; once the round is closed only an organiser, and the round goes back to in progress (it can
be closed again once the result is confirmed again).

Changed on purpose: any referee could reopen a match of a closed round (and the round reopened),
a table there could not be reopened at all, and only organisers could reopen a table."""
import pytest
from django.core.exceptions import PermissionDenied

from scoring import policy
from scoring.draw import rounds
from scoring.errors import NotAllowed, ServiceError
from scoring.models import Confirmation, Round
from scoring.results import sheet
from tests.factories import RECORDS, one_result

pytestmark = pytest.mark.django_db

KINDS = ["match", "table"]


def confirmed(kind):
    """A result of ``kind`` with one record, ended at the time limit and confirmed by a second
    referee; ``people``: the tournament's staff."""
    container, people = one_result(kind)
    ref, confirmer, _ = people["referees"]
    sheet.add_record(container, RECORDS[kind][0], ref)
    sheet.end_at_time(container, ref, expected_version=container.version, reason="time")
    sheet.confirm(container, confirmer, expected_version=container.version)
    return container, people


@pytest.mark.parametrize("kind", KINDS)
def test_a_referee_may_reopen_in_an_open_round(kind):
    container, people = confirmed(kind)
    referee = people["referees"][2]
    with pytest.raises(ServiceError) as err:
        sheet.reopen(container, referee, "  ", expected_version=container.version)
    assert err.value.field == "reason"
    sheet.reopen(container, referee, "wrong totals", expected_version=container.version)
    assert container.status == container.Status.FINISHED
    c = Confirmation.objects.get()
    assert not c.active and c.reopened_by == referee and c.reopen_reason == "wrong totals"
    container.round.refresh_from_db()
    assert container.round.status == Round.Status.IN_PROGRESS


@pytest.mark.parametrize("kind", KINDS)
def test_in_a_closed_round_only_an_organiser_reopens_and_the_round_reopens(kind):
    container, people = confirmed(kind)
    rnd = container.round
    rounds.close_round(rnd, people["organiser"])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    for referee in people["referees"]:
        with pytest.raises(PermissionDenied):
            sheet.reopen(container, referee, "typo", expected_version=container.version)
    with pytest.raises(PermissionDenied):
        sheet.reopen(container, people["outsider"], "typo", expected_version=container.version)
    container.refresh_from_db()
    assert container.status == container.Status.CONFIRMED and Confirmation.objects.get().active
    sheet.reopen(container, people["organiser"], "typo", expected_version=container.version)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS and container.status == container.Status.FINISHED
    # the round closes again only once the result is confirmed again
    with pytest.raises(NotAllowed):
        rounds.close_round(rnd, people["organiser"])
    sheet.confirm(container, people["referees"][1], expected_version=container.version)
    rounds.close_round(rnd, people["organiser"])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


@pytest.mark.parametrize("kind", KINDS)
def test_policy_names_the_permission_by_the_round(kind):
    container, people = confirmed(kind)
    rnd = container.round
    assert policy.reopen_perm(rnd) == policy.Perm.REOPEN_RESULTS
    assert policy.has_perm(people["referee"], policy.reopen_perm(rnd), rnd.tournament)
    rounds.close_round(rnd, people["organiser"])
    assert policy.reopen_perm(rnd) == policy.Perm.REOPEN_CLOSED_ROUND
    assert not policy.has_perm(people["referee"], policy.reopen_perm(rnd), rnd.tournament)
    assert policy.has_perm(people["organiser"], policy.reopen_perm(rnd), rnd.tournament)


@pytest.mark.parametrize("kind", KINDS)
def test_only_a_confirmed_result_can_be_reopened(kind):
    container, people = one_result(kind)
    sheet.add_record(container, RECORDS[kind][0], people["referee"])
    with pytest.raises(NotAllowed):
        sheet.reopen(container, people["organiser"], "typo", expected_version=container.version)
