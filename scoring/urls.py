"""URLs of the scoring app. Each feature module adds its patterns in its own block below."""
from django.urls import path

from scoring.web.views import matches, organiser, public, rules_check
from scoring.web.views import tables as four

app_name = "scoring"

urlpatterns = [
    path("", public.tournament_list, name="tournament_list"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament_detail"),
    path("rules/taipan/", rules_check.rules_check, name="rules_check"),
    # --- public + organiser pages (WEB organiser/public) ---
    path("new/", organiser.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/edit/", organiser.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/export.json", organiser.tournament_export, name="tournament_export"),
    path("t/<slug:slug>/members/", organiser.members, name="members"),
    path("t/<slug:slug>/teams/", organiser.team_list, name="team_list"),
    path("t/<slug:slug>/teams/new/", organiser.team_create, name="team_create"),
    path("t/<slug:slug>/teams/import/", organiser.teams_import, name="teams_import"),
    path("t/<slug:slug>/teams/<int:pk>/edit/", organiser.team_edit, name="team_edit"),
    path("t/<slug:slug>/round/pair/", organiser.round_pair, name="round_pair"),
    path("t/<slug:slug>/round/<int:number>/", public.round_pairings, name="round_pairings"),
    path("t/<slug:slug>/round/<int:number>/export/", public.pairings_export, name="pairings_export"),
    path("t/<slug:slug>/round/<int:number>/edit/", organiser.round_edit, name="round_edit"),
    path("t/<slug:slug>/round/<int:number>/publish/", organiser.round_publish, name="round_publish"),
    path("t/<slug:slug>/round/<int:number>/start/", organiser.round_start, name="round_start"),
    path("t/<slug:slug>/round/<int:number>/close/", organiser.round_close, name="round_close"),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/standings/export/", public.standings_export, name="standings_export"),
    path("t/<slug:slug>/team/<int:pk>/", public.team_breakdown, name="team_breakdown"),
    # --- end public + organiser pages ---
    # --- referee: Tai Pan matches, hands, PDFs (WEB referee) ---
    path("t/<slug:slug>/match/<int:pk>/", matches.match_detail, name="match_detail"),
    path("t/<slug:slug>/match/<int:pk>/enter/", matches.match_enter, name="match_enter"),
    path("t/<slug:slug>/match/<int:pk>/preview/", matches.hand_preview, name="hand_preview"),
    path("t/<slug:slug>/match/<int:pk>/hand/<int:number>/edit/", matches.hand_edit, name="hand_edit"),
    path("t/<slug:slug>/match/<int:pk>/hand/<int:number>/delete/", matches.hand_delete, name="hand_delete"),
    path("t/<slug:slug>/match/<int:pk>/end/", matches.match_end, name="match_end"),
    path("t/<slug:slug>/match/<int:pk>/confirm/", matches.match_confirm, name="match_confirm"),
    path("t/<slug:slug>/match/<int:pk>/reopen/", matches.match_reopen, name="match_reopen"),
    path("t/<slug:slug>/match/<int:pk>/audit/<int:entry_id>/restore/", matches.audit_restore, name="audit_restore"),
    path("t/<slug:slug>/match/<int:pk>/sheet.pdf", matches.score_sheet_pdf, name="score_sheet_pdf"),
    path("t/<slug:slug>/round/<int:number>/pack.pdf", matches.round_pack_pdf, name="round_pack_pdf"),
    path("t/<slug:slug>/round/<int:number>/pack/build/", matches.round_pack_build, name="round_pack_build"),
    path("t/<slug:slug>/round/<int:number>/pack/<int:task_id>/", matches.round_pack_status, name="round_pack_status"),
    path("t/<slug:slug>/round/<int:number>/pack/<int:task_id>/download.pdf", matches.round_pack_download, name="round_pack_download"),
    path("t/<slug:slug>/standings.pdf", matches.standings_pdf, name="standings_pdf"),
    # --- end referee ---
    # --- four-player tournaments: players, seating, tables, deals (FOUR-PLAYER) ---
    path("t/<slug:slug>/players/", four.players, name="players"),
    path("t/<slug:slug>/players/standings/", four.player_standings, name="player_standings"),
    path("t/<slug:slug>/players/<int:pk>/edit/", four.player_edit, name="player_edit"),
    path("t/<slug:slug>/players/<int:pk>/withdraw/", four.player_withdraw, name="player_withdraw"),
    path("t/<slug:slug>/round/seat/", four.round_seat, name="round_seat"),
    path("t/<slug:slug>/round/<int:number>/tables/", four.round_tables, name="round_tables"),
    path("t/<slug:slug>/round/<int:number>/tables/publish/", four.round_tables_publish, name="round_tables_publish"),
    path("t/<slug:slug>/round/<int:number>/tables/close/", four.round_tables_close, name="round_tables_close"),
    path("t/<slug:slug>/round/<int:number>/tables.pdf", four.round_tables_sheets, name="round_tables_pdf"),
    path("t/<slug:slug>/table/<int:pk>/", four.table_detail, name="table_detail"),
    path("t/<slug:slug>/table/<int:pk>/enter/", four.table_enter, name="table_enter"),
    path("t/<slug:slug>/table/<int:pk>/preview/", four.deal_preview, name="deal_preview"),
    path("t/<slug:slug>/table/<int:pk>/deal/<int:number>/edit/", four.deal_edit, name="deal_edit"),
    path("t/<slug:slug>/table/<int:pk>/deal/<int:number>/delete/", four.deal_delete, name="deal_delete"),
    path("t/<slug:slug>/table/<int:pk>/sheet.pdf", four.table_sheet, name="table_sheet_pdf"),
    path("t/<slug:slug>/table/<int:pk>/confirm/", four.table_confirm, name="table_confirm"),
    path("t/<slug:slug>/table/<int:pk>/reopen/", four.table_reopen, name="table_reopen"),
    # --- end four-player ---
]
