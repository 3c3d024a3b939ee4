"""The event stream of one tournament: ``/events/<slug>/`` (server-sent events), served by the
events process (``nskt.asgi``, uvicorn) with Django Channels.

The answer is ``text/event-stream``: first a ``retry:`` line (milliseconds before the browser
reconnects, ``settings.LIVE_RETRY_MS``), then one event per :func:`scoring.live.push.publish` of
the tournament, its data a JSON object ``{"topics": [...], "versions": {...}}``, and a comment
line (``: beat``) every ``settings.LIVE_HEARTBEAT_SECONDS`` so that proxies and phones keep the
connection. An unknown slug is answered 404 (the browser then stops trying and the page polls).
The stream ends when the client goes away. Nothing in it is private: it says only which parts of
the public pages changed.

``?topics=standings+round:1+result:*`` (space- or comma-separated; a topic ending in ``*``
matches every topic it begins) makes the stream carry only the events naming one of those topics:
``static/js/live.js`` asks for the topics of the page's live regions, so a phone following the
standings is not woken by every hand entered in the hall. Without ``topics`` every event of the
tournament is sent.
"""
from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings

from scoring.live.push import EVENT_TYPE, group_name
from scoring.models import Tournament

HEADERS = [
    (b"Content-Type", b"text/event-stream; charset=utf-8"),
    (b"Cache-Control", b"no-cache, no-transform"),
    (b"X-Accel-Buffering", b"no"),
]


@database_sync_to_async
def tournament_id(slug: str) -> int | None:
    """The id of the tournament with ``slug``, or None."""
    return Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()


def requested_topics(query_string: bytes) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """The ``topics`` of the stream's query string as (exact topics, prefixes of ``*`` topics), or
    ``None`` when it names none (every event is sent). At most 50 topics of 80 characters are read."""
    values = parse_qs(query_string.decode("latin-1")).get("topics", [])
    words = [w for v in values for w in v.replace(",", " ").split() if len(w) <= 80][:50]
    if not words:
        return None
    exact = frozenset(w for w in words if not w.endswith("*"))
    return exact, tuple(w[:-1] for w in words if w.endswith("*"))


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
    beat: asyncio.Task | None = None
    topics: tuple[frozenset[str], tuple[str, ...]] | None = None

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
        await self.channel_layer.group_add(self.group, self.channel_name)
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
        names a topic the stream asked for."""
        if self.group is not None and wanted(message.get("topics", []), self.topics):
            await self.send_body(event_bytes(message), more_body=True)

    async def disconnect(self):
        """The client went away: stop the heartbeat and leave the group."""
        if self.beat is not None:
            self.beat.cancel()
            self.beat = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
