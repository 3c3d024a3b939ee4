"""The production stack over https (issue 25 item 1): Caddy with its internal certificate in front
of gunicorn, uvicorn, a Celery worker, PostgreSQL and Redis, started from the repository's deploy
files by ``.ci/stack.sh`` (which sets the variables below and runs this file). Skipped without
``STACK_URL``.

- ``STACK_URL``: the site, e.g. ``https://localhost:18443``; ``STACK_CA``: Caddy's root
  certificate, which every request verifies (no unverified TLS);
- ``STACK_HTTP_URL``: Caddy's plain-http port (it must redirect to https);
- ``STACK_EVENTS_URL``: uvicorn itself (the ASGI server behind ``/events/``);
- ``STACK_TOKEN``: an API token of the demo's organiser; ``STACK_SLUG``: the demo tournament;
  ``docs/examples/tournament.json`` has been imported (``example-cup``).

Only the standard library speaks to the stack, so nothing here depends on the code under test.
"""
from __future__ import annotations

import gzip
import http.cookiejar
import json
import os
import re
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

URL = os.environ.get("STACK_URL", "").rstrip("/")
pytestmark = pytest.mark.skipif(not URL, reason="STACK_URL not set: .ci/stack.sh starts the stack and runs this")

REFEREE = ("referee", "nskt-referee-demo")  # scoring.io.demo.LOGINS


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _opener(*handlers, follow=True):
    context = ssl.create_default_context(cafile=os.environ["STACK_CA"])
    chain = [urllib.request.HTTPSHandler(context=context), *handlers]
    if not follow:
        chain.append(NoRedirect())
    return urllib.request.build_opener(*chain)


def _open(opener, request):
    """The response, also for 3xx/4xx answers (which urllib raises)."""
    try:
        return opener.open(request, timeout=30)
    except urllib.error.HTTPError as exc:
        return exc


def _get(path, headers=None, follow=True):
    return _open(_opener(follow=follow), urllib.request.Request(URL + path, headers=headers or {}))


def test_page_over_verified_https_with_security_headers():
    response = _get("/", {"Accept-Language": "en"})
    body = response.read().decode()
    assert response.status == 200
    assert "<html" in body.lower()
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("encoding", ["gzip", "zstd"])
def test_pages_are_compressed(encoding):
    response = _get("/", {"Accept-Encoding": encoding})
    raw = response.read()
    assert response.status == 200
    assert response.headers["Content-Encoding"] == encoding
    if encoding == "gzip":
        assert b"<html" in gzip.decompress(raw).lower()
    else:
        assert raw[:4] == b"\x28\xb5\x2f\xfd"  # the zstd frame's magic number


def test_plain_page_when_no_compression_is_asked():
    response = _get("/", {"Accept-Encoding": "identity"})
    assert response.status == 200 and response.headers["Content-Encoding"] is None


def _static_paths():
    html = _get("/").read().decode()
    return re.findall(r'(/static/[^"\'?#\s]+)', html)


def test_static_file_from_caddy_with_long_cache():
    paths = [p for p in _static_paths() if p.endswith(".css")]
    assert paths, "the page links a stylesheet"
    assert re.search(r"\.[0-9a-f]{12}\.css$", paths[0]), "manifest storage names it by its hash"
    response = _get(paths[0], {"Accept-Encoding": "gzip"})
    body = response.read()
    assert response.status == 200
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["Content-Type"].startswith("text/css")
    assert response.headers["Content-Encoding"] == "gzip"
    assert len(gzip.decompress(body)) > 100
    missing = _get("/static/no-such-file.css")
    assert missing.status == 404


def test_http_redirects_to_https():
    response = _open(urllib.request.build_opener(NoRedirect()),
                     urllib.request.Request(os.environ["STACK_HTTP_URL"] + "/standings/"))
    assert response.status in (301, 308)
    # to the https port the stack listens on (a venue laptop's is not 443), path kept
    assert response.headers["Location"] == os.environ["STACK_URL"] + "/standings/"


def test_events_server_answers():
    """uvicorn serves the Django ASGI application (the route /events/ goes to it)."""
    response = _open(urllib.request.build_opener(NoRedirect()), urllib.request.Request(
        os.environ["STACK_EVENTS_URL"] + "/", headers={"X-Forwarded-Proto": "https"}))
    # Straight from loopback with the proxy's header: Django treats it as https, no redirect.
    assert response.status == 200


def test_login_with_the_form_and_csrf():
    jar = http.cookiejar.CookieJar()
    opener = _opener(urllib.request.HTTPCookieProcessor(jar), follow=False)
    page = _open(opener, urllib.request.Request(URL + "/accounts/login/"))
    html = page.read().decode()
    assert page.status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    csrf_cookie = next(c for c in jar if c.name == "csrftoken")
    assert csrf_cookie.secure, "the CSRF cookie is sent over https only"
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": REFEREE[0],
                                   "password": REFEREE[1]}).encode()
    answer = _open(opener, urllib.request.Request(URL + "/accounts/login/", data=data,
                                                  headers={"Referer": URL + "/accounts/login/"}))
    assert answer.status == 302, answer.read()[:2000]
    session = next(c for c in jar if c.name == "sessionid")
    assert session.secure
    account = _open(opener, urllib.request.Request(URL + "/account/", headers={"Accept-Language": "en"}))
    assert account.status == 200 and REFEREE[0] in account.read().decode()


def _api(path, method="GET", body=None):
    headers = {"Authorization": "Token " + os.environ["STACK_TOKEN"], "Accept-Language": "en"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    response = _open(_opener(), urllib.request.Request(URL + "/api/v1" + path, data=data, headers=headers,
                                                       method=method))
    return response.status, json.loads(response.read() or b"null")


def _open_match(slug):
    """A match of a published or running round (the demo's paired round is published first)."""
    status, rounds = _api(f"/tournaments/{slug}/rounds")
    assert status == 200, rounds
    rounds = rounds["results"] if isinstance(rounds, dict) else rounds
    last = rounds[-1]
    if last["status"] == "draft":
        status, answer = _api(f"/tournaments/{slug}/rounds/{last['number']}/publish", "POST", {"accept_warnings": True})
        assert status == 200, answer
    status, detail = _api(f"/tournaments/{slug}/rounds/{last['number']}")
    assert status == 200, detail
    return detail["tables"][0]["id"]


def test_hand_saved_and_read_back():
    slug = os.environ.get("STACK_SLUG", "nskt-demo")
    match = _open_match(slug)
    status, before = _api(f"/tournaments/{slug}/matches/{match}")
    assert status == 200, before
    hand = {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}
    status, saved = _api(f"/tournaments/{slug}/matches/{match}/records", "POST",
                         {"version": before["version"], "record": hand})
    assert status == 201, saved
    status, after = _api(f"/tournaments/{slug}/matches/{match}")
    assert status == 200
    assert len(after["records"]) == len(before["records"]) + 1
    last = after["records"][-1]
    assert last["record"]["first_out"] == "N" and last["record"]["calls"] == {"N": "tai_pan"}
    assert last["scores"] == {"NS": 175, "EW": 25} or last["scores"] == [175, 25], last


def test_round_pack_built_by_the_worker():
    """The public round pack: the worker builds it (reportlab), the web process serves the file."""
    slug = os.environ.get("STACK_SLUG", "nskt-demo")
    deadline = time.monotonic() + 180
    while True:
        response = _get(f"/t/{slug}/round/1/pack.pdf", follow=False)
        body = response.read()
        if response.status == 200:
            break
        assert response.status == 302, (response.status, body[:500])
        location = urllib.parse.urlsplit(response.headers["Location"])
        progress = _get(location.path, follow=False)
        assert progress.status == 200, progress.status
        assert time.monotonic() < deadline, "the round pack was not built in time"
        time.sleep(1)
    assert response.headers["Content-Type"] == "application/pdf" and body.startswith(b"%PDF")
    assert len(body) > 10_000


def test_imported_tournament_is_served():
    status, tournament = _api("/tournaments/example-cup")
    assert status == 200, tournament
    assert tournament["slug"] == "example-cup"
