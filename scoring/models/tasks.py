"""Stored state of background tasks."""
from __future__ import annotations

from django.db import models


class TaskState(models.Model):
    """Stored state of a background task (round pack PDF, standings refresh): idempotent by ``key``."""

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=40)
    status = models.CharField(max_length=20, default="pending")
    progress = models.PositiveSmallIntegerField(default=0)
    total = models.PositiveSmallIntegerField(default=0)
    result_path = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
