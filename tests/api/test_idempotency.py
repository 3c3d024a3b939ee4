"""``Idempotency-Key`` on API writes (issue 22 item 6, docs/api.md): the same key with the same
request gets the first answer again and the write is stored once; the same key with another
request is refused (422); keys are per actor and expire after 24 hours.

Values from the rules (NSKT): a Tai Pan made by N is NS 175 : EW 25, a plain hand 75 : 25."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Hand, IdempotentAnswer
from tests.api.conftest import api_url
from tests.factories import PLAIN_HAND, TAI_PAN_HAND

pytestmark = pytest.mark.django_db


def post(client, url, body, key=None):
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(url, body, format="json", **extra)


def test_a_retry_gets_the_same_answer_and_the_hand_is_stored_once(api_world):
    w = api_world
    url = api_url("match-records", "tp", w.match.pk)
    first = post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-1")
    assert first.status_code == 201 and first.json()["totals"] == [175, 25]
    # The answer was lost; the program sends the same request again (same key, same body).
    retry = post(w.client("referee"), url, {"record": TAI_PAN_HAND, "version": 0}, key="k-1")
    assert retry.status_code == 201 and retry.json() == first.json()
    assert retry["Location"] == first["Location"] and retry["ETag"] == first["ETag"]
    assert retry["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert Hand.objects.filter(match=w.match).count() == 1
    # Without the key the same request is a second write (here: refused, the version moved on).
    again = post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND})
    assert again.status_code == 409 and again.json()["code"] == "stale_version"


def test_the_same_key_with_another_request_is_refused(api_world):
    w = api_world
    url = api_url("match-records", "tp", w.match.pk)
    assert post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-1").status_code == 201
    r = post(w.client("referee"), url, {"version": 1, "record": PLAIN_HAND}, key="k-1")
    assert r.status_code == 422
    assert r.json()["code"] == "idempotency_key_reused"
    assert r.json()["errors"][0]["field"] == "Idempotency-Key"
    other_path = post(w.client("referee"), api_url("match-records", "tp", w.match2.pk),
                      {"version": 0, "record": TAI_PAN_HAND}, key="k-1")
    assert other_path.status_code == 422
    assert Hand.objects.count() == 1


def test_keys_belong_to_their_actor(api_world):
    w = api_world
    url = api_url("match-records", "tp", w.match.pk)
    assert post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-1").status_code == 201
    # Another referee's same key is their own: a write of its own (here refused: version 0 is stale).
    r = post(w.client("confirmer"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-1")
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    r = post(w.client("confirmer"), url, {"version": 1, "record": PLAIN_HAND}, key="k-1")
    assert r.status_code == 201 and r.json()["totals"] == [175 + 75, 25 + 25]
    assert IdempotentAnswer.objects.filter(key="k-1").count() == 2


def test_a_refused_write_keeps_no_key(api_world):
    w = api_world
    url = api_url("match-records", "tp", w.match.pk)
    r = post(w.client("referee"), url, {"version": 5, "record": TAI_PAN_HAND}, key="k-1")
    assert r.status_code == 409 and not IdempotentAnswer.objects.exists()
    r = post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-2")
    assert r.status_code == 201
    # the refused request, corrected, may use its key now
    r = post(w.client("referee"), url, {"version": 1, "record": PLAIN_HAND}, key="k-1")
    assert r.status_code == 201 and Hand.objects.count() == 2


def test_every_kind_of_write_takes_a_key(api_world):
    """PUT and DELETE (and the other POSTs) are replayed the same way."""
    w = api_world
    client = w.client("referee")
    records = api_url("match-records", "tp", w.match.pk)
    assert post(client, records, {"version": 0, "record": TAI_PAN_HAND}).status_code == 201
    assert post(client, records, {"version": 1, "record": TAI_PAN_HAND}).status_code == 201
    one = api_url("match-record", "tp", w.match.pk, 1)
    body = {"version": 2, "record": PLAIN_HAND, "reason": "typo"}
    put = client.put(one, body, format="json", HTTP_IDEMPOTENCY_KEY="put-1")
    assert put.status_code == 200 and put.json()["version"] == 3
    again = client.put(one, body, format="json", HTTP_IDEMPOTENCY_KEY="put-1")
    assert again.json() == put.json() and again["Idempotent-Replayed"] == "true"
    delete = f"{api_url('match-record', 'tp', w.match.pk, 2)}?version=3&reason=twice"
    first = client.delete(delete, HTTP_IDEMPOTENCY_KEY="del-1")
    assert first.status_code == 200 and len(first.json()["records"]) == 1
    second = client.delete(delete, HTTP_IDEMPOTENCY_KEY="del-1")
    assert second.status_code == 200 and second.json() == first.json()
    assert list(Hand.objects.filter(match=w.match).values_list("ns", "ew")) == [(75, 25)]


def test_keys_expire(api_world, settings):
    w = api_world
    url = api_url("match-records", "tp", w.match.pk)
    assert post(w.client("referee"), url, {"version": 0, "record": TAI_PAN_HAND}, key="k-1").status_code == 201
    IdempotentAnswer.objects.update(created_at=timezone.now() - timedelta(hours=24, seconds=1))
    r = post(w.client("referee"), url, {"version": 1, "record": PLAIN_HAND}, key="k-1")
    assert r.status_code == 201 and Hand.objects.count() == 2
    assert IdempotentAnswer.objects.get(key="k-1").status == 201


@pytest.mark.parametrize("key", ["", " ", "x" * 256, "sleutel-é"])
def test_a_malformed_key_is_refused(api_world, key):
    w = api_world
    r = post(w.client("referee"), api_url("match-records", "tp", w.match.pk), {"version": 0, "record": TAI_PAN_HAND},
             key=key)
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "Idempotency-Key"
    assert not Hand.objects.exists()


def test_a_private_link_retry_is_replayed(db):
    from tests.links.conftest import build_link_world

    world = build_link_world()
    client = world.api("Alpha")
    url = api_url("match-records", "tp", world.match.pk)
    first = post(client, url, {"version": 0, "record": TAI_PAN_HAND}, key="phone-1")
    assert first.status_code == 201
    retry = post(world.api("Alpha"), url, {"version": 0, "record": TAI_PAN_HAND}, key="phone-1")
    assert retry.json() == first.json() and Hand.objects.filter(match=world.match).count() == 1
    assert IdempotentAnswer.objects.get().actor == f"link:{world.links['Alpha'].pk}"
