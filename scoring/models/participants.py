"""Entrants: players and Tai Pan teams of two (docs/tournaments.md)."""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.persons import Person, PublicNames
from scoring.models.tournaments import Tournament


class Player(models.Model):
    """A person. In Tai Pan a member of a :class:`Team`; in four-player games an entrant.

    ``joined_round``: first round the player may be seated (late entry; individual games).
    ``withdrawn_after_round``: never seated after this round; results kept. ``rating``: optional
    strength (whole number, higher is stronger). ``person``: the same human across tournaments
    (:class:`~scoring.models.persons.Person`; set on registration). ``federation_number``: as
    entered (matches the person). ``public_name``: how the name is shown publicly (empty: the
    tournament's :attr:`~scoring.models.Tournament.public_names`).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=120)
    affiliation = models.CharField(_("affiliation"), max_length=120, blank=True)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True,
                                         help_text=_("A whole number, higher is stronger."))
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True, blank=True)
    is_substitute = models.BooleanField(_("substitute"), default=False)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="entries",
                               verbose_name=_("person"))
    federation_number = models.CharField(_("federation number"), max_length=40, blank=True)
    public_name = models.CharField(_("public name"), max_length=10, blank=True, choices=PublicNames.choices,
                                   help_text=_("Empty: the tournament's setting."))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # One federation number is one person: at most once in a tournament (issue 26; the forms,
            # imports and API refuse it next to the field first, this is the guard against races).
            models.UniqueConstraint(fields=["tournament", "federation_number"], condition=~models.Q(federation_number=""),
                                    name="unique_federation_number_per_tournament"),
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A Tai Pan team of two players; ``first_player`` sits N (or E), ``second_player`` S (or W).

    ``joined_round``: first round the team may be paired (late entry). ``withdrawn_after_round``:
    the team is never paired after this round; its results are kept. ``rating``: optional
    strength (whole number, higher is stronger) for round 1 by rating; ``affiliation``: the club
    (club avoidance, :mod:`scoring.draw.pairing_clubs`).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    affiliation = models.CharField(_("affiliation"), max_length=120, blank=True)
    first_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("first player"))
    second_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("second player"))
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True,
                                         help_text=_("A whole number, higher is stronger (round 1 by rating)."))
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name_per_tournament")]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name

    @property
    def player_names(self) -> str:
        """``"Anna & Bart"``."""
        return f"{self.first_player.name} & {self.second_player.name}"
