"""Pushed live pages in a real browser (issue 25 item 2): the standings follow a confirmation by
its server-sent event, without polling (the fallback's interval is ten minutes); a hidden page
neither polls nor refreshes, and refreshes once when it is shown again.

The pages and the event stream come from one ASGI server (uvicorn in a thread, ``nskt.asgi``,
the in-process channel layer, or Redis when ``REDIS_URL`` is set), so the page and its stream
share an origin as behind the reverse proxy. Until the write paths publish by themselves
(:mod:`scoring.live.state`), the test publishes what a confirmation changes (``standings``)."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.urls import reverse

from scoring.live import push
from tests.browser.conftest import PHONE
from tests.browser.test_public_pages import _taipan
from tests.factories import DOUBLE_VICTORY_NS, play

pytestmark = pytest.mark.django_db(transaction=True)

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


class AsgiServer:
    """uvicorn serving ``nskt.asgi.application`` on a free port in a thread of its own loop (static
    files from the finders, as the live server serves them)."""

    def __init__(self):
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from nskt.asgi import application

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        config = uvicorn.Config(ASGIStaticFilesHandler(application), host="127.0.0.1", port=self.port, lifespan="off", log_level="warning",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.server.serve(),), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.05)

    def publish(self, tournament_id: int, topics: list[str]) -> None:
        """What the write path's commit does (:func:`scoring.live.push.publish`); an in-process
        layer lives on the server's loop, so the message is sent there."""
        layer = get_channel_layer()
        if isinstance(layer, InMemoryChannelLayer):
            message = push.event_message(topics, {})
            for group in push.event_groups(tournament_id, message["topics"]):
                asyncio.run_coroutine_threadsafe(layer.group_send(group, message), self.loop).result(5)
        else:
            push.publish(tournament_id, topics)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def asgi(browser, settings):
    settings.LIVE_EVENTS = True
    settings.LIVE_RETRY_MS = 500
    server = AsgiServer()
    contexts = []

    def page_on(viewport=PHONE):
        context = browser.new_context(viewport=viewport, locale="nl-NL")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    server.page = page_on
    yield server
    for context in contexts:
        context.close()
    server.stop()


def live_requests(page, path: str) -> list:
    """The region refreshes (htmx requests) of ``path`` that ``page`` makes, as they happen."""
    seen = []
    page.on("request", lambda r: seen.append(r.url) if r.url.endswith(path) and r.headers.get("hx-request") else None)
    return seen


def test_standings_follow_a_confirmation_by_its_event_without_polling(asgi, settings):
    settings.LIVE_POLL_SECONDS = 600
    tp = _taipan("push")
    path = reverse("scoring:standings", args=["push"])
    page = asgi.page()
    polls = live_requests(page, path)
    streams = []
    page.on("request", lambda r: streams.append(r.url) if "/events/" in r.url else None)
    page.goto(asgi.url + path)
    assert page.locator("#live").get_attribute("data-live-events") == "/events/push/"
    page.wait_for_function("() => document.querySelector('#live') !== null")
    page.evaluate("() => { window.__notReloaded = true }")
    page.wait_for_timeout(1500)  # the stream opens; nothing is polled meanwhile
    assert polls == []
    # One stream, asking only for the live regions' topics (the standings region: standings,
    # tournament) and at most one event per their least delay (30 s).
    assert streams == [asgi.url + "/events/push/?topics=standings%20tournament&delay=30"]

    referee, confirmer = tp["people"]["referees"]
    play(tp["matches"][0], [DOUBLE_VICTORY_NS] * 3, referee, confirmer=confirmer)
    asgi.publish(tp["t"].pk, ["round:2", f"result:{tp['matches'][0].pk}"])  # not the standings' topic
    page.wait_for_timeout(1000)
    assert polls == [] and "Stand na ronde 1" in page.locator("[data-after]").inner_text()

    asgi.publish(tp["t"].pk, ["standings", "round:2"])
    # The first event after a quiet moment comes at once; the refresh waits a random part of up to
    # half the delay (15 s), so that a hall of phones does not ask in the same instant.
    page.wait_for_function("() => document.querySelector('[data-after]').innerText.includes('Stand na ronde 2')",
                           timeout=25_000)
    first = page.locator("table.standings tbody tr").first
    assert "Studentenvereniging Draken" in first.inner_text()
    assert len(polls) == 1 and page.evaluate("() => window.__notReloaded === true")


def wait_for_count(page, requests: list, count: int, timeout_ms: int = 15_000) -> None:
    """Wait until ``requests`` (filled by the page's request events) holds ``count`` entries: the
    polls come every second, later on a loaded machine; fails after ``timeout_ms``."""
    waited = 0
    while len(requests) < count and waited < timeout_ms:
        page.wait_for_timeout(250)
        waited += 250
    assert len(requests) >= count, requests


def test_a_hidden_page_neither_polls_nor_refreshes_and_catches_up_when_shown(asgi, settings):
    settings.LIVE_EVENTS = False  # the polling fallback, every second
    settings.LIVE_POLL_SECONDS = 1
    tp = _taipan("hidden")
    path = reverse("scoring:standings", args=["hidden"])
    page = asgi.page()
    polls = live_requests(page, path)
    page.goto(asgi.url + path)
    assert page.locator("#live").get_attribute("data-live-events") is None
    wait_for_count(page, polls, 2)  # visible: it polls

    page.evaluate(HIDE)
    page.wait_for_timeout(300)  # a poll already under way may still end
    hidden_at = len(polls)
    referee, confirmer = tp["people"]["referees"]
    play(tp["matches"][0], [DOUBLE_VICTORY_NS] * 3, referee, confirmer=confirmer)
    page.wait_for_timeout(3000)
    assert len(polls) == hidden_at and "Stand na ronde 1" in page.locator("[data-after]").inner_text()

    page.evaluate(SHOW)  # refreshed at once, then polling again
    page.wait_for_function("() => document.querySelector('[data-after]').innerText.includes('Stand na ronde 2')",
                           timeout=5_000)
    wait_for_count(page, polls, hidden_at + 2)  # and polls again
