"""People across tournaments in the API (issue 26, docs/api.md "People across tournaments"): the
same service and policy as the organiser's pages; federation numbers for organisers only."""
from __future__ import annotations

import pytest

from scoring.models import DistinctPersons, Player
from scoring.participants import persons
from tests.api.conftest import api_url, db_state

pytestmark = pytest.mark.django_db


def _look_alike(api_world):
    here = api_world.sc.players.order_by("pk").first()
    other = persons.create_player(api_world.elsewhere, here.name)
    return here, other


@pytest.mark.parametrize(("who", "status"), [(None, 401), ("outsider", 403), ("referee", 403), ("other_referee", 403)])
def test_only_organisers_read_entries_and_decide(api_world, who, status):
    here, other = _look_alike(api_world)
    c = api_world.client(who)
    before = db_state()
    assert c.get(api_url("entry-list", "sc")).status_code == status
    assert c.get(api_url("people-review", "sc")).status_code == status
    body = {"here": here.person_id, "other": other.person_id}
    assert c.post(api_url("people-same", "sc"), body, format="json").status_code == status
    assert c.post(api_url("people-different", "sc"), body, format="json").status_code == status
    assert c.post(api_url("entry-split", "sc", here.pk), format="json").status_code == status
    assert c.patch(api_url("entry-detail", "sc", here.pk), {"federation_number": "X1"}, format="json").status_code == status
    assert c.put(api_url("public-names", "sc"), {"public_names": "short"}, format="json").status_code == status
    assert db_state() == before


def test_organiser_reviews_and_joins(api_world):
    here, other = _look_alike(api_world)
    c = api_world.client("organiser")
    rows = c.get(api_url("people-review", "sc")).json()
    pair = next(r for r in rows if r["here"]["id"] == here.person_id)
    assert pair["other"]["id"] == other.person_id and pair["reason"] == "same"
    assert pair["here"]["tournaments"] == ["sc"] and pair["other"]["tournaments"] == ["elsewhere"]
    r = c.post(api_url("people-same", "sc"), {"here": here.person_id, "other": other.person_id}, format="json")
    assert r.status_code == 200, r.content
    assert r.json() == {"person_id": other.person_id}
    assert Player.objects.get(pk=here.pk).person_id == other.person_id
    # once joined, the same decision is refused: the person has no entry here any more (409)
    r = c.post(api_url("people-same", "sc"), {"here": here.person_id, "other": other.person_id}, format="json")
    assert r.status_code == 404 or r.status_code == 409
    r = c.post(api_url("entry-split", "sc", here.pk), format="json")
    assert r.status_code == 200 and Player.objects.get(pk=here.pk).person_id == r.json()["person_id"] != other.person_id


def test_different_people_are_not_offered_again(api_world):
    here, other = _look_alike(api_world)
    c = api_world.client("organiser")
    r = c.post(api_url("people-different", "sc"), {"here": here.person_id, "other": other.person_id}, format="json")
    assert r.status_code == 204
    assert DistinctPersons.objects.count() == 1
    pairs = {(row["here"]["id"], row["other"]["id"]) for row in c.get(api_url("people-review", "sc")).json()}
    assert (here.person_id, other.person_id) not in pairs


def test_entries_patch_numbers_and_settings(api_world):
    c = api_world.client("organiser")
    first, second = api_world.sc.players.order_by("pk")[:2]
    known = persons.create_player(api_world.elsewhere, first.name, federation_number="NL9")
    r = c.patch(api_url("entry-detail", "sc", first.pk), {"federation_number": " nl 9 ", "public_name": "short"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["federation_number"] == "NL9" and r.json()["person_id"] == known.person_id
    assert r.json()["public_name"] == "short"
    r = c.patch(api_url("entry-detail", "sc", second.pk), {"federation_number": "NL9"}, format="json")
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "federation_number"
    listed = {row["id"]: row for row in c.get(api_url("entry-list", "sc")).json()}
    assert listed[first.pk]["federation_number"] == "NL9"
    r = c.put(api_url("public-names", "sc"), {"public_names": "short"}, format="json")
    assert r.status_code == 200 and r.json() == {"public_names": "short"}
    api_world.sc.refresh_from_db()
    assert api_world.sc.public_names == "short"
    assert api_world.client(None).get(api_url("tournament-detail", "sc")).json()["public_names"] == "short"
