"""The pages show what the result sheet answers, and nothing it refuses (issue "One answer to each
question in the code"; found by a fresh tester):

- blind confirmation holds on the entry page too: a side that did not enter a result sees
  neither its records nor its totals there, and may not edit what a referee entered;
- a restore button stands only where the restore would go through (:func:`sheet.entry_refusal`);
  a restore that would put a record back into a finished result is refused as adding one is;
- the confirm page of a side that may neither confirm nor dispute has no totals to type;
- a referee refused a reopen in a closed round is told why.

Values from the NSKT rules: card points add up to 100 (PLAIN_HAND 75 : 25); a Grand Tai Pan
with a double victory is 400 : 0."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.draw import rounds
from scoring.errors import Locked, NotAllowed
from scoring.models import AuditEntry, Round, Tournament
from scoring.results import sheet
from scoring.results.sheet import Action
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND
from tests.links.conftest import open_link

pytestmark = pytest.mark.django_db


def u(name, *args):
    return reverse(f"scoring:{name}", args=list(args))


def test_blind_a_side_that_did_not_enter_sees_no_record_on_the_entry_page(client, world):
    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=True)
    m = world.match
    sheet.add_record(m, PLAIN_HAND, world.referee, expected_version=m.version)  # 75 : 25
    open_link(client, world.token("Bravo"))
    html = client.get(u("match_enter", "tp", m.pk)).content.decode()
    assert "Hands entered: 1." in html
    assert 'id="record-1"' not in html  # no record row with its scores and running totals
    # Nor may it edit the referee's hand (the edit page would show it).
    assert sheet.refusal(m, Action.CHANGE, world.actor("Bravo")).error is NotAllowed
    assert client.get(u("hand_edit", "tp", m.pk, 1)).status_code == 403
    # The referee and (without blind confirmation) the side see it.
    assert sheet.refusal(m, Action.CHANGE, world.referee) is None
    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=False)
    m = type(m).objects.select_related("round__tournament").get(pk=m.pk)
    assert sheet.refusal(m, Action.CHANGE, world.actor("Bravo")) is None


def test_a_restore_button_stands_only_where_the_restore_goes_through(client, world):
    m = world.match
    for _ in range(3):
        sheet.add_record(m, PLAIN_HAND, world.referee, expected_version=m.version)
    sheet.delete_record(m, 3, world.referee, expected_version=m.version, reason="wrong table")
    sheet.end_at_time(m, world.referee, expected_version=m.version, reason="time")
    deleted = AuditEntry.objects.get(match=m, action="delete")
    first = AuditEntry.objects.get(match=m, action="create", new__number=1)
    end = AuditEntry.objects.get(match=m, action="end")
    rs = sheet.load(m)
    # Hand 1 still is that version; the result is finished, so neither a hand back nor the end again.
    assert "would change nothing" in str(sheet.entry_refusal(rs, first, world.referee))
    assert sheet.entry_refusal(rs, deleted, world.referee).error is Locked
    assert sheet.entry_refusal(rs, end, world.referee).error is Locked
    with pytest.raises(Locked, match="resume play"):
        sheet.restore(m, deleted, world.referee, expected_version=m.version, reason="it was right")
    client.force_login(world.referee)
    assert "restore-reason" not in client.get(u("match_detail", "tp", m.pk)).content.decode()
    # After resuming play the deleted hand can come back: its button is there.
    sheet.resume_play(m, world.referee, expected_version=m.version, reason="more time")
    assert sheet.entry_refusal(sheet.load(m), deleted, world.referee) is None
    html = client.get(u("match_detail", "tp", m.pk)).content.decode()
    assert f'/audit/{deleted.pk}/restore/' in html and f'/audit/{first.pk}/restore/' not in html


def test_the_entering_side_gets_no_totals_to_type_on_the_confirm_page(client, world):
    m = world.match
    for _ in range(2):
        sheet.add_record(m, GRAND_DOUBLE_VICTORY_NS, world.actor("Alpha"), expected_version=m.version)
    open_link(client, world.token("Alpha"))
    html = client.get(u("match_confirm", "tp", m.pk)).content.decode()
    assert 'id="confirm-refusal"' in html and 'name="total_0"' not in html
    client.logout()
    open_link(client, world.token("Bravo"))
    html = client.get(u("match_confirm", "tp", m.pk)).content.decode()
    assert 'name="total_0"' in html and 'id="confirm-button"' in html


def test_a_referee_refused_a_reopen_in_a_closed_round_is_told_why(world):
    m, t = world.match, world.tp
    for _ in range(2):
        sheet.add_record(m, GRAND_DOUBLE_VICTORY_NS, world.referee, expected_version=m.version)
    sheet.confirm(m, world.confirmer, expected_version=m.version)
    sheet.add_record(world.match2, GRAND_DOUBLE_VICTORY_NS, world.referee, expected_version=world.match2.version)
    sheet.add_record(world.match2, GRAND_DOUBLE_VICTORY_NS, world.referee, expected_version=world.match2.version)
    sheet.confirm(world.match2, world.confirmer, expected_version=world.match2.version)
    rounds.close_round(Round.objects.get(tournament=t, number=1), world.organiser)
    m.refresh_from_db()
    answer = sheet.refusal(m, Action.REOPEN, world.referee)
    assert answer.error is PermissionDenied and "only an organiser" in str(answer)
    with pytest.raises(PermissionDenied):
        sheet.reopen(m, world.referee, "typo", expected_version=m.version)
    assert sheet.refusal(m, Action.REOPEN, world.organiser) is None
