"""URLs of the scoring app. Each feature module adds its patterns in its own block below."""
from django.urls import path

from scoring.views import public

from scoring.views import matches  # noqa: E402  (WEB referee)

app_name = "scoring"

urlpatterns = [
    path("", public.tournament_list, name="tournament_list"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament_detail"),
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
]
