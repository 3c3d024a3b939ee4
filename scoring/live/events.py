"""The event stream of one tournament: ``/events/<slug>/`` (server-sent events), served by the
events process (``nskt.asgi``, uvicorn) with Django Channels.

The answer is ``text/event-stream``: first a ``retry:`` line (milliseconds before the browser
reconnects, ``settings.LIVE_RETRY_MS``), then one event per :func:`scoring.live.push.publish` of
the tournament, its data a JSON object ``{"topics": [...], "versions": {...}}``, and a comment
line (``: beat``) every ``settings.LIVE_HEARTBEAT_SECONDS`` so that proxies and phones keep the
connection. An unknown slug is answered 404, and a channel layer that cannot be reached (Redis
down) 503 with one log line (the browser then stops trying and the page polls).
The stream ends when the client goes away. Nothing in it is private: it says only which parts of
the public pages changed.

``?topics=standings+round:1+result:*`` (space- or comma-separated; a topic ending in ``*``
matches every topic it begins) makes the stream carry only the events naming one of those topics:
``static/js/live.js`` asks for the topics of the page's live regions, so a phone following the
standings is not woken by every hand entered in the hall. Without ``topics`` every event of the
tournament is sent. The stream joins the channel-layer group of each topic it asked for
(:func:`stream_groups`), so the events process handles only the events the stream wants; a stream
that asked for none, or for a prefix other than ``word:*``, joins the tournament's group and
filters.

``?delay=20`` (seconds, at most :data:`MAX_DELAY`) makes the stream send at most one event per
that many seconds: the first event of a quiet moment goes at once, the ones that follow within the
delay are merged (their topics together, each version the highest) into one event sent when the
delay has passed. ``live.js`` asks for the least ``data-live-delay`` of the page's regions, which
refresh no more often than that anyway: a hall of phones following the standings while a result
is confirmed every few seconds gets one event per phone per delay, not one per result (the events
process's work is per event and stream).
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings

from scoring.live.push import EVENT_TYPE, group_name, has_group
from scoring.models import Tournament

log = logging.getLogger(__name__)

HEADERS = [
    (b"Content-Type", b"text/event-stream; charset=utf-8"),
    (b"Cache-Control", b"no-cache, no-transform"),
    (b"X-Accel-Buffering", b"no"),
]


@database_sync_to_async
def tournament_id(slug: str) -> int | None:
    """The id of the tournament with ``slug``, or None."""
    return Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()


#: The most topics a stream may name; a stream naming more gets every event.
MAX_TOPICS = 50


def requested_topics(query_string: bytes) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """The ``topics`` of the stream's query string as (exact topics, prefixes of ``*`` topics), or
    ``None`` when it names none or more than :data:`MAX_TOPICS` (every event is sent). Topics longer
than 80 characters are left out."""
    values = parse_qs(query_string.decode("latin-1")).get("topics", [])
    words = [w for v in values for w in v.replace(",", " ").split() if len(w) <= 80]
    if not words or len(words) > MAX_TOPICS:  # more than a page asks for: every event
        return None
    exact = frozenset(w for w in words if not w.endswith("*"))
    return exact, tuple(w[:-1] for w in words if w.endswith("*"))


#: The longest delay a stream may ask for (seconds).
MAX_DELAY = 300.0


def requested_delay(query_string: bytes) -> float:
    """The ``delay`` of the stream's query string in seconds (0 to :data:`MAX_DELAY`; 0 when
    missing or not a number: every event at once)."""
    values = parse_qs(query_string.decode("latin-1")).get("delay", [])
    try:
        delay = float(values[0]) if values else 0.0
    except ValueError:
        return 0.0
    return min(max(delay, 0.0), MAX_DELAY) if delay == delay else 0.0  # NaN: 0


def merged(first: dict, later: dict) -> dict:
    """One channel-layer event message for two (:func:`scoring.live.push.event_message`): the
    topics of both, sorted, and each counter's highest version."""
    versions = dict(first.get("versions") or {})
    for name, value in (later.get("versions") or {}).items():
        versions[name] = max(value, versions.get(name, value))
    return {"type": EVENT_TYPE, "topics": sorted({*first.get("topics", []), *later.get("topics", [])}),
            "versions": versions}


def stream_groups(tournament_pk: int, wanted_topics: tuple[frozenset[str], tuple[str, ...]] | None) -> list[str]:
    """The channel-layer groups a stream joins (:func:`scoring.live.push.event_groups` sends to
    them): the group of each topic it asked for (``result:*`` has one), or the tournament's group
    (every event, filtered by :func:`wanted`) when it asked for none or for a topic without a
    group of its own (a prefix such as ``res*``)."""
    if wanted_topics is None:
        return [group_name(tournament_pk)]
    exact, prefixes = wanted_topics
    asked = sorted(exact) + [p + "*" for p in prefixes]
    if not all(has_group(t) and (not t.endswith("*") or t.endswith(":*")) for t in asked):
        return [group_name(tournament_pk)]
    return [group_name(tournament_pk, t) for t in asked]


def wanted(topics: list[str], wanted_topics: tuple[frozenset[str], tuple[str, ...]] | None) -> bool:
    """Whether an event naming ``topics`` goes to a stream that asked for ``wanted_topics``
    (:func:`requested_topics`; ``None``: every event)."""
    if wanted_topics is None:
        return True
    exact, prefixes = wanted_topics
    return any(t in exact or t.startswith(prefixes) for t in topics) if prefixes else not exact.isdisjoint(topics)


def event_bytes(message: dict) -> bytes:
    """One server-sent event for a channel-layer ``message`` (``topics``, ``versions``)."""
    data = json.dumps({"topics": message.get("topics", []), "versions": message.get("versions", {})},
                      separators=(",", ":"))
    return f"data: {data}\n\n".encode()


class TournamentEvents(AsyncHttpConsumer):
    """One open page's event stream (see the module). Joins the tournament's group on the channel
    layer for as long as the client stays; ``live_event`` is the group messages' handler."""

    group: str | None = None
    groups: tuple[str, ...] = ()
    #: The ids of the last events sent on (an event reaches a stream once per group it is in).
    seen: collections.deque | None = None
    beat: asyncio.Task | None = None
    topics: tuple[frozenset[str], tuple[str, ...]] | None = None
    delay: float = 0.0
    #: The events merged while the delay runs (:meth:`live_event`), sent when it has passed.
    held: dict | None = None
    window: asyncio.Task | None = None

    async def http_request(self, message):
        """Answer the request and stay open (Channels' default ends the response when
        :meth:`handle` returns; a stream ends on ``http.disconnect`` instead)."""
        if not message.get("more_body"):
            await self.handle(b"")
            if self.group is None:  # answered (404): done
                raise StopConsumer()

    async def handle(self, body):
        """404 for an unknown tournament; otherwise the headers, the ``retry:`` line, and the
        group joined."""
        slug = self.scope["url_route"]["kwargs"]["slug"]
        pk = await tournament_id(slug)
        if pk is None:
            await self.send_response(404, b"", headers=[(b"Content-Type", b"text/plain")])
            return
        self.group = group_name(pk)
        self.topics = requested_topics(self.scope.get("query_string", b""))
        self.delay = requested_delay(self.scope.get("query_string", b""))
        self.groups = tuple(stream_groups(pk, self.topics))
        self.seen = collections.deque(maxlen=32)
        joined = []
        try:
            for group in self.groups:
                await self.channel_layer.group_add(group, self.channel_name)
                joined.append(group)
        except Exception as exc:  # noqa: BLE001 - Redis down: the page polls (its fallback)
            log.warning("event stream refused, the channel layer is unavailable: %r", exc)
            for group in joined:
                with contextlib.suppress(Exception):
                    await self.channel_layer.group_discard(group, self.channel_name)
            self.group, self.groups = None, ()
            await self.send_response(503, b"", headers=[(b"Content-Type", b"text/plain"), (b"Retry-After", b"60")])
            return
        await self.send_headers(headers=HEADERS)
        await self.send_body(f"retry: {int(settings.LIVE_RETRY_MS)}\n\n".encode(), more_body=True)
        self.beat = asyncio.ensure_future(self._heartbeat(float(settings.LIVE_HEARTBEAT_SECONDS)))

    async def _heartbeat(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            await self.send_body(b": beat\n\n", more_body=True)

    async def dispatch(self, message):
        """Channels' dispatch, except for the group's events: Channels closes stale database
        connections before every handler through a hop to its one database thread, which for one
        event and 2,000 streams is 2,000 hops in a row; :meth:`live_event` uses no database."""
        if message.get("type") == EVENT_TYPE:
            await self.live_event(message)
        else:
            await super().dispatch(message)

    async def live_event(self, message):
        """A :func:`~scoring.live.push.publish` of this tournament: sent on as one event when it
        names a topic the stream asked for; with a ``delay``, held and merged while the delay
        after the last event sent runs (see the module)."""
        if self.group is None or not wanted(message.get("topics", []), self.topics):
            return
        event_id = message.get("id")
        if event_id is not None:
            if event_id in self.seen:
                return
            self.seen.append(event_id)
        if self.delay <= 0:
            await self.send_body(event_bytes(message), more_body=True)
        elif self.window is not None:
            self.held = message if self.held is None else merged(self.held, message)
        else:
            await self.send_body(event_bytes(message), more_body=True)
            self.window = asyncio.ensure_future(self._hold())

    async def _hold(self) -> None:
        """Wait the delay; send what was held meanwhile as one event and wait again, until a
        delay passes with nothing held."""
        try:
            while True:
                await asyncio.sleep(self.delay)
                if self.held is None or self.group is None:
                    return
                message, self.held = self.held, None
                await self.send_body(event_bytes(message), more_body=True)
        finally:
            self.window = None

    async def disconnect(self):
        """The client went away: stop the heartbeat and leave the group."""
        for task in (self.beat, self.window):
            if task is not None:
                task.cancel()
        self.beat = self.window = None
        if self.group is not None:
            for group in self.groups:
                await self.channel_layer.group_discard(group, self.channel_name)
            self.group, self.groups = None, ()
