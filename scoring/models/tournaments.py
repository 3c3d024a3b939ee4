"""Tournaments and per-tournament roles (docs/tournaments.md)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.games import base, registry
from scoring.games.base import EntrantKind, GameAdapter
from scoring.models.persons import PublicNames
from scoring.models.states import FSMField, StatefulModel, transition


class RoundFormat(models.TextChoices):
    """How a round is played (docs/tournaments.md, "Round formats"); a game offers those its
    adapter lists (:attr:`scoring.games.base.GameAdapter.round_formats`)."""

    TARGET = base.TARGET, _("Play to the target score")
    FIXED_HANDS = base.FIXED_HANDS, _("Fixed number of hands")
    WIND_ROUNDS = base.WIND_ROUNDS, _("Fixed number of wind rounds")
    TIME_LIMIT = base.TIME_LIMIT, _("Until the time limit")


class FirstRoundMethod(models.TextChoices):
    """How round 1 of a team tournament is paired (:mod:`scoring.draw.pairing_seeding`). Empty:
    by seed numbers when every team has one, else random (the rule before issue 23)."""

    AUTO = "", _("automatic (by seed number if every team has one, else random)")
    RANDOM = "random", _("random draw")
    SEEDED = "seeded", _("by seed number, slide (1 v n/2+1)")
    RATING = "rating", _("by rating, slide (1 v n/2+1)")
    FOLD = "fold", _("by seed number, fold (1 v n)")
    FOLD_RATING = "fold_rating", _("by rating, fold (1 v n)")


class Tournament(StatefulModel):
    """A tournament of one game (``game``: a key of the games registry, :mod:`scoring.games`).

    ``rules``: the engine's ``"rules"`` value (preset name or ``{"preset": ..., overrides}``),
    validated by the game's adapter in the form/service layer. ``tiebreaks``: ordered list of
    tie-break keys (see ``scoring.standings.tiebreaks``), fixed before round 1. ``placement``:
    four-player games' placement points setting (:func:`scoring.standings.placement.parse`;
    ``{}``: none), validated in the form/service layer.

    States (:meth:`start`, :meth:`finish`, :meth:`resume`): registration -> running (the first
    round is published) -> finished (the organiser ends it; it can be resumed).
    """

    class Status(models.TextChoices):
        SETUP = "setup", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class EntryMode(models.TextChoices):
        """How referees enter a four-player deal (docs/tournaments.md, "Entry mode")."""

        QUICK = "quick", _("Quick: who won, from whom and the value")
        FULL = "full", _("Full: every hand validated tile by tile")

    class Verification(models.TextChoices):
        """When the opponents verify a result entered through a private link (docs/results.md)."""

        AT_END = "end", _("At the end of the match")
        PER_RECORD = "each", _("Per hand (deal)")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=registry.choices, default="taipan")
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    round_format = models.CharField(
        _("round format"), max_length=20, choices=RoundFormat.choices, default=RoundFormat.TARGET
    )
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"), null=True, blank=True,
        help_text=_("The count of the round format: hands (deals) per round, or wind rounds per round."),
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    placement = models.JSONField(
        _("placement points"), default=dict, blank=True,
        help_text=_("Four-player games: the placement points per table (uma, oka, ties), a preset or custom values."),
    )
    seed = models.IntegerField(_("pairing seed"), default=0)
    first_round_method = models.CharField(
        _("round 1 pairing"),
        max_length=20,
        choices=FirstRoundMethod.choices,
        blank=True,
        default="",
        help_text=_("How round 1 is paired unless chosen otherwise on the pair page (team games)."),
    )
    avoid_same_club = models.BooleanField(
        _("avoid same-club pairings"),
        default=True,
        help_text=_("Teams of one club (affiliation) do not meet when swapping opponents with another table of the "
                    "same score groups avoids it; never at the cost of a rematch or a float."),
    )
    blind_confirmation = models.BooleanField(
        _("blind confirmation"),
        default=False,
        help_text=_("The confirmer re-types the final totals without seeing them."),
    )
    player_entry = models.BooleanField(
        _("player entry"),
        default=False,
        help_text=_("Teams (or players) enter their own results on their phones through their private links, and "
                    "their opponents confirm them; referees and organisers can always step in."),
    )
    verification = models.CharField(
        _("opponent verification"),
        max_length=10,
        choices=Verification.choices,
        default=Verification.AT_END,
        help_text=_("With player entry: the opponents check the whole result when it is finished, or acknowledge "
                    "each hand (deal) on their phone as soon as it is entered."),
    )
    entry_mode = models.CharField(
        _("entry mode"),
        max_length=10,
        choices=EntryMode.choices,
        default=EntryMode.QUICK,
        help_text=_("Four-player games: quick entry (the winner, who paid and the fan or tai; full tile entry stays "
                    "available for disputes) or every hand entered and validated tile by tile."),
    )
    checkin_required = models.BooleanField(
        _("check-in required"),
        default=False,
        help_text=_("Before each round is drawn, teams (players) check in on their private link or the organiser "
                    "ticks them off; only those checked in are paired (seated)."),
    )
    forfeit_score = models.PositiveIntegerField(
        _("forfeit score"), null=True, blank=True,
        help_text=_("Card points of the team that is there when the other side forfeits (it gets 0). Empty: the match target."),
    )
    forfeit_points = models.PositiveSmallIntegerField(
        _("forfeit match points"), null=True, blank=True,
        help_text=_("Match points of the team that is there when the other side forfeits (it gets 0). Empty: a win."),
    )
    status = FSMField(_("status"), max_length=20, choices=Status.choices, default=Status.SETUP, protected=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"), default=90,
        help_text=_("The time on the round clock when the organiser starts it."),
    )
    clock_warning_minutes = models.PositiveSmallIntegerField(
        _("clock warning (minutes before the end)"), default=10,
        help_text=_("The clock turns orange this many minutes before time is up; 0 for no warning."),
    )
    public_names = models.CharField(
        _("names on public pages"), max_length=10, choices=PublicNames.choices, default=PublicNames.FULL,
        help_text=_("How players' names are shown on public pages, exports and the API, unless a player chose otherwise."),
    )
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

    def save(self, *args, **kwargs) -> None:
        """Save; a new tournament whose ``round_format`` its game does not offer (the model's
        default ``target`` for a four-player game, made by a script or a test rather than the form)
        takes the game's fallback (:meth:`GameAdapter.fallback_round_format`: until the time limit,
        how such a tournament ended before round formats were per game), so no tournament starts
        with an end it cannot reach. The form offers the game's default instead."""
        if self._state.adding:
            try:
                adapter = registry.get(self.game)
            except registry.UnknownGame:
                adapter = None
            if adapter is not None and self.round_format not in adapter.round_formats:
                self.round_format = adapter.fallback_round_format()
                self.hands_per_round = self.hands_per_round or adapter.default_round_count(self.round_format)
        super().save(*args, **kwargs)

    @property
    def adapter(self) -> GameAdapter:
        """The game's adapter (:func:`scoring.games.registry.get`)."""
        return registry.get(self.game)

    @property
    def round_format_text(self) -> str:
        """The round format in a few words, for the game ("8 deals per round"; the adapter's
        :meth:`~scoring.games.base.GameAdapter.round_format_text`)."""
        return self.adapter.round_format_text(self)

    @property
    def has_teams(self) -> bool:
        """True when entrants are teams of two paired at tables (Tai Pan), False when they are
        individual players seated four to a table (``GameAdapter.entrants``)."""
        return self.adapter.entrants == EntrantKind.TEAMS

    @property
    def verifies_each_record(self) -> bool:
        """True when the other side acknowledges every hand (deal) as it is entered: player entry
        on and opponent verification per hand (docs/results.md, "Verification per hand")."""
        return self.player_entry and self.verification == self.Verification.PER_RECORD

    @property
    def full_entry_only(self) -> bool:
        """True when every deal must be entered tile by tile (``entry_mode`` full): quick records
        are refused (:meth:`scoring.games.base.GameAdapter.evaluate_record`)."""
        return self.entry_mode == self.EntryMode.FULL

    @transition(field=status, source=Status.SETUP, target=Status.RUNNING)
    def start(self) -> None:
        """Registration -> running: the first round was published."""

    @transition(field=status, source=Status.RUNNING, target=Status.FINISHED)
    def finish(self) -> None:
        """Running -> finished (the organiser ends the tournament)."""

    @transition(field=status, source=Status.FINISHED, target=Status.RUNNING)
    def resume(self) -> None:
        """Finished -> running again (a result had to be corrected)."""


class Membership(models.Model):
    """A user's role in one tournament. Organisers may do everything a referee may; a head
    referee is a referee who also sees the progress board (:data:`scoring.policy.Perm.VIEW_BOARD`)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        REFEREE = "referee", _("Referee")
        #: A referee who also sees the progress board of every round (docs/hall.md).
        HEAD_REFEREE = "head_referee", _("Head referee")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user_per_tournament")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} - {self.get_role_display()} - {self.tournament}"
