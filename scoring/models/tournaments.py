"""Tournaments and per-tournament roles (DESIGN.md 3)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    """Games with a rule engine (``engines.<value>``)."""

    TAIPAN = "taipan", _("Tai Pan")
    SICHUAN = "sichuan", _("Sichuan mahjong (bloody battle)")
    TAIWANESE = "taiwanese", _("Taiwanese 16-tile mahjong")
    TIENGOW = "tiengow", _("Tien Gow")


TEAM_GAMES = {Game.TAIPAN}
FOUR_PLAYER_GAMES = {Game.SICHUAN, Game.TAIWANESE, Game.TIENGOW}


class RoundFormat(models.TextChoices):
    """How a round is played (DESIGN.md 3)."""

    TARGET = "target", _("Play to the target score")
    FIXED_HANDS = "fixed_hands", _("Fixed number of hands")


class Tournament(models.Model):
    """A tournament of one game.

    ``rules``: the engine's ``"rules"`` value (preset name or ``{"preset": ..., overrides}``),
    validated by the engine on save through the form/service layer. ``tiebreaks``: ordered list of
    tie-break keys (see ``scoring.standings.tiebreaks``), fixed before round 1.
    """

    class Status(models.TextChoices):
        SETUP = "setup", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices, default=Game.TAIPAN)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    round_format = models.CharField(
        _("round format"), max_length=20, choices=RoundFormat.choices, default=RoundFormat.TARGET
    )
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"), null=True, blank=True, help_text=_("Only for the fixed-hands format.")
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    seed = models.IntegerField(_("pairing seed"), default=0)
    blind_confirmation = models.BooleanField(
        _("blind confirmation"),
        default=False,
        help_text=_("The confirmer re-types the final totals without seeing them."),
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SETUP)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_on = models.DateField(_("date"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="tournaments", blank=True
    )

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scoring:tournament_detail", args=[self.slug])

    @property
    def is_team_game(self) -> bool:
        """True for Tai Pan (teams of two), False for four-player games."""
        return self.game in TEAM_GAMES


class Membership(models.Model):
    """A user's role in one tournament. Organisers may do everything a referee may."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user_per_tournament")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} - {self.get_role_display()} - {self.tournament}"
