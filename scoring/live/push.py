"""Sending what changed to the open pages (server-sent events).

:func:`publish` is called by :mod:`scoring.live.state` after the transaction that changed the
tournament has committed. It sends one message to the tournament's groups on the channel layer
(Django Channels: Redis pub/sub when ``REDIS_URL`` is set, in-process memory otherwise) that
concern its topics (:func:`event_groups`): the tournament's group (streams that asked for no
topics), one group per topic (``standings``, ``result:12``) and one per topic family
(``result:*``). The events process (:mod:`scoring.live.events`, ``nskt.asgi``) joins each stream
to the groups of the topics it asked for, so an event reaches only the streams that want it:
a hand saved at one table wakes the few phones following that table, not every open page of the
hall. A stream in two groups of one event gets it once (the message's ``id``). A message nobody
listens to costs one Redis ``PUBLISH`` per group.

A web process (gunicorn, sync) sends through one background event loop of its own (one thread,
one Redis connection, started on the first publish), so a request never waits for Redis and
never opens a connection per publish; a publish that fails or takes longer than
:data:`SEND_TIMEOUT` seconds is logged and dropped: the pages then catch up by their polling
fallback. With an in-process layer (tests, one ASGI process) the message is sent on the
caller's loop (``async_to_sync``).
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
import uuid
from collections.abc import Iterable, Mapping

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# Seconds a publish may take before it is dropped (logged).
SEND_TIMEOUT = 2.0
# The type of the channel-layer message: dispatched to the consumer's ``live_event`` method.
EVENT_TYPE = "live.event"


#: A topic that has a group of its own: a word, or a word, ``:`` and a word (``round:3``), or a
#: family (``result:*``); channel-layer group names allow letters, digits, ``-``, ``_`` and ``.``.
_GROUPED = re.compile(r"^[A-Za-z0-9_-]{1,40}(?::(?:[A-Za-z0-9_-]{1,40}|\*))?$")


def group_name(tournament_id: int, topic: str | None = None) -> str:
    """The channel-layer group of the pages following tournament ``tournament_id``: every event
    (``topic`` ``None``), or the events naming ``topic`` (a topic :func:`has_group` accepts;
    ``result:*``: every ``result:<id>``). Raises ``ValueError`` for any other topic."""
    base = f"live.t{int(tournament_id)}"
    if topic is None:
        return base
    if not has_group(topic):
        raise ValueError(f"no group for the topic {topic!r}")
    return f"{base}.{topic.replace(':', '.').replace('*', '_all')}"


def has_group(topic: str) -> bool:
    """Whether ``topic`` (as a stream may ask for it) has a group of its own (:data:`_GROUPED`);
    a stream asking for another (``res*``) follows the tournament's group and filters."""
    return bool(_GROUPED.match(topic))


def event_groups(tournament_id: int, topics: Iterable[str]) -> list[str]:
    """The groups an event naming ``topics`` goes to: the tournament's, each topic's and each
    topic family's (``result:12`` -> ``result:*``), without repeats."""
    groups = [group_name(tournament_id)]
    for topic in topics:
        if not has_group(topic) or topic.endswith("*"):
            continue
        groups.append(group_name(tournament_id, topic))
        if ":" in topic:
            groups.append(group_name(tournament_id, topic.split(":", 1)[0] + ":*"))
    return list(dict.fromkeys(groups))


def event_message(topics: Iterable[str], versions: Mapping[str, int] | None) -> dict:
    """The channel-layer message for ``topics`` (sorted, unique) and ``versions`` (topic -> int),
    with an ``id`` of its own (a stream in several of its groups sends it once)."""
    return {"type": EVENT_TYPE, "id": uuid.uuid4().hex, "topics": sorted(set(topics)),
            "versions": {str(k): int(v) for k, v in (versions or {}).items()}}


class _Sender:
    """One event loop in a daemon thread of this process, for sending to a Redis channel layer
    from sync code. Started lazily (after a fork: each gunicorn worker has its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        """The running background loop (started on the first call in this process)."""
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="live-publish", daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def submit(self, layer, groups: list[str], message: dict) -> None:
        """Send ``message`` to ``groups`` without waiting; failures are logged."""
        future = asyncio.run_coroutine_threadsafe(_send(layer, groups, message), self.loop())
        future.add_done_callback(_log_failure)


async def _send(layer, groups: list[str], message: dict) -> None:
    await asyncio.wait_for(asyncio.gather(*(layer.group_send(group, message) for group in groups)), SEND_TIMEOUT)


def _log_failure(future) -> None:
    if future.cancelled():
        return
    error = future.exception()
    if error is not None:
        log.warning("live push not sent (pages fall back to polling): %r", error)


_sender = _Sender()


def _in_process(layer) -> bool:
    from channels.layers import InMemoryChannelLayer

    return isinstance(layer, InMemoryChannelLayer)


def publish(tournament_id: int, topics: Iterable[str], versions: Mapping[str, int] | None = None) -> None:
    """Tell the pages following tournament ``tournament_id`` that ``topics`` changed
    (:mod:`scoring.live` names them), with the new ``versions`` of the counters (topic -> int).
    Never raises: a push that cannot be sent leaves the pages to their polling fallback."""
    try:
        topics = list(topics)
        if not topics:
            return
        layer = get_channel_layer()
        if layer is None:
            return
        message = event_message(topics, versions)
        groups = event_groups(tournament_id, message["topics"])
        if _in_process(layer):
            async_to_sync(_send)(layer, groups, message)
        else:
            _sender.submit(layer, groups, message)
    except Exception as error:  # noqa: BLE001 - a push must never break the write that made it
        log.warning("live push not sent (pages fall back to polling): %r", error)
