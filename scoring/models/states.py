"""Explicit states (django-fsm-2): a status field moves only through named transition methods that
check the allowed source states; assigning it directly raises ``AttributeError`` (``protected``).

Every writer goes through the transitions (the services call them inside their row locks); a
transition that is not allowed from the current state raises :class:`TransitionNotAllowed`.
"""
from __future__ import annotations

from django.db import models
from django_fsm import FSMField, TransitionNotAllowed, can_proceed, transition

__all__ = ["FSMField", "StatefulModel", "TransitionNotAllowed", "can_proceed", "transition"]


class StatefulModel(models.Model):
    """Base of models with a protected ``status`` :class:`FSMField`: ``refresh_from_db`` reloads
    the status too (the protected descriptor refuses a second assignment, so the stale value is
    dropped from the instance first; thread-safe, unlike toggling the field's protection)."""

    class Meta:
        abstract = True

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        """Reload from the database, status included (same effect as Django's, in one query)."""
        if fields is None:
            fields = [f.attname for f in self._meta.concrete_fields if f.attname in self.__dict__ or f.attname == "status"]
            self._prefetched_objects_cache = {}
            for rel in self._meta.related_objects:
                if rel.is_cached(self):
                    rel.delete_cached_value(self)
        if "status" in fields:
            self.__dict__.pop("status", None)
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)
