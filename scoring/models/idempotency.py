"""Answers of API writes kept for their ``Idempotency-Key`` (issue 22 item 6,
:mod:`scoring.api.idempotency`)."""
from __future__ import annotations

from django.db import models


class IdempotentAnswer(models.Model):
    """The answer (status, JSON body, ``Location``/``ETag``) of one successful API write, kept
    under the key its client sent, per actor (``actor``: ``"user:<id>"`` or ``"link:<id>"``).
    The row is written in the write's own transaction: it exists exactly when the write was
    stored. ``fingerprint`` is the SHA-256 of the method, the path with its query and the JSON
    body, so the same key with another request is told apart. Kept 24 hours
    (``settings.IDEMPOTENCY_KEY_HOURS``)."""

    actor = models.CharField(max_length=40)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True)
    body = models.JSONField(null=True)
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["actor", "key"], name="idempotent_answer_actor_key")]

    def __str__(self) -> str:
        return f"{self.actor} {self.key}"
