"""Signals of the round lifecycle (:mod:`scoring.draw.rounds`), sent after the change is committed
(``transaction.on_commit``), so receivers see the committed round. Layers above the draw react to
them (the hall posts its automatic announcements, :mod:`scoring.hall.announcements`); the draw never
imports them.

Both are sent with ``sender=Round`` and the keyword arguments ``round`` (the round, refreshed) and
``actor`` (who did it)."""
from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

#: A draft round was published (its pairing or seating is public).
round_published = Signal()
#: A published round was started (play has begun).
round_started = Signal()
#: A round was closed (every result confirmed); ``actor`` is ``None`` when it was closed on the way
#: to drawing the next round.
round_closed = Signal()


def send_on_commit(signal: Signal, rnd, actor) -> None:
    """Send ``signal`` for round ``rnd`` once the surrounding transaction commits (at once
    outside one)."""
    from scoring.models import Round

    transaction.on_commit(lambda: signal.send(sender=Round, round=rnd, actor=actor))
