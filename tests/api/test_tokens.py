"""Per-user API tokens stored as hashes (issue 22 item 4; ``docs/api.md``): the account page
(``account/api-token/``) where a logged-in user issues, lists and revokes their own tokens (and
nobody else's), ``manage.py api_token USERNAME``, the authentication (expired and revoked tokens
refused), and the migration that drops the old readable token table. A token acts with exactly
its user's roles."""
from __future__ import annotations

import hashlib
import importlib
from datetime import timedelta
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scoring.models import ApiToken
from scoring.participants import api_tokens
from tests.api.conftest import api_url, client_for, issue_token
from tests.factories import PLAIN_HAND, UserFactory

pytestmark = pytest.mark.django_db
PAGE = "/account/api-token/"


class Key:
    """A bare secret for :func:`client_for`."""

    def __init__(self, key: str):
        self.key = key


def status_with(key: str) -> int:
    return client_for(Key(key)).get(api_url("tournament-list")).status_code


def new_token(client, name: str = "scorer laptop", days: int = 30):
    """POST the page's form; the answer and the key it shows (``None`` when it shows none)."""
    r = client.post(PAGE, {"action": "new", "name": name, "days": days})
    html = r.content.decode()
    start = html.find('<code id="api-token-key" class="secret">')
    key = html[start:].split(">", 1)[1].split("<", 1)[0] if start >= 0 else None
    return r, key


def stored_values() -> str:
    """Every stored value of every API token row, as one string."""
    return repr(list(ApiToken.objects.values_list()))


# --------------------------------------------------------------------------- the page


def test_the_page_url():
    assert reverse("scoring:api_token") == PAGE


def test_anonymous_visitors_go_to_the_login_page(client):
    r = client.get(PAGE)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    assert client.post(PAGE, {"action": "new", "name": "x", "days": 30}).status_code == 302
    assert not ApiToken.objects.exists()


def test_a_token_is_shown_once_stored_as_a_hash_and_listed_by_its_prefix(client):
    user = UserFactory(username="scorer")
    client.force_login(user)
    page = client.get(PAGE).content.decode()
    assert "You have no API tokens." in page
    before = timezone.now()
    r, key = new_token(client, "scorer laptop", 7)
    after = timezone.now()
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    # nskt_ and 64 hex digits (256 random bits)
    assert key.startswith("nskt_") and len(key) == 69 and int(key[5:], 16) >= 0
    token = ApiToken.objects.get(user=user)
    assert token.name == "scorer laptop" and token.last_used is None
    assert before + timedelta(days=7) <= token.expiry <= after + timedelta(days=7)
    # the database keeps the SHA-512 and the 15-character prefix, never the key or its secret part
    assert token.digest == hashlib.sha512(key.encode()).hexdigest() and token.token_key == key[:15]
    assert key not in stored_values() and key[15:] not in stored_values()
    # the list never shows the key again; it shows name, prefix, the expiry, "never" used
    listed = client.get(PAGE).content.decode()
    assert key not in listed and key[15:25] not in listed
    assert "scorer laptop" in listed and f"<code>{key[:15]}…</code>" in listed and "never" in listed
    assert "You have no API tokens." not in listed
    # the token works, and its use is listed
    assert status_with(key) == 200
    token.refresh_from_db()
    assert token.last_used is not None
    assert "never" not in client.get(PAGE).content.decode()


def test_several_tokens_revoke_one_or_all(client, api_world):
    w = api_world
    user = UserFactory(username="scorer")
    client.force_login(user)
    _, laptop = new_token(client, "scorer laptop", 1)
    _, board = new_token(client, "scoreboard", 90)
    assert laptop != board and ApiToken.objects.filter(user=user).count() == 2
    html = client.get(PAGE).content.decode()
    assert html.index("scoreboard") < html.index("scorer laptop")  # newest first
    # revoking one: it is refused at once, the other keeps working
    r = client.post(PAGE, {"action": "revoke", "prefix": laptop[:15]})
    assert r.status_code == 302 and r["Location"] == PAGE
    assert "The token was revoked" in client.get(PAGE).content.decode()
    assert status_with(laptop) == 401 and status_with(board) == 200
    # another user's prefix revokes nothing
    other = w.tokens["referee"].token.token_key
    client.post(PAGE, {"action": "revoke", "prefix": other})
    assert status_with(w.tokens["referee"].key) == 200
    # revoke all
    new_token(client, "phone")
    r = client.post(PAGE, {"action": "revoke_all"})
    assert r.status_code == 302 and not ApiToken.objects.filter(user=user).exists()
    assert status_with(board) == 401
    assert ApiToken.objects.filter(user=w.referee).count() == 1


@pytest.mark.parametrize("name,days,field", [("", 30, "name"), ("x" * 61, 30, "name"), ("tab\there", 30, "name"),
                                             ("ok", 365, "days"), ("ok", 0, "days"), ("ok", "many", "days")])
def test_a_bad_name_or_lifetime_issues_nothing(client, name, days, field):
    client.force_login(UserFactory())
    r, key = new_token(client, name, days)
    assert r.status_code == 200 and key is None and not ApiToken.objects.exists()
    assert r.context["form"].errors[field]


def test_the_page_offers_lifetimes_of_one_to_ninety_days_thirty_by_default(client):
    client.force_login(UserFactory())
    form = client.get(PAGE).context["form"]
    assert [c for c, _ in form.fields["days"].choices] == [1, 7, 30, 90]
    assert form["days"].value() == 30


def test_at_most_ten_unexpired_tokens(client):
    user = UserFactory()
    client.force_login(user)
    for i in range(10):
        api_tokens.issue(user, f"t{i}")
    r, key = new_token(client, "eleventh")
    assert key is None and "You already have 10 tokens that have not expired" in r.content.decode()
    assert ApiToken.objects.filter(user=user).count() == 10
    ApiToken.objects.filter(name="t0").update(expiry=timezone.now() - timedelta(minutes=1))
    _, key = new_token(client, "eleventh")
    assert key and ApiToken.objects.filter(user=user).count() == 11


def test_an_expired_token_is_listed_as_expired_refused_and_removable(client):
    user = UserFactory()
    client.force_login(user)
    _, key = new_token(client, "old laptop", 1)
    ApiToken.objects.filter(user=user).update(expiry=timezone.now() - timedelta(seconds=1))
    r = client_for(Key(key)).get(api_url("tournament-list"))
    assert r.status_code == 401 and "expired" in r.json()["errors"][0]["message"]
    html = client.get(PAGE).content.decode()
    assert 'class="expired"' in html and ">Remove</button>" in html
    client.post(PAGE, {"action": "revoke", "prefix": key[:15]})
    assert not ApiToken.objects.exists()


def test_tokens_expired_long_ago_go_when_a_new_one_is_issued():
    user = UserFactory()
    old = api_tokens.issue(user, "old").token
    recent = api_tokens.issue(user, "recent").token
    now = timezone.now()
    ApiToken.objects.filter(pk=old.pk).update(expiry=now - timedelta(days=api_tokens.KEEP_EXPIRED_DAYS, minutes=1))
    ApiToken.objects.filter(pk=recent.pk).update(expiry=now - timedelta(days=1))
    api_tokens.issue(user, "new")
    assert set(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == {"recent", "new"}


def test_the_list_page_costs_the_same_queries_for_one_token_or_eight(client):
    user = UserFactory()
    client.force_login(user)
    api_tokens.issue(user, "first")
    client.get(PAGE)  # the session and the site's first-request caches
    with CaptureQueriesContext(connection) as one:
        assert client.get(PAGE).status_code == 200
    for i in range(7):
        api_tokens.issue(user, f"t{i}")
    with CaptureQueriesContext(connection) as eight:
        html = client.get(PAGE).content.decode()
    assert html.count('name="prefix"') == 8
    assert len(eight) == len(one) <= 4, [q["sql"] for q in eight.captured_queries]


def test_an_unknown_action_is_400(client, db):
    client.force_login(UserFactory())
    assert client.post(PAGE, {"action": "steal"}).status_code == 400
    assert not ApiToken.objects.exists()


def test_the_page_needs_csrf(db):
    c = Client(enforce_csrf_checks=True)
    user = UserFactory()
    c.force_login(user)
    assert c.post(PAGE, {"action": "new", "name": "x", "days": 30}).status_code == 403
    issue_token(user)
    assert c.post(PAGE, {"action": "revoke_all"}).status_code == 403
    assert ApiToken.objects.filter(user=user).count() == 1


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
    _, key = new_token(client)
    api = client_for(Key(key))
    r = api.post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND}, format="json")
    assert r.status_code == 201  # a referee of tp
    r = api.post(api_url("match-records", "elsewhere", w.other_match.pk), {"version": 0, "record": PLAIN_HAND},
                 format="json")
    assert r.status_code == 403  # no role there


# --------------------------------------------------------------------------- authentication


@pytest.mark.parametrize("header", ["Token", "Token a b", "Token nskt_", "Token \xe9t\xe9", "Token " + "f" * 5000,
                                    "Token 0123456789abcdef0123456789abcdef01234567"])
def test_malformed_unknown_and_old_style_tokens_are_401(db, header):
    from rest_framework.test import APIClient

    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=header)
    r = c.get(api_url("tournament-list"))
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed" and r["WWW-Authenticate"] == "Token"


def test_a_token_with_the_right_prefix_but_a_wrong_secret_is_401(db):
    issued = issue_token(UserFactory())
    wrong = issued.key[:-1] + ("0" if issued.key[-1] != "0" else "1")
    assert status_with(wrong) == 401 and status_with(issued.key) == 200


def test_last_used_is_written_at_most_once_a_minute():
    issued = issue_token(UserFactory())
    token = issued.token
    t0 = timezone.now()
    api_tokens.touch(token, t0)
    api_tokens.touch(token, t0 + timedelta(seconds=59))
    assert ApiToken.objects.get(pk=token.pk).last_used == t0
    api_tokens.touch(token, t0 + timedelta(seconds=60))
    assert ApiToken.objects.get(pk=token.pk).last_used == t0 + timedelta(seconds=60)


def test_knox_views_are_not_routed():
    """Tokens are issued only by the account page and the command: knox's login and logout views
    (which would issue tokens without a name, or delete them, through the API) have no URL."""

    def views(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from views(p.url_patterns)
            elif isinstance(p, URLPattern):
                yield getattr(p.callback, "__module__", "")

    modules = set(views(get_resolver().url_patterns))
    assert modules and not any(m.startswith("knox") for m in modules)


# --------------------------------------------------------------------------- manage.py api_token


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue().strip()


def test_command_issues_a_new_token_each_time_and_prints_it_once(db):
    user = UserFactory(username="scoreboard")
    key, err = run("scoreboard")
    assert key.startswith("nskt_") and len(key) == 69 and key[:15] in err and key not in err
    again, _ = run("scoreboard")
    assert again != key and ApiToken.objects.filter(user=user).count() == 2
    assert status_with(key) == 200 and status_with(again) == 200
    token = ApiToken.objects.get(token_key=key[:15])
    assert token.name == "manage.py api_token" and key not in stored_values()
    assert abs(token.expiry - (token.created + timedelta(days=30))) < timedelta(seconds=5)


def test_command_name_and_days(db):
    UserFactory(username="scoreboard")
    key, _ = run("scoreboard", "--name", "projector", "--days", "365")
    token = ApiToken.objects.get(token_key=key[:15])
    assert token.name == "projector"
    assert abs(token.expiry - (token.created + timedelta(days=365))) < timedelta(seconds=5)
    for days in ("0", "366"):
        with pytest.raises(CommandError, match="1 to 365 days"):
            run("scoreboard", "--days", days)


def test_command_lists_and_revokes(db):
    user = UserFactory(username="scoreboard")
    first, _ = run("scoreboard", "--name", "laptop")
    second, _ = run("scoreboard", "--name", "phone")
    listed, _ = run("scoreboard", "--list")
    lines = listed.splitlines()
    assert len(lines) == 2 and lines[0].startswith(second[:15]) and "'phone'" in lines[0] and "last used -" in lines[0]
    assert first not in listed and second not in listed
    _, err = run("scoreboard", "--revoke", first[:15] + "…")
    assert "revoked" in err and status_with(first) == 401 and status_with(second) == 200
    with pytest.raises(CommandError, match="no token starting with"):
        run("scoreboard", "--revoke", first[:15])
    run("scoreboard", "--revoke-all")
    assert not ApiToken.objects.filter(user=user).exists() and status_with(second) == 401


def test_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="No user 'ghost'"):
        run("ghost")


# --------------------------------------------------------------------------- the old readable tokens


@pytest.mark.django_db(transaction=True)
def test_the_migration_drops_the_old_readable_token_table():
    """Django REST framework's ``authtoken_token`` kept keys readable: migration 0006 drops it (with
    the app's migration records and content type), so no backup taken after it holds one."""
    migration = importlib.import_module("scoring.migrations.0006_api_tokens")
    user = UserFactory()
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp, user_id integer)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, %s, %s)",
                       ["0123456789abcdef0123456789abcdef01234567", timezone.now(), user.pk])
    MigrationRecorder(connection).record_applied("authtoken", "0001_initial")
    ContentType.objects.create(app_label="authtoken", model="token")
    with connection.schema_editor() as editor:
        migration.drop_readable_tokens(apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()
    assert not MigrationRecorder(connection).migration_qs.filter(app="authtoken").exists()
    assert not ContentType.objects.filter(app_label="authtoken").exists()
    with connection.schema_editor() as editor:  # and again: nothing to do
        migration.drop_readable_tokens(apps, editor)
