"""Sending what changed to the open pages (server-sent events).

:func:`publish` is called by :mod:`scoring.live.state` after the transaction that changed the
tournament has committed. It sends one message to the tournament's group on the channel layer
(Django Channels: Redis pub/sub when ``REDIS_URL`` is set, in-process memory otherwise); the
events process (:mod:`scoring.live.events`, ``nskt.asgi``) hands it to every page following that
tournament. A message nobody listens to costs one Redis ``PUBLISH``.

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
import threading
from collections.abc import Iterable, Mapping

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# Seconds a publish may take before it is dropped (logged).
SEND_TIMEOUT = 2.0
# The type of the channel-layer message: dispatched to the consumer's ``live_event`` method.
EVENT_TYPE = "live.event"


def group_name(tournament_id: int) -> str:
    """The channel-layer group of the pages following tournament ``tournament_id``."""
    return f"live.t{int(tournament_id)}"


def event_message(topics: Iterable[str], versions: Mapping[str, int] | None) -> dict:
    """The channel-layer message for ``topics`` (sorted, unique) and ``versions`` (topic -> int)."""
    return {"type": EVENT_TYPE, "topics": sorted(set(topics)),
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

    def submit(self, layer, group: str, message: dict) -> None:
        """Send ``message`` to ``group`` without waiting; failures are logged."""
        future = asyncio.run_coroutine_threadsafe(_send(layer, group, message), self.loop())
        future.add_done_callback(_log_failure)


async def _send(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)


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
        if _in_process(layer):
            async_to_sync(_send)(layer, group_name(tournament_id), message)
        else:
            _sender.submit(layer, group_name(tournament_id), message)
    except Exception as error:  # noqa: BLE001 - a push must never break the write that made it
        log.warning("live push not sent (pages fall back to polling): %r", error)
