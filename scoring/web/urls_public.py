"""Public URLs (no login): tournaments, rounds, results, standings, exports, PDFs, rules check, and
the player side (find my table, team and player pages), the web app's manifest and service worker."""
from django.urls import path

from scoring.kinds import KINDS
from scoring.web.views import (
    crosstable,
    hall,
    hall_print,
    outbox,
    players,
    printing,
    profiles,
    public,
    results,
    rules_check,
)

urlpatterns = [
    path("", public.tournament_list, name="tournament_list"),
    path("rules/<str:game>/", rules_check.rules_check, name="rules_check"),
    # The installable web app of referees and link holders (offline entry, docs/results.md).
    path("sw.js", outbox.service_worker, name="service_worker"),
    path("manifest.webmanifest", outbox.manifest, name="web_manifest"),
    path("offline/csrf/", outbox.csrf_token, name="outbox_csrf"),
    # A person's profile across tournaments (docs/players.md "Player profiles").
    path("people/<id:pk>/", profiles.person_profile, name="person_profile"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament_detail"),
    path("t/<slug:slug>/round/<id:number>/", public.round_page, name="round_pairings"),
    path("t/<slug:slug>/round/<id:number>/tables/", public.round_page, name="round_tables"),
    path("t/<slug:slug>/round/<id:number>/export/", public.pairings_export, name="pairings_export"),
    path("t/<slug:slug>/round/<id:number>/pack.pdf", printing.round_pack, name="round_pack_pdf"),
    path("t/<slug:slug>/round/<id:number>/tables.pdf", printing.round_pack, name="round_tables_pdf"),
    path("t/<slug:slug>/round/<id:number>/pack/<id:task_id>/", printing.round_pack_status, name="round_pack_status"),
    path("t/<slug:slug>/round/<id:number>/pack/<id:task_id>/download.pdf", printing.round_pack_download, name="round_pack_download"),
    path("t/<slug:slug>/round/<id:number>/table-cards.pdf", hall_print.table_cards, name="round_table_cards_pdf"),
    path("t/<slug:slug>/round/<id:number>/names/", hall_print.name_list, name="round_names"),
    path("t/<slug:slug>/round/<id:number>/names.pdf", hall_print.name_list_pdf, name="round_names_pdf"),
    path("t/<slug:slug>/round/<id:number>/pairings.pdf", hall_print.pairings_pdf, name="round_pairings_pdf"),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/players/standings/", public.standings, name="player_standings"),
    path("t/<slug:slug>/standings/export/", public.standings_export, name="standings_export"),
    path("t/<slug:slug>/standings.pdf", printing.standings_pdf, name="standings_pdf"),
    path("t/<slug:slug>/crosstable/", crosstable.crosstable, name="crosstable"),
    path("t/<slug:slug>/crosstable.pdf", crosstable.crosstable_pdf, name="crosstable_pdf"),
    path("t/<slug:slug>/clock.json", hall.clock_json, name="hall_clock"),
    path("t/<slug:slug>/hall/", hall.hall_news, name="hall_news"),
    path("t/<slug:slug>/find/", players.find_table, name="find_table"),
    path("t/<slug:slug>/team/<id:pk>/", players.team_page, name="team_breakdown"),
    path("t/<slug:slug>/player/<id:pk>/", players.player_page, name="player_page"),
    # Each kind of result (scoring.kinds): its page and its score sheet.
    *(url for kind in KINDS.values() for url in (
        path(f"t/<slug:slug>/{kind.key}/<id:pk>/", results.detail, {"kind": kind}, name=kind.url_names["detail"]),
        path(f"t/<slug:slug>/{kind.key}/<id:pk>/sheet.pdf", printing.score_sheet, {"kind": kind},
             name=kind.url_names["sheet"]),
    )),
]
