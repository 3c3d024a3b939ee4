"""The hall in the API (issue 23 items 1, 6 and 9; :mod:`scoring.api.views.hall_clock`): the round
clock (read by everyone once the round is published, worked by organisers with the version they
read) and the announcements (read by everyone, posted and withdrawn by organisers), with the same
services and policy as the pages; the answers validate against the OpenAPI schema."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from scoring.hall import announcements, clock
from scoring.models import Announcement, RoundClock
from tests.api.conftest import api_url, db_state
from tests.links.conftest import build_link_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_link_world()


def _valid(spec, component: str, data, many: bool = False) -> None:
    ref = {"$ref": f"#/components/schemas/{component}"}
    OAS30Validator({**({"type": "array", "items": ref} if many else ref), "components": spec["components"]}).validate(data)


@pytest.fixture
def spec(db):
    return APIClient().get("/api/schema/", {"format": "json"}).json()


def test_anyone_reads_the_current_rounds_clock_with_the_servers_time(world, spec):
    r = world.api(None).get(api_url("clock", "tp"))
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    data = r.json()
    assert (data["round"], data["status"], data["remaining"], data["version"]) == (1, "idle", 90 * 60, 0)
    assert abs(data["server_ms"] / 1000 - timezone.now().timestamp()) < 2
    _valid(spec, "Clock", data)
    assert world.api(None).get(api_url("round-clock", "tp", 1)).json()["status"] == "idle"


def test_a_draft_rounds_clock_is_404_and_a_tournament_without_a_current_round_too(world):
    assert world.api("organiser").get(api_url("round-clock", "tp", 2)).status_code == 404
    from tests.factories import TournamentFactory

    TournamentFactory(slug="empty")
    assert world.api(None).get(api_url("clock", "empty")).status_code == 404


def test_an_organiser_starts_extends_pauses_and_resumes_with_the_version_read(world, spec):
    c = world.api("organiser")
    r = c.post(api_url("clock-start", "tp", 1), {"version": 0}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "running" and r.json()["version"] == 1
    _valid(spec, "Clock", r.json())
    r = c.post(api_url("clock-extend", "tp", 1), {"version": 1, "minutes": 5}, format="json")
    assert r.status_code == 200 and 95 * 60 - 2 <= r.json()["remaining"] <= 95 * 60
    r = c.post(api_url("clock-pause", "tp", 1), {"version": 2}, format="json")
    assert r.json()["status"] == "paused" and r.json()["ends_at"] is None
    r = c.post(api_url("clock-resume", "tp", 1), {"version": 3}, format="json")
    assert r.json()["status"] == "running" and r.json()["version"] == 4


def test_a_stale_version_is_409_stale_version_and_changes_nothing(world):
    c = world.api("organiser")
    c.post(api_url("clock-start", "tp", 1), {"version": 0}, format="json")
    before = db_state()
    r = c.post(api_url("clock-extend", "tp", 1), {"version": 0, "minutes": 5}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    assert "changed by someone else" in r.json()["errors"][0]["message"]
    assert db_state() == before


def test_an_action_the_state_refuses_is_409_conflict(world):
    r = world.api("organiser").post(api_url("clock-pause", "tp", 1), {"version": 0}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    assert "Only a running clock can be paused" in r.json()["errors"][0]["message"]


@pytest.mark.parametrize("body", [{}, {"version": "x"}, {"version": 0, "minutes": 601}, {"version": 0},
                                  {"version": 0, "minutes": 0}])
def test_bad_extend_bodies_are_400(world, body):
    r = world.api("organiser").post(api_url("clock-extend", "tp", 1), body, format="json")
    assert r.status_code == 400 and not RoundClock.objects.exists()


@pytest.mark.parametrize(("who", "status"), [(None, 401), ("referee", 403), ("outsider", 403), ("Alpha", 403)])
def test_only_organisers_work_the_clock_and_post_announcements(world, who, status):
    c = world.api(who)
    for name in ("clock-start", "clock-pause", "clock-resume"):
        assert c.post(api_url(name, "tp", 1), {"version": 0}, format="json").status_code == status
    assert c.post(api_url("clock-extend", "tp", 1), {"version": 0, "minutes": 5}, format="json").status_code == status
    assert c.post(api_url("announcement-list", "tp"), {"text": "Hi"}, format="json").status_code == status
    a = announcements.post(world.tp, world.organiser, text="Stay")
    assert c.delete(api_url("announcement-detail", "tp", a.pk)).status_code == status
    assert not RoundClock.objects.exists() and [x.text for x in announcements.active(world.tp)] == ["Stay"]


def test_announcements_are_read_by_anyone_posted_and_withdrawn_by_organisers(world, spec):
    c = world.api("organiser")
    r = c.post(api_url("announcement-list", "tp"), {"text": "Lunch at 12:30", "minutes": 20}, format="json")
    assert r.status_code == 201
    _valid(spec, "Announcement", r.json())
    made = r.json()
    listed = world.api(None).get(api_url("announcement-list", "tp")).json()
    _valid(spec, "Announcement", listed, many=True)
    assert [a["text"] for a in listed] == ["Lunch at 12:30"] and not listed[0]["automatic"]
    assert c.delete(api_url("announcement-detail", "tp", made["id"])).status_code == 204
    assert world.api(None).get(api_url("announcement-list", "tp")).json() == []
    again = c.delete(api_url("announcement-detail", "tp", made["id"]))
    assert again.status_code == 409 and "withdrawn already" in again.json()["errors"][0]["message"]


def test_another_tournaments_announcement_is_404(world):
    a = announcements.post(world.sc, world.organiser, text="Sichuan only")
    assert world.api("organiser").delete(api_url("announcement-detail", "tp", a.pk)).status_code == 404
    assert Announcement.objects.get(pk=a.pk).withdrawn_at is None


@pytest.mark.parametrize("body", [{"text": "x" * 281}, {"text": "   "}, {"text": "ok", "ends_at": "2001-01-01T00:00:00Z"}])
def test_a_bad_announcement_is_400(world, body):
    r = world.api("organiser").post(api_url("announcement-list", "tp"), body, format="json")
    assert r.status_code == 400 and not Announcement.objects.exists()


def test_the_tournament_names_its_clock_settings_and_hall_endpoints(world):
    data = world.api(None).get(api_url("tournament-detail", "tp")).json()
    assert data["round_minutes"] == 90 and data["clock_warning_minutes"] == 10
    assert data["clock"].endswith("/api/v1/tournaments/tp/clock")
    assert data["announcements"].endswith("/api/v1/tournaments/tp/announcements")


def test_the_clock_started_on_the_page_is_the_one_the_api_reads(world):
    clock.start(world.match.round, world.organiser, version=0)
    data = world.api(None).get(api_url("clock", "tp")).json()
    assert data["status"] == "running" and data["version"] == 1


def test_minutes_and_an_end_time_together_are_400_on_minutes(world):
    """fixes B5: one of ``minutes`` and ``ends_at`` says how long it is shown, never both silently."""
    later = (timezone.now() + timedelta(hours=1)).isoformat()
    r = world.api("organiser").post(api_url("announcement-list", "tp"), {"text": "Lunch", "minutes": 20, "ends_at": later},
                                    format="json")
    assert r.status_code == 400, r.content
    errors = r.json()["errors"]
    assert [e.get("field") for e in errors] == ["minutes"] and "not both" in errors[0]["message"]
    assert not Announcement.objects.exists()
