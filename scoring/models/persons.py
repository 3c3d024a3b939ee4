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


def short_name(name: str) -> str:
    """First name and the initial of the last name: ``"Anna de Vries"`` -> ``"Anna V."``,
    ``"Bart"`` -> ``"Bart"`` (one word stays whole). Whitespace is collapsed."""
    words = name.split()
    if len(words) < 2:
        return " ".join(words)
    return f"{words[0]} {words[-1][0].upper()}."


def name_setting(player_setting: str, tournament_setting: str) -> str:
    """The setting that applies: the player's own (``"full"``/``"short"``) or, when empty, the
    tournament's."""
    return player_setting or tournament_setting or PublicNames.FULL


def shown_name(name: str, player_setting: str, tournament_setting: str) -> str:
    """``name`` as the public sees it under the player's and the tournament's settings (the core of
    :func:`scoring.participants.names.public_name`, here so that the lower layers, e.g. the
    result kinds' sides, can apply it too)."""
    return short_name(name) if name_setting(player_setting, tournament_setting) == PublicNames.SHORT else name


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
