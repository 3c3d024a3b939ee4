"""A database backup holds no working login link (issue 22 acceptance): after login links were
made (one used, one open, one revoked, through the service and the API), ``pg_dump`` of the
database contains none of their tokens, only their SHA-256 hashes. PostgreSQL only; skipped when
``pg_dump`` is not installed."""
from __future__ import annotations

import hashlib
import shutil
import subprocess

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Membership
from scoring.participants import invitations
from tests.factories import MembershipFactory, TournamentFactory

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def pg_dump() -> str:
    binary = shutil.which("pg_dump")
    if binary is None:
        pytest.skip("pg_dump is not installed")
    s = connection.settings_dict
    env = {"PGPASSWORD": s.get("PASSWORD") or ""}
    args = [binary, "--data-only", "-h", s.get("HOST") or "127.0.0.1", "-p", str(s.get("PORT") or 5432),
            "-U", s.get("USER") or "postgres", s["NAME"]]
    return subprocess.run(args, env=env, capture_output=True, text=True, check=True, timeout=120).stdout


def test_a_dump_holds_no_login_link():
    assert connection.vendor == "postgresql"
    t = TournamentFactory()
    org = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    _used, used_token = invitations.invite(t, org, role="referee", username="ref-used")
    assert Client().post(reverse("scoring:open_invitation"), {"code": used_token}).status_code == 302
    _open, open_token = invitations.invite(t, org, role="organiser", username="co-org")
    revoked, revoked_token = invitations.invite(t, org, role="referee", username="ref-revoked")
    invitations.revoke(t, revoked.pk, org)
    api = APIClient()
    api.force_login(org)
    api_token = api.post(reverse("api:invitation-list", args=[t.slug]), {"username": "ref-api"}, format="json").json()["token"]
    dump = pg_dump()
    tokens = [used_token, open_token, revoked_token, api_token]
    assert "ref-api" in dump  # the dump is of this database
    for token in tokens:
        assert token not in dump and invitations.grouped(token) not in dump
        assert hashlib.sha256(token.encode()).hexdigest() in dump
