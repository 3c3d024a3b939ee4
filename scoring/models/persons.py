"""People across tournaments (issue 26, docs/players.md): a :class:`Person` is the same human in
every tournament they enter; each tournament's :class:`~scoring.models.Player` entry points to one.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PublicNames(models.TextChoices):
    """How a player's name is shown on public pages, exports and the API (issue 26 item 1).

    ``FULL``: the name as entered. ``SHORT``: first name and initial ("Anna de V."). A player's
    own setting (:attr:`Player.public_name`, empty: the tournament's) wins over the tournament's
    default (:attr:`Tournament.public_names`, set by the organiser)."""

    FULL = "full", _("Full name")
    SHORT = "short", _("First name and initial")


class Person(models.Model):
    """A person across tournaments.

    ``name``: the full name as last entered. ``federation_number``: the federation or student
    number (``None`` when not known; unique): an entry with a known number is matched to its
    person automatically; otherwise only an organiser joins two people (the review list,
    :mod:`scoring.participants.persons`); nothing is ever joined silently by name.
    """

    name = models.CharField(_("name"), max_length=120)
    federation_number = models.CharField(_("federation number"), max_length=40, null=True, blank=True, unique=True,
                                         help_text=_("A federation or student number; the same number is the same person."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")

    def __str__(self) -> str:
        return self.name


class DistinctPersons(models.Model):
    """Two look-alike persons an organiser declared to be different people: the review list no
    longer offers them (``first_id < second_id``)."""

    first = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="unique_distinct_persons"),
            models.CheckConstraint(condition=models.Q(first__lt=models.F("second")), name="distinct_persons_ordered"),
        ]
        verbose_name = _("distinct persons")
        verbose_name_plural = _("distinct persons")
