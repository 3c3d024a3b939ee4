"""Django admin for every model."""
from django.contrib import admin

from scoring import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "game", "round_format", "status", "created_at")
    list_filter = ("game", "status")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("tournament", "user", "role")
    list_filter = ("role", "tournament")


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "affiliation", "tournament", "joined_round", "withdrawn_after_round")
    list_filter = ("tournament",)
    search_fields = ("name", "affiliation")


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "affiliation", "tournament", "first_player", "second_player", "withdrawn_after_round")
    list_filter = ("tournament",)
    search_fields = ("name", "affiliation")
    list_select_related = ("tournament", "first_player", "second_player")


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status")
    list_filter = ("tournament", "status")


class HandInline(admin.TabularInline):
    model = models.Hand
    extra = 0


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("round", "table", "team_ns", "team_ew", "total_ns", "total_ew", "status", "ended")
    list_filter = ("round__tournament", "status")
    list_select_related = ("round__tournament", "team_ns", "team_ew")
    inlines = [HandInline]


@admin.register(models.Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("match", "number", "ns", "ew", "entered_by", "updated_at")
    list_select_related = ("match__round__tournament", "match__team_ns", "match__team_ew", "entered_by")


class SeatInline(admin.TabularInline):
    model = models.TableSeat
    extra = 0


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "status")
    list_filter = ("round__tournament", "status")
    inlines = [SeatInline]


@admin.register(models.Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "net", "entered_by", "updated_at")


@admin.register(models.Confirmation)
class ConfirmationAdmin(admin.ModelAdmin):
    list_display = ("match", "table", "confirmed_by", "via_entrant", "confirmed_at", "active")


@admin.register(models.Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "table", "via_entrant", "totals", "entered_totals", "confirmation")
    readonly_fields = [f.name for f in models.Dispute._meta.fields]


@admin.register(models.EntrantLink)
class EntrantLinkAdmin(admin.ModelAdmin):
    """Private links: their state only. The nonce (from which, with the SECRET_KEY, the token is
    made) and the token's hash are not shown; organisers regenerate and revoke on their pages."""

    list_display = ("tournament", "team", "player", "revoked", "issued_at")
    list_filter = ("tournament", "revoked")
    fields = ("tournament", "team", "player", "revoked", "issued_at", "revoked_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False  # made by the organiser's pages (scoring.participants.links)


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "user", "via_entrant", "action", "object_type", "object_id")
    list_filter = ("action", "tournament")
    readonly_fields = [f.name for f in models.AuditEntry._meta.fields]


@admin.register(models.TaskState)
class TaskStateAdmin(admin.ModelAdmin):
    list_display = ("key", "kind", "status", "progress", "total", "updated_at")


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "preset", "best_n", "created_by", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("tournaments", "managers")


@admin.register(models.FinalPlace)
class FinalPlaceAdmin(admin.ModelAdmin):
    """Derived rows (``manage.py rebuild_final_places``): read only."""

    list_display = ("tournament", "player", "place", "tied", "field")
    list_filter = ("tournament",)
    list_select_related = ("tournament", "player")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
