"""Seasons (series) of tournaments and their ranking (issue 26 item 3, docs/players.md "Season
ranking"): a :class:`Season` groups tournaments and says how many points each final place earns;
:class:`FinalPlace` keeps each entrant's final place of a finished tournament, derived from the
standings (rebuilt with ``manage.py rebuild_final_places``), so the season page reads every
tournament's places in one query."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.participants import Player
from scoring.models.tournaments import Tournament


class PointsPreset(models.TextChoices):
    """How a season turns a final place into points (:func:`scoring.standings.seasons.table_for`)."""

    FORMULA1 = "formula1", _("Formula 1: 25-18-15-12-10-8-6-4-2-1")
    TOP20 = "top20", _("Top 20: 20-19-...-1")
    FIELD = "field", _("Field: one point per entrant placed below, plus one")
    CUSTOM = "custom", _("Own table")


class Season(models.Model):
    """A series of tournaments with one ranking.

    ``preset``: the points per place (:class:`PointsPreset`); with ``custom`` the list
    ``points_table`` (``[p1, p2, ...]``: points for place 1, 2, ...). Places beyond the table earn
    ``participation`` points. ``best_n``: how many of a person's results count (``None``: all).
    Managed by ``created_by`` and the ``managers`` (:func:`scoring.policy.can_manage_season`).
    A tournament may be in several seasons. ``version``: optimistic concurrency (see the field).
    """

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    tournaments = models.ManyToManyField(Tournament, related_name="seasons", blank=True, verbose_name=_("tournaments"))
    preset = models.CharField(_("points per place"), max_length=20, choices=PointsPreset.choices,
                              default=PointsPreset.FORMULA1)
    points_table = models.JSONField(_("own points table"), default=list, blank=True,
                                    help_text=_("Points for place 1, 2, ... (with the preset \"own table\")."))
    participation = models.PositiveSmallIntegerField(_("participation points"), default=0,
                                                     help_text=_("Points for a place beyond the table."))
    best_n = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True,
                                              help_text=_("Empty: every result counts."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="created_seasons", verbose_name=_("created by"))
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="managed_seasons", blank=True,
                                      verbose_name=_("co-managers"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: Increases on every save through :func:`scoring.seasons.manage.save_season`; the edit form
    #: (and optionally the API) carries it and a stale one is refused (:mod:`scoring.locking`).
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class FinalPlace(models.Model):
    """A player's final place in a finished tournament (derived from the standings when the
    tournament finishes; deleted when it is resumed). Tai Pan: both players of a team get the
    team's place. ``tied``: how many entrants share ``place``; ``field``: how many entrants were
    ranked."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="final_places")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="final_place")
    place = models.PositiveIntegerField()
    tied = models.PositiveIntegerField(default=1)
    field = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("final place")
        verbose_name_plural = _("final places")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.place}"
