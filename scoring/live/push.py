"""Sending what changed to the open pages (server-sent events).

:func:`publish` is called by :mod:`scoring.live.state` after the transaction that changed the
tournament has committed.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping


def publish(tournament_id: int, topics: Iterable[str], versions: Mapping[str, int] | None = None) -> None:
    """Tell the pages following tournament ``tournament_id`` that ``topics`` changed
    (:mod:`scoring.live` names them), with the new ``versions`` of the counters (topic -> int).
    Never raises: a push that cannot be sent leaves the pages to their polling fallback."""
    return None
