"""Per-user API tokens: the account page (``account/api-token/``) where a logged-in user creates,
replaces and revokes their own token (and nobody else's), and ``manage.py api_token USERNAME``.
A token acts with exactly its user's roles."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.api.conftest import api_url, client_for
from tests.factories import PLAIN_HAND, UserFactory

pytestmark = pytest.mark.django_db
PAGE = "/account/api-token/"


def test_the_page_url():
    assert reverse("scoring:api_token") == PAGE


def test_anonymous_visitors_go_to_the_login_page(client):
    r = client.get(PAGE)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    assert client.post(PAGE, {"action": "new"}).status_code == 302
    assert not Token.objects.exists()


def test_create_replace_and_revoke_ones_own_token(client, api_world):
    w = api_world
    user = UserFactory(username="scorer")
    other = Token.objects.get(user=w.referee)
    client.force_login(user)
    page = client.get(PAGE)
    assert page.status_code == 200 and "You have no API token." in page.content.decode()
    # create: the key is shown once, in the answer to the POST, never cached
    r = client.post(PAGE, {"action": "new"})
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    key = Token.objects.get(user=user).key
    assert f'<code id="api-token-key">{key}</code>' in r.content.decode()
    again = client.get(PAGE).content.decode()
    assert key not in again and "You have a token since" in again
    # replace: the old key stops working at once
    r = client.post(PAGE, {"action": "new"})
    new = Token.objects.get(user=user).key
    assert new != key and new in r.content.decode()
    assert client_for(Token(key=key)).get(api_url("tournament-list")).status_code == 401
    assert client_for(Token(key=new)).get(api_url("tournament-list")).status_code == 200
    # revoke
    r = client.post(PAGE, {"action": "revoke"})
    assert r.status_code == 302 and r["Location"] == PAGE
    assert not Token.objects.filter(user=user).exists()
    # nobody else's token was touched
    assert Token.objects.get(user=w.referee) == other


def test_an_unknown_action_is_400(client, db):
    client.force_login(UserFactory())
    assert client.post(PAGE, {"action": "steal"}).status_code == 400
    assert not Token.objects.exists()


def test_the_page_needs_csrf(db):
    from django.test import Client

    c = Client(enforce_csrf_checks=True)
    c.force_login(UserFactory())
    assert c.post(PAGE, {"action": "new"}).status_code == 403
    assert not Token.objects.exists()


def test_members_page_and_the_header_link_to_it(client, api_world):
    client.force_login(api_world.organiser)
    html = client.get(reverse("scoring:members", args=["tp"])).content.decode()
    # Changed on purpose (issue 22 item 3): the user's name in the header opens the account page,
    # which links to this page; the members text still does.
    assert html.count(f'href="{PAGE}"') == 1
    assert f'<a class="who" href="{reverse("scoring:account")}">' in html


def test_a_new_token_acts_with_the_users_roles(client, api_world):
    w = api_world
    client.force_login(w.confirmer)
    client.post(PAGE, {"action": "new"})
    api = client_for(Token.objects.get(user=w.confirmer))
    r = api.post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND}, format="json")
    assert r.status_code == 201  # a referee of tp
    r = api.post(api_url("match-records", "elsewhere", w.other_match.pk), {"version": 0, "record": PLAIN_HAND},
                 format="json")
    assert r.status_code == 403  # no role there


# --------------------------------------------------------------------------- manage.py api_token


def run(*args) -> str:
    out = StringIO()
    call_command("api_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def test_command_prints_the_token_creating_it_once(db):
    user = UserFactory(username="scoreboard")
    key = run("scoreboard")
    assert Token.objects.get(user=user).key == key and len(key) == 40
    assert run("scoreboard") == key


def test_command_replaces_and_revokes(db):
    user = UserFactory(username="scoreboard")
    key = run("scoreboard")
    new = run("scoreboard", "--new")
    assert new != key and Token.objects.get(user=user).key == new
    assert run("scoreboard", "--revoke") == ""
    assert not Token.objects.filter(user=user).exists()


def test_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="No user 'ghost'"):
        run("ghost")
