"""Production configuration: ``manage.py check --deploy`` is clean with production variables, a
missing SECRET_KEY is refused, and security headers are sent (issue 5)."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _production_env(**extra):
    # DJANGO_ALLOW_ASYNC_UNSAFE: set while the browser tests run (Playwright's loop in the test
    # thread), never in production; check --deploy rightly refuses it.
    drop = {"DEBUG", "DJANGO_SETTINGS_MODULE", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "BEHIND_PROXY"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="nskt.example.org",
        DATABASE_URL="sqlite:////tmp/nskt-deploy-check.sqlite3",
        TRUSTED_PROXIES="127.0.0.1,::1",  # nginx on the same machine (docs/operations.md)
    )
    env.update(extra)
    return env


def test_check_deploy_is_clean_with_production_variables():
    proc = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_production_env(), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_without_secret_key_is_refused():
    env = _production_env()
    del env["SECRET_KEY"]
    proc = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "SECRET_KEY" in proc.stderr


def test_production_settings_are_secure():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='nskt.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, s.SECURE_SSL_REDIRECT)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_production_env(), capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["False", "True", "True", "True", "True"], proc.stderr


@pytest.mark.django_db
def test_security_headers(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp


@pytest.mark.django_db
def test_csrf_is_enforced(client, django_user_model):
    """A POST without the CSRF token is refused even for a logged-in user."""
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    user = django_user_model.objects.create_user("csrf-user", password="x-Secret-123")
    strict.force_login(user)
    response = strict.post("/i18n/setlang/", {"language": "en"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_login_is_throttled(client, django_user_model, settings):
    """After AXES_FAILURE_LIMIT failed logins the account+IP is locked, even with the right password."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    django_user_model.objects.create_user("victim", password="right-Password-123")
    for _ in range(3):
        client.post("/accounts/login/", {"username": "victim", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "victim", "password": "right-Password-123"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_throttling_behind_the_proxy_locks_the_attacker_not_everyone(client, django_user_model, settings):
    """Behind the trusted reverse proxy the client address is the last X-Forwarded-For entry (the
    one the proxy appended): an attacker locks only themselves, and cannot forge another address."""
    from django.test import Client

    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_LOCKOUT_PARAMETERS = ["ip_address"]
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    django_user_model.objects.create_user("organiser", password="right-Password-123")
    attacker = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    for _ in range(3):
        attacker.post("/accounts/login/", {"username": "organiser", "password": "wrong"})
    assert attacker.post("/accounts/login/", {"username": "organiser", "password": "right-Password-123"}).status_code == 429
    forged = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.9")
    assert forged.post("/accounts/login/", {"username": "organiser", "password": "right-Password-123"}).status_code == 429
    referee = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    response = referee.post("/accounts/login/", {"username": "organiser", "password": "right-Password-123"})
    assert response.status_code == 302 and "_auth_user_id" in referee.session


def test_load_demo_refuses_production_without_the_flag():
    proc = subprocess.run([sys.executable, "manage.py", "load_demo"], cwd=ROOT, env=_production_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "--in-production" in proc.stderr
