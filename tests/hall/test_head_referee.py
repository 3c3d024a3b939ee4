"""The head referee role (issue 23 item 5): a referee who also sees the progress board. The members
page, invitations and the members API accept it; its permissions are the referee's plus
``Perm.VIEW_BOARD``."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import policy
from scoring.models import Membership
from scoring.policy import Perm
from tests.api.conftest import client_for, issue_token
from tests.hall.helpers import hall_round

pytestmark = pytest.mark.django_db
HEAD = Membership.Role.HEAD_REFEREE


def test_head_referee_holds_the_referee_perms_and_the_board():
    rnd, _cs, people = hall_round("match", tables=1)
    t = rnd.tournament
    held = policy.perms_of(people["head"], t)
    assert held == policy.perms_of(people["referee"], t) | {Perm.VIEW_BOARD}
    assert Perm.VIEW_BOARD in policy.perms_of(people["organiser"], t)
    assert not policy.has_perm(people["head"], Perm.MANAGE, t)


def test_members_page_offers_and_saves_the_role(client, settings):
    settings.LANGUAGE_CODE = "en"
    rnd, _cs, people = hall_round("match", tables=1)
    slug = rnd.tournament.slug
    client.force_login(people["organiser"])
    html = client.get(reverse("scoring:members", args=[slug])).content.decode()
    select = re.search(r'<select name="invite-role"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert 'value="head_referee"' in select
    response = client.post(reverse("scoring:member_invite", args=[slug]),
                           {"invite-username": "chief", "invite-role": "head_referee", "invite-email": "",
                            "invite-hours": "24"}, follow=True)
    assert response.status_code == 200
    assert Membership.objects.get(tournament=rnd.tournament, user__username="chief").role == HEAD


def test_members_api_invites_and_lists_a_head_referee():
    rnd, _cs, people = hall_round("match", tables=1)
    api = client_for(issue_token(people["organiser"]))
    slug = rnd.tournament.slug
    made = api.post(reverse("api:invitation-list", kwargs={"slug": slug}), {"username": "chief2", "role": "head_referee"},
                    format="json")
    assert made.status_code == 201 and made.json()["role"] == "head_referee"
    listed = {m["username"]: m["role"] for m in api.get(reverse("api:member-list", kwargs={"slug": slug})).json()}
    assert listed["chief2"] == "head_referee" and listed[people["head"].username] == "head_referee"
