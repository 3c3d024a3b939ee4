"""A backup holds no usable token (issue 22 item 4 acceptance), on PostgreSQL: after API tokens were
issued (on the account page, with ``manage.py api_token`` and by the service) and used, and private
links of every entrant exist and were opened (page and API), ``pg_dump`` of the database contains
no API token, not even the secret part after its listed prefix, and no private-link token (plain or
printed in groups); it does contain the tokens' prefixes and the links' hashes (so the tables were
dumped). Skipped when ``pg_dump`` is not installed."""
from __future__ import annotations

import os
import shutil
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from scoring.models import ApiToken, EntrantLink
from scoring.participants import api_tokens, links
from tests.api.conftest import api_url
from tests.links.conftest import build_link_world, open_link

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def pg_dump() -> str:
    """The whole database as ``pg_dump`` writes it (plain SQL)."""
    binary = shutil.which("pg_dump")
    if binary is None:
        pytest.skip("pg_dump is not installed")
    db = connection.settings_dict
    command = [binary, "--no-owner", "--no-privileges", "--dbname", db["NAME"]]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            command += [option, str(db[key])]
    env = {**os.environ, **({"PGPASSWORD": db["PASSWORD"]} if db.get("PASSWORD") else {})}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_pg_dump_holds_no_usable_api_or_link_token():
    assert connection.vendor == "postgresql", "pg_dump needs PostgreSQL"
    w = build_link_world()
    keys = [issued.key for issued in w.tokens.values()]
    # the account page
    page = Client()
    page.force_login(w.organiser)
    html = page.post("/account/api-token/", {"action": "new", "name": "scorer laptop", "days": 7}).content.decode()
    keys.append(html.split('<code id="api-token-key" class="secret">', 1)[1].split("<", 1)[0])
    # the command
    out = StringIO()
    call_command("api_token", "referee", "--name", "scoreboard", stdout=out, stderr=StringIO())
    keys.append(out.getvalue().strip())
    assert len(set(keys)) == len(keys) == len(w.tokens) + 2 and all(k.startswith("nskt_") for k in keys)
    # every token used (its last use stored), every link opened on a phone and through the API
    for key in keys:
        client = w.api(None)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert client.get(api_url("tournament-list")).status_code == 200
    link_tokens = [links.token_of(link) for link in EntrantLink.objects.all()]
    assert len(link_tokens) == 12
    for name in w.links:
        assert w.api(name).get(api_url("tournament-list")).status_code == 200
        assert open_link(Client(), w.token(name)).status_code == 302

    dump = pg_dump()

    for key in keys:
        assert key not in dump and key[api_tokens.PREFIX_LENGTH:] not in dump
    for token in link_tokens:
        assert token not in dump and links.grouped(token) not in dump and token.upper() not in dump
    # the tables were dumped: the prefixes and the links' hashes are there
    assert all(t.token_key in dump for t in ApiToken.objects.all()) and ApiToken.objects.count() == len(keys)
    assert all(link.token_hash in dump for link in EntrantLink.objects.all())
    assert "authtoken_token" not in dump
