"""Explicit proxy trust (issue 22 item 5): forwarded headers count only from ``TRUSTED_PROXIES``;
one client address for the login throttling, the API's rate limits and the private links'
guessing limit; ``check --deploy`` warns when production trusts no proxy."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.participants import links
from scoring.proxies import client_address

VENUE = "198.51.100.20"  # the venue's (or the attacker's) real address
PROXY = "10.0.0.5"


def _request(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def _guesses(n: int = 300) -> list[str]:
    return [f"203.0.{i // 250}.{i % 250 + 1}" for i in range(n)]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_without_a_trusted_proxy_the_connection_address_counts(settings):
    settings.TRUSTED_PROXIES = []
    assert {client_address(_request(VENUE, guess)) for guess in _guesses()} == {VENUE}
    settings.TRUSTED_PROXIES = [PROXY]  # a client that is not the proxy is not believed either
    assert {client_address(_request(VENUE, guess)) for guess in _guesses()} == {VENUE}


def test_behind_a_trusted_proxy_the_address_it_saw_counts(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24", "::1"]
    assert client_address(_request(PROXY, VENUE)) == VENUE
    assert client_address(_request("::1", f"{VENUE}:51234")) == VENUE  # a port is not part of it
    assert client_address(_request(PROXY)) == PROXY  # no header: the proxy itself
    # Two trusted hops (a load balancer, then nginx): the address the outer one saw.
    assert client_address(_request(PROXY, f"{VENUE}, 10.0.0.9")) == VENUE
    assert client_address(_request("::ffff:10.0.0.5", VENUE)) == VENUE  # IPv4-mapped peer


def test_a_spoofed_chain_is_not_trusted_beyond_the_trusted_hops(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    # The client wrote "1.2.3.4, 10.0.0.5" itself; the proxy appended the address it saw.
    assert client_address(_request(PROXY, f"1.2.3.4, {PROXY}, {VENUE}")) == VENUE
    assert client_address(_request(PROXY, f"garbage, {VENUE}")) == VENUE
    assert {client_address(_request(PROXY, f"{guess}, {VENUE}")) for guess in _guesses()} == {VENUE}


def test_forwarded_proto_counts_only_from_a_trusted_proxy(db, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    direct = Client(REMOTE_ADDR=VENUE).get("/", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert direct.wsgi_request.is_secure() is False
    assert "HTTP_X_FORWARDED_FOR" not in direct.wsgi_request.META
    proxied = Client(REMOTE_ADDR=PROXY).get("/", HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR=VENUE)
    assert proxied.wsgi_request.is_secure() is True


def test_rotating_forwarded_guesses_all_count_against_the_real_address(db, settings, monkeypatch):
    """300 wrong link codes with a new X-Forwarded-For each: every attempt is counted against
    the connection's address (pages and API), and the login lock falls on that address too."""
    settings.TRUSTED_PROXIES = []
    seen: list[str] = []
    original = links.resolve_attempt

    def spy(raw, address):
        seen.append(address)
        return original(raw, address)

    monkeypatch.setattr(links, "resolve_attempt", spy)
    page = Client(REMOTE_ADDR=VENUE)
    api = APIClient(REMOTE_ADDR=VENUE)
    for i, guess in enumerate(_guesses()):
        page.post(reverse("scoring:open_link"), {"code": f"wrongcode{i:015d}"}, HTTP_X_FORWARDED_FOR=guess)
        api.get("/api/v1/tournaments", HTTP_AUTHORIZATION=f"Link wrongcode{i:015d}", HTTP_X_FORWARDED_FOR=guess)
    assert len(seen) == 600 and set(seen) == {VENUE}


def test_api_rate_limit_counts_the_real_address(db, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "5/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.TRUSTED_PROXIES = []
    statuses = [APIClient(REMOTE_ADDR=VENUE).get("/api/v1/tournaments", HTTP_X_FORWARDED_FOR=guess).status_code
                for guess in _guesses(6)]
    assert statuses == [200] * 5 + [429]
    cache.clear()
    # Behind the trusted proxy, six phones of six addresses are six clients.
    settings.TRUSTED_PROXIES = [PROXY]
    statuses = [APIClient(REMOTE_ADDR=PROXY).get("/api/v1/tournaments", HTTP_X_FORWARDED_FOR=guess).status_code
                for guess in _guesses(6)]
    assert statuses == [200] * 6


def test_login_lock_falls_on_the_real_address(db, settings, django_user_model):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_LOCKOUT_PARAMETERS = ["ip_address"]
    settings.TRUSTED_PROXIES = []
    django_user_model.objects.create_user("organiser", password="right-Password-123")
    attacker = Client(REMOTE_ADDR=VENUE)
    for guess in _guesses(3):
        attacker.post("/accounts/login/", {"username": "organiser", "password": "wrong"}, HTTP_X_FORWARDED_FOR=guess)
    r = attacker.post("/accounts/login/", {"username": "organiser", "password": "right-Password-123"},
                      HTTP_X_FORWARDED_FOR="192.0.2.77")
    assert r.status_code == 429
    r = Client(REMOTE_ADDR="192.0.2.77").post("/accounts/login/", {"username": "organiser", "password": "right-Password-123"})
    assert r.status_code == 302


def _deploy_messages(capsys) -> str:
    try:
        call_command("check", "--deploy", "--tag", "security")
    except SystemCheckError as exc:
        return str(exc)
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_check_deploy_warns_when_production_trusts_no_proxy(settings, capsys):
    settings.DEBUG = False
    settings.TRUSTED_PROXIES = []
    assert "nskt.W001" in _deploy_messages(capsys)
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    out = _deploy_messages(capsys)
    assert "nskt.W001" not in out and "nskt.E002" not in out
    settings.DEBUG = True
    settings.TRUSTED_PROXIES = []
    assert "nskt.W001" not in _deploy_messages(capsys)


@pytest.mark.parametrize("everyone", ["0.0.0.0/0", "::/0"])
def test_check_deploy_refuses_trusting_every_address(settings, everyone):
    settings.DEBUG = False
    settings.TRUSTED_PROXIES = ["127.0.0.1", everyone]
    with pytest.raises(SystemCheckError, match="nskt.E002"):
        call_command("check", "--deploy", "--tag", "security")
