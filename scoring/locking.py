"""The one lock helper and the one version parser (optimistic concurrency inside a row lock).

Every change that depends on what it read locks that row (``SELECT ... FOR UPDATE``) inside the
caller's transaction and checks the version the user's page was built from *inside* the lock, so
two writers are serialised by the database and the second one sees the first one's version.
"""
from __future__ import annotations

from typing import Any, TypeVar

from django.db import models, transaction

from scoring.errors import StaleVersion

M = TypeVar("M", bound=models.Model)


def lock(queryset: models.QuerySet[M] | type[M], pk: Any, *, expected_version: int | None = None) -> M:
    """Re-read row ``pk`` of ``queryset`` (a model or a queryset, e.g. with ``select_related``)
    with a row lock held until the surrounding transaction ends, and return it.

    ``expected_version``: when given, the row's ``version`` must equal it, checked inside the lock;
    otherwise :class:`~scoring.errors.StaleVersion`. Must run inside ``transaction.atomic()``
    (raises ``TransactionManagementError`` otherwise). Only the row itself is locked
    (``of=("self",)``), not the rows joined by ``select_related``."""
    if isinstance(queryset, type):
        queryset = queryset.objects.all()
    if not transaction.get_connection(queryset.db).in_atomic_block:
        raise transaction.TransactionManagementError("lock() must run inside transaction.atomic()")
    row = queryset.select_for_update(of=("self",)).get(pk=pk)
    if expected_version is not None and int(expected_version) != row.version:
        raise StaleVersion()
    return row


def parse_version(raw: Any) -> int:
    """The version a web form or API request carried, as an int >= 0.

    Every write must carry the version it was built from: a missing, empty, negative, non-ASCII or
    non-numeric value is refused exactly like a stale one (:class:`~scoring.errors.StaleVersion`,
    "changed by someone else, reload"), so the check cannot be bypassed."""
    text = str(raw).strip() if raw is not None else ""
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise StaleVersion()
    return int(text)
