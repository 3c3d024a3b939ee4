"""What the API reads and writes, as DRF serializers: they document every field in the OpenAPI
schema and keep the output to the documented fields (the data itself is built by
:mod:`scoring.api.representation`).

Never in any output: usernames, who entered or confirmed what, the audit trail.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from scoring.kinds import KINDS as RESULT_KINDS
from scoring.models import PublicNames, ResultContainer, Round, Tournament

KINDS = [(key, key) for key in RESULT_KINDS]
ENTRANTS = [("teams", "teams"), ("players", "players")]


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """An int or a float, as it is (a tie-break value: Sonneborn-Berger may be a half)."""

    def to_representation(self, value):
        return value


# --------------------------------------------------------------------------- errors


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="The request field the error is about (`record.card_points.NS`, "
                                            "`version`, `reason`, `totals`), or empty for the whole request.")
    message = serializers.CharField(help_text="The same translated message the pages show.")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="invalid, parse_error, not_authenticated, authentication_failed, permission_denied, "
                                           "not_found, method_not_allowed, stale_version, conflict, too_large, "
                                           "unsupported_media_type, throttled")
    errors = ErrorItemSerializer(many=True)


# --------------------------------------------------------------------------- tournaments and rounds


class TieBreakSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class RoundSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    tables = serializers.IntegerField(help_text="Tables (matches or four-player tables) in the round.")
    url = serializers.URLField()


class TournamentSummarySerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="Key of the game (`taipan`, `sichuan`, `taiwanese`, `tiengow`).")
    game_label = serializers.CharField()
    entrants = serializers.ChoiceField(choices=ENTRANTS, help_text="Teams of two paired at tables (Tai Pan) or "
                                                                    "players seated four to a table.")
    kind = serializers.ChoiceField(choices=KINDS, help_text="What a table's result is: a `match` (Tai Pan: hands) "
                                                             "or a `table` (four players: deals).")
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    venue = serializers.CharField(allow_blank=True)
    starts_on = serializers.DateField(allow_null=True)
    url = serializers.URLField()
    page = serializers.URLField(help_text="The tournament's page on the site.")


class PlacementSerializer(serializers.Serializer):
    preset = serializers.CharField(help_text="`none`, `ema`, `ema_riichi`, `pantheon` or `custom` (docs/tournaments.md).")
    uma = serializers.ListField(child=NumberField(), help_text="Placement points of places 1 to 4 (empty: none).")
    oka = NumberField(help_text="The pot first place takes: +3/4 to first, -1/4 to each other place.")
    ties = serializers.ChoiceField(choices=["share", "seat"], help_text="Equal totals share the places' points, or "
                                                                        "are ordered by seat (East first).")
    per_place = serializers.ListField(child=NumberField(), help_text="Uma plus the oka's share, places 1 to 4.")


class TournamentSerializer(TournamentSummarySerializer):
    rules = serializers.JSONField(help_text="The engine's `rules` value (a preset name or an object).")
    round_format = serializers.ChoiceField(
        choices=["target", "fixed_hands", "wind_rounds", "time_limit"],
        help_text="How a table's result ends: `target` (the rules' target score, Tai Pan), `fixed_hands` "
                  "(`hands_per_round` hands or deals), `wind_rounds` (`hands_per_round` wind rounds, Taiwanese) "
                  "or `time_limit` (when time is called); a game offers only its own formats (docs/tournaments.md).")
    hands_per_round = serializers.IntegerField(allow_null=True, help_text="The count of `fixed_hands` or "
                                                                          "`wind_rounds`, else null.")
    blind_confirmation = serializers.BooleanField()
    verification = serializers.ChoiceField(
        choices=["end", "each"], help_text="With player entry: the opponents verify the result at the end of the match "
                                           "(`end`) or acknowledge each record as it is entered (`each`).")
    entry_mode = serializers.ChoiceField(
        choices=["quick", "full"], help_text="Four-player games: `quick` (a win is entered as its winner, payer and "
                                             "fan or tai; tile entry stays possible) or `full` (every deal tile by "
                                             "tile; quick records are refused).")
    player_entry = serializers.BooleanField(help_text="The sides of a table enter and confirm their own results "
                                                      "through their private links (`Authorization: Link <token>`).")
    first_round_method = serializers.CharField(
        allow_blank=True, help_text="How round 1 is paired by default: `random`, `seeded`, `rating`, `fold`, "
                                    "`fold_rating`, or empty (automatic: by seed numbers when every team has one).")
    avoid_same_club = serializers.BooleanField(help_text="Swiss pairing avoids two teams of the same club "
                                                         "(affiliation) when it costs no rematch and no float.")
    round_minutes = serializers.IntegerField(help_text="The round clock's time when it is started, in minutes.")
    clock_warning_minutes = serializers.IntegerField(
        help_text="The clock's warning shows this many minutes before time is up (0: none).")
    public_names = serializers.ChoiceField(choices=PublicNames.choices, help_text="Players' names in public answers: "
                                           "`full` or `short` (first name and initial), unless a player chose otherwise.")
    clock = serializers.URLField(help_text="The current round's clock.")
    announcements = serializers.URLField(help_text="The announcements shown now.")
    checkin_required = serializers.BooleanField(help_text="Entrants check in before each round is drawn; only those "
                                                          "checked in are paired or seated (`.../checkins`).")
    forfeit_score = serializers.IntegerField(allow_null=True, help_text="Card points of the team that is there when "
                                                                        "the other forfeits (null: the match target).")
    forfeit_points = serializers.IntegerField(allow_null=True, help_text="Its match points (null: a win's).")
    sides = serializers.ListField(child=serializers.CharField(), help_text="Side keys of a result, in order "
                                                                           "(`NS`, `EW` or `E`, `S`, `W`, `N`).")
    side_labels = serializers.ListField(child=serializers.CharField())
    record_noun = serializers.CharField(help_text="What one record is called (hand, deal).")
    tiebreaks = TieBreakSerializer(many=True, help_text="Tie-breaks in order (Tai Pan; four-player games with "
                                                        "placement points, after placement points and total).")
    placement = PlacementSerializer(help_text="Four-player games: placement points per table (preset `none`: none).")
    rounds = RoundSummarySerializer(many=True, help_text="Rounds the caller may see (drafts: organisers only).")
    standings = serializers.URLField()


# --------------------------------------------------------------------------- results


class SeatSerializer(serializers.Serializer):
    seat = serializers.CharField()
    name = serializers.CharField()


class SideSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    entrant_id = serializers.IntegerField(allow_null=True, help_text="The team's or player's id (standings rows), "
                                                                     "`null` for the empty side of a bye.")
    name = serializers.CharField(allow_blank=True)
    affiliation = serializers.CharField(allow_blank=True)
    players = SeatSerializer(many=True, help_text="A team's two players with their seats (Tai Pan).")
    total = serializers.IntegerField(allow_null=True, help_text="`null` while hidden by blind confirmation.")


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS)
    round = serializers.IntegerField()
    number = serializers.IntegerField(help_text="Table number in the round.")
    status = serializers.ChoiceField(choices=ResultContainer.Status.choices)
    ended = serializers.CharField(allow_blank=True, help_text="`target`, `time` (ended at the time limit) or empty.")
    version = serializers.IntegerField(help_text="Send it back with every write (optimistic concurrency).")
    bye = serializers.BooleanField()
    sides = SideSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="Totals per side, in side order; `null` while blind confirmation hides "
                                             "an unconfirmed result from the caller (`totals_hidden`).")
    totals_hidden = serializers.BooleanField(help_text="Blind confirmation: this unconfirmed result's totals, scores "
                                                       "and records are hidden from the caller until it is confirmed.")
    note = serializers.CharField(allow_blank=True, help_text="Why the table was drawn like this.")
    url = serializers.URLField()


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    tables = TableSerializer(many=True, help_text="The round's pairings or seatings with their results so far.")
    url = serializers.URLField()


class RecordSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    record = serializers.JSONField(help_text="The record as the engine reads it (Tai Pan: the `score` input).")
    summary = serializers.CharField(allow_blank=True)
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Points per side of this record.")
    running = serializers.ListField(child=serializers.IntegerField(), help_text="Totals per side after it.")
    revision = serializers.IntegerField(help_text="The record's version: 1 when entered, one more on every edit. An "
                                                  "acknowledgement sends the revision it acknowledges.")
    verification = serializers.ChoiceField(
        choices=["acknowledged", "pending", "disputed"], allow_null=True,
        help_text="Verification per hand: `pending` until the other side (or a referee) acknowledges this revision, "
                  "`disputed` while a side's disagreement with it is open; `null` when the tournament verifies at the "
                  "end of the match, or once the result is confirmed.")
    url = serializers.URLField()


class ResultSerializer(TableSerializer):
    winner = serializers.CharField(allow_null=True, help_text="Side key of the winner (Tai Pan), `null` for a draw, "
                                                              "an unfinished result or a four-player table.")
    points = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="Ranking points per side once finished (Tai Pan match or victory "
                                             "points); `null` for four-player tables (their totals count).")
    outcome = serializers.CharField(allow_blank=True)
    state = serializers.JSONField(allow_null=True, help_text="The carried game state (dealer, banker), four-player.")
    limit = serializers.IntegerField(allow_null=True, help_text="Records per result in the fixed-hands format.")
    records = RecordSerializer(many=True)


# --------------------------------------------------------------------------- standings


class TeamRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.CharField()
    affiliation = serializers.CharField(allow_blank=True)
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    match_points = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    points_scored = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=NumberField(), help_text="Tie-break key -> value, in the "
                                                                                 "tournament's order.")
    withdrawn = serializers.BooleanField()


class PlayerRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="`null` for a player without a counted table yet.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    affiliation = serializers.CharField(allow_blank=True)
    played = serializers.IntegerField()
    total = serializers.IntegerField()
    substitute = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    placement_points = NumberField(allow_null=True, help_text="Sum of the placement points (at most two decimals; "
                                                              "`null` without placement points).")
    tiebreaks = serializers.DictField(child=NumberField(allow_null=True), help_text="Player tie-break key -> value "
                                                                                    "(with placement points).")


ROW_SERIALIZERS = {"teams": TeamRowSerializer, "players": PlayerRowSerializer}


@extend_schema_field(PolymorphicProxySerializer(
    component_name="StandingRow", serializers=[TeamRowSerializer, PlayerRowSerializer], resource_type_field_name=None))
class StandingRowField(serializers.Field):
    """A standings row of either kind (the response's ``entrants`` says which)."""

    def to_representation(self, value):
        return value


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    entrants = serializers.ChoiceField(choices=ENTRANTS, help_text="`teams`: team rows; `players`: player rows.")
    through_round = serializers.IntegerField(allow_null=True)
    tiebreaks = TieBreakSerializer(many=True)
    rows = serializers.ListField(child=StandingRowField())


# --------------------------------------------------------------------------- writes


class _Version(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=999_999_999,
                                       help_text="The result's `version` the client read; a change since refuses "
                                                 "the write (409 `stale_version`).")


class ReasonField(serializers.CharField):
    """A required reason (kept in the audit trail), 1-500 characters after trimming."""

    default_error_messages = {"blank": _("Give a reason."), "required": _("Give a reason.")}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 500)
        kwargs.setdefault("help_text", "Why (kept in the audit trail).")
        super().__init__(**kwargs)


class RecordCreateSerializer(_Version):
    record = serializers.JSONField(help_text="The record as the engine reads it (see the engine commands: "
                                             "Tai Pan `score` input without `rules`).")


class RecordEditSerializer(RecordCreateSerializer):
    reason = ReasonField()


class ReasonSerializer(_Version):
    reason = ReasonField()


class ConfirmSerializer(_Version):
    totals = serializers.JSONField(required=False, allow_null=True,
                                   help_text="The final totals re-typed from the score sheet: one whole number per "
                                             "side in side order, or `{\"NS\": .., \"EW\": ..}` (Tai Pan); required "
                                             "with blind confirmation.")


class DisputeSerializer(_Version):
    # Not required here: the result sheet checks the result's state first (409) and then the
    # totals (400 on `totals`), so an unfinished result is refused as such whatever was sent.
    totals = serializers.JSONField(required=False, allow_null=True, default=None,
                                   help_text="Required. The final totals as the disputing side has them: one whole "
                                             "number per side in side order, or `{\"NS\": .., \"EW\": ..}` (Tai Pan). "
                                             "Checked after the result's state: a result that cannot be disputed is "
                                             "409 whatever the totals.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000, default="",
                                 help_text="What is wrong, for the referee (optional).")


class AcknowledgeSerializer(serializers.Serializer):
    revision = serializers.IntegerField(min_value=1, help_text="The record's `revision` the client read: a record "
                                                               "edited since is refused (409 `stale_version`).")


class DisagreeSerializer(AcknowledgeSerializer):
    scores = serializers.JSONField(required=False, allow_null=True, default=None,
                                   help_text="Required. The record's scores as the disagreeing side has them: one "
                                             "whole number per side in side order (Tai Pan: `{\"NS\": .., \"EW\": ..}` "
                                             "too). Checked after the record's state.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000, default="",
                                 help_text="What is wrong, for the referee (optional).")


# --------------------------------------------------------------------------- engines


class EngineGameSerializer(serializers.Serializer):
    game = serializers.CharField()
    label = serializers.CharField()
    commands = serializers.ListField(child=serializers.CharField())
    presets = serializers.ListField(child=serializers.CharField())
    default_preset = serializers.CharField()


class IndexSerializer(serializers.Serializer):
    tournaments = serializers.URLField()
    engines = serializers.URLField()
    schema = serializers.URLField()
    docs = serializers.URLField()


# --------------------------------------------------------------------------- people (profiles)


class ProfileResultSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS, help_text="`match` (Tai Pan) or `table` (four-player).")
    id = serializers.IntegerField(help_text="The match's or table's id.")
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    url = serializers.URLField(help_text="The result in the API.")
    page = serializers.URLField(help_text="The result's public page.")
    seat = serializers.CharField(help_text="The person's seat (Tai Pan N/E/S/W; four-player the seat's label); empty for a bye.")
    opponents = serializers.ListField(child=serializers.CharField(), help_text="Public names of the opponents.")
    score = serializers.ListField(child=serializers.IntegerField(), help_text="Tai Pan `[ours, theirs]`; four-player "
                                  "the four totals in seat order (`mine` is the person's index); empty when hidden.")
    mine = serializers.IntegerField()
    outcome = serializers.CharField(help_text="`win`, `draw`, `loss`, a place `1`..`4`, or empty (unfinished or hidden).")
    status = serializers.CharField(help_text="The result's status in words.")
    hidden = serializers.BooleanField(help_text="Blind confirmation: not confirmed yet, so no score.")
    bye = serializers.BooleanField()


class ProfileEntrySerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    name = serializers.CharField()
    game = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    entrant_id = serializers.IntegerField(help_text="The team's id (Tai Pan) or the player's id (four-player).")
    team = serializers.CharField(help_text="The team's name (Tai Pan), else empty.")
    partner = serializers.CharField(help_text="The partner's public name (Tai Pan), else empty.")
    rank = serializers.IntegerField(allow_null=True, help_text="Current (or final) rank; null: not ranked yet.")
    points = serializers.IntegerField(help_text="Tai Pan match points; four-player total points.")
    results = ProfileResultSerializer(many=True)


class StatisticSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    value = NumberField(allow_null=True, help_text="An integer, a number with one decimal (averages), or null.")


class SeriesSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="`bars` or `line`.")
    labels = serializers.ListField(child=serializers.CharField())
    values = serializers.ListField(child=NumberField())


class GameStatisticsSerializer(serializers.Serializer):
    game = serializers.CharField()
    label = serializers.CharField()
    tournaments = serializers.IntegerField()
    items = StatisticSerializer(many=True)
    charts = SeriesSerializer(many=True)


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The public name (first name and initial when any entry asks for it).")
    federation_number = serializers.CharField(required=False, allow_null=True,
                                              help_text="Only for organisers of one of the person's tournaments.")
    page = serializers.URLField()
    tournaments = ProfileEntrySerializer(many=True)
    statistics = GameStatisticsSerializer(many=True)

    def to_representation(self, instance):
        """Without the federation number unless the data carries it (organisers only)."""
        out = super().to_representation(instance)
        if "federation_number" not in instance:
            out.pop("federation_number", None)
        return out
