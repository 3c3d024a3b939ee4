"""Run two (or more) operations at the same moment, each in its own thread with its own database
connection, released together by a :class:`threading.Barrier` (the race tests of issue 10 item 4).

Each operation is a callable without arguments; it runs in its own thread after every thread has
reached the barrier, as if its request arrived at that moment. Its outcome is kept: what it
returned when it was acknowledged, or the refusal it raised (the services' refusals:
:class:`~scoring.errors.ServiceError` and ``PermissionDenied``). Any other exception is a failure
of the test and is raised again in the calling thread. Each thread closes its database
connections at the end, and speaks the calling thread's language (its messages are compared
with the caller's).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connections
from django.utils import translation

from scoring.errors import ServiceError

#: Refusals a service may give instead of acknowledging an operation.
REFUSALS: tuple[type[BaseException], ...] = (ServiceError, PermissionDenied)


@dataclass
class Outcome:
    """What one operation of a race gave: ``ok`` (acknowledged) with its ``value``, or the
    ``error`` it was refused with."""

    ok: bool = False
    value: Any = None
    error: BaseException | None = None


def race(*operations: Callable[[], Any], timeout: float = 60) -> list[Outcome]:
    """Run ``operations`` at the same moment (one thread each, released by a barrier) and return
    their outcomes in the same order."""
    barrier = threading.Barrier(len(operations))
    # Each thread speaks the caller's language (a new thread would otherwise fall back to
    # LANGUAGE_CODE, while the test's own thread has the translations switched off).
    language = translation.get_language()
    outcomes = [Outcome() for _ in operations]
    failures: list[BaseException] = []

    def run(i: int) -> None:
        if language is None:
            translation.deactivate_all()
        else:
            translation.activate(language)
        try:
            barrier.wait(timeout=timeout)
            outcomes[i].value = operations[i]()
            outcomes[i].ok = True
        except REFUSALS as exc:
            outcomes[i].error = exc
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            failures.append(exc)
        finally:
            translation.deactivate()
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(operations))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    if any(thread.is_alive() for thread in threads):
        raise AssertionError("a racing operation did not finish (deadlock?)")
    if failures:
        raise failures[0]
    return outcomes
