"""Organiser actions on members through the API (issue 22 item 3): list, invite with a one-time
login link, revoke it, set a member's password, with the same services and refusals as the
members page (``tests/web/test_accounts.py``)."""
from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import IdempotentAnswer, Invitation, Membership
from scoring.participants import invitations
from tests.api.conftest import api_url, db_state
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "Groot-Taipan-2027"
ELSEWHERE = ("This account also works in another tournament; only its own organisers or a site administrator can "
             "give it a login link or a password.")


def test_organiser_invites_and_the_link_logs_in_once(api_world):
    c = api_world.client("organiser")
    r = c.post(api_url("invitation-list", "tp"), {"username": "venue-ref", "email": "v@example.org"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["role"] == "referee" and body["username"] == "venue-ref" and "no-store" in r["Cache-Control"]
    token = body["token"]
    assert body["url"].endswith(f"/invite/#{token}")
    invitation = Invitation.objects.get(pk=body["id"])
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(list(Invitation.objects.values()))
    user = get_user_model().objects.get(username="venue-ref")
    assert user.email == "v@example.org" and not user.has_usable_password()
    phone = Client()
    assert phone.post(reverse("scoring:open_invitation"), {"code": token}).status_code == 302
    assert Client().post(reverse("scoring:open_invitation"), {"code": token}).status_code == 400
    members = c.get(api_url("member-list", "tp")).json()
    row = next(m for m in members if m["username"] == "venue-ref")
    assert row["role"] == "referee" and row["has_password"] is False and row["invitations"] == []


@pytest.mark.parametrize("who,status", [(None, 401), ("referee", 403), ("outsider", 403), ("other_referee", 403)])
def test_only_organisers(api_world, who, status):
    c = api_world.client(who)
    m = Membership.objects.get(tournament=api_world.tp, user=api_world.referee)
    before = db_state()
    assert c.get(api_url("member-list", "tp")).status_code == status
    assert c.post(api_url("invitation-list", "tp"), {"username": "x"}, format="json").status_code == status
    assert c.post(api_url("member-password", "tp", m.pk), {"password": PASSWORD}, format="json").status_code == status
    assert db_state() == before


def test_revoke_and_new_link(api_world):
    c = api_world.client("organiser")
    first = c.post(api_url("invitation-list", "tp"), {"username": "referee"}, format="json").json()
    second = c.post(api_url("invitation-list", "tp"), {"username": "referee"}, format="json").json()
    assert Invitation.objects.get(pk=first["id"]).revoked_at is not None  # replaced
    pending = next(m for m in c.get(api_url("member-list", "tp")).json() if m["username"] == "referee")["invitations"]
    assert [i["id"] for i in pending] == [second["id"]]
    assert c.delete(api_url("invitation-detail", "tp", second["id"])).status_code == 204
    again = c.delete(api_url("invitation-detail", "tp", second["id"]))
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert Client().post(reverse("scoring:open_invitation"), {"code": second["token"]}).status_code == 400


def test_set_password(api_world):
    w = api_world
    c = w.client("organiser")
    m = Membership.objects.get(tournament=w.tp, user=w.referee)
    weak = c.post(api_url("member-password", "tp", m.pk), {"password": "123"}, format="json")
    assert weak.status_code == 400 and weak.json()["errors"][0]["field"] == "password"
    assert c.post(api_url("member-password", "tp", m.pk), {"password": PASSWORD}, format="json").status_code == 204
    assert Client().login(username="referee", password=PASSWORD)
    own = Membership.objects.get(tournament=w.tp, user=w.organiser)
    assert c.post(api_url("member-password", "tp", own.pk), {"password": PASSWORD}, format="json").status_code == 409
    # A referee who also works for a tournament this organiser does not run: no password, no link.
    other = Membership.objects.create(tournament=w.tp, user=w.other_referee, role="referee")
    before = db_state()
    r = c.post(api_url("member-password", "tp", other.pk), {"password": PASSWORD}, format="json")
    assert r.status_code == 409 and r.json()["errors"][0]["message"] == ELSEWHERE
    r = c.post(api_url("invitation-list", "tp"), {"username": "other_referee"}, format="json")
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "username"
    assert r.json()["errors"][0]["message"] == ELSEWHERE
    # A staff account: the site administrator's reason, not the other tournament's.
    staff = UserFactory(username="staff-ref", is_staff=True)
    staff_m = Membership.objects.create(tournament=w.tp, user=staff, role="referee")
    before = db_state()
    r = c.post(api_url("member-password", "tp", staff_m.pk), {"password": PASSWORD}, format="json")
    assert r.status_code == 409 and r.json()["errors"][0]["message"] == "Only a site administrator can handle this account."
    r = c.post(api_url("invitation-list", "tp"), {"username": "staff-ref"}, format="json")
    assert r.status_code == 409 and r.json()["errors"][0]["message"] == "Only a site administrator can handle this account."
    assert db_state() == before


def test_a_replayed_invitation_answer_holds_no_secret_and_the_database_none(api_world):
    """Second attacker pass of issue 22: an invitation made with an Idempotency-Key kept its
    token in the stored answer, readable in a backup for 24 hours. Secrets are never stored: the
    replay says the link was made (same id, 201) with token and url null; one link exists, and
    the first answer's token still opens it once."""
    c = api_world.client("organiser")
    payload = {"username": "idem-ref", "role": "organiser"}
    first = c.post(api_url("invitation-list", "tp"), payload, format="json", HTTP_IDEMPOTENCY_KEY="invite-1")
    assert first.status_code == 201
    token = first.json()["token"]
    assert token and token in first.json()["url"]
    assert token not in str(list(IdempotentAnswer.objects.values()))
    replay = c.post(api_url("invitation-list", "tp"), payload, format="json", HTTP_IDEMPOTENCY_KEY="invite-1")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json()["id"] == first.json()["id"] and replay.json()["token"] is None and replay.json()["url"] is None
    assert Invitation.objects.filter(user__username="idem-ref").count() == 1
    assert Client().post(reverse("scoring:open_invitation"), {"code": token}).status_code == 302


def test_a_kept_link_does_not_open_an_account_that_joined_another_tournament(api_world):
    """Second attacker pass of issue 22: organiser A kept an unused login link of a referee; the
    referee then joined tournament B of another organiser. A may not make that link now, and the
    old one no longer opens the account either (checked at use as at making)."""
    w = api_world
    token = w.client("organiser").post(api_url("invitation-list", "tp"), {"username": "ref-y"},
                                       format="json").json()["token"]
    ref_y = get_user_model().objects.get(username="ref-y")
    Membership.objects.create(tournament=w.elsewhere, user=ref_y, role="referee")
    phone = Client()
    assert phone.post(reverse("scoring:open_invitation"), {"code": token}).status_code == 400
    assert "_auth_user_id" not in phone.session
    assert Invitation.objects.get(user=ref_y).used_at is None
    # Back to the one tournament: the link opens again (nothing was spent on the refusal).
    Membership.objects.filter(tournament=w.elsewhere, user=ref_y).delete()
    assert Client().post(reverse("scoring:open_invitation"), {"code": token}).status_code == 302


def test_another_tournaments_link_is_not_found_rather_than_used(api_world):
    """Second attacker pass of issue 22: revoking another tournament's link id answered 409 "used
    or revoked", which told that the id exists elsewhere; it is 404 like any missing id, and the
    link stays unrevoked."""
    w = api_world
    MembershipFactory(tournament=w.elsewhere, user=UserFactory(username="org-b"), role=Membership.Role.ORGANISER)
    org_b = get_user_model().objects.get(username="org-b")
    invitation, _token = invitations.invite(w.elsewhere, org_b, role="referee", username="b-ref")
    r = w.client("organiser").delete(api_url("invitation-detail", "tp", invitation.pk))
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
