"""Organiser URLs: tournament settings, members, entrants, drawing and running rounds."""
from django.urls import path

from scoring.web.views import links, organiser

urlpatterns = [
    path("new/", organiser.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/edit/", organiser.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/state/", organiser.tournament_state, name="tournament_state"),
    path("t/<slug:slug>/export.json", organiser.tournament_export, name="tournament_export"),
    path("t/<slug:slug>/members/", organiser.members, name="members"),
    path("t/<slug:slug>/teams/", organiser.team_list, name="team_list"),
    path("t/<slug:slug>/teams/new/", organiser.team_create, name="team_create"),
    path("t/<slug:slug>/teams/import/", organiser.teams_import, name="teams_import"),
    path("t/<slug:slug>/teams/import/example.csv", organiser.teams_import_example, name="teams_import_example"),
    path("t/<slug:slug>/teams/export/", organiser.teams_export, name="teams_export"),
    path("t/<slug:slug>/teams/<int:pk>/edit/", organiser.team_edit, name="team_edit"),
    path("t/<slug:slug>/players/", organiser.players, name="players"),
    path("t/<slug:slug>/players/import/", organiser.players_import, name="players_import"),
    path("t/<slug:slug>/players/import/example.csv", organiser.players_import_example, name="players_import_example"),
    path("t/<slug:slug>/players/export/", organiser.players_export, name="players_export"),
    path("t/<slug:slug>/import/<int:task_id>/", organiser.import_status, name="import_status"),
    path("t/<slug:slug>/players/<int:pk>/edit/", organiser.player_edit, name="player_edit"),
    path("t/<slug:slug>/players/<int:pk>/withdraw/", organiser.player_withdraw, name="player_withdraw"),
    path("t/<slug:slug>/round/pair/", organiser.round_pair, name="round_pair"),
    path("t/<slug:slug>/round/seat/", organiser.round_seat, name="round_seat"),
    path("t/<slug:slug>/round/<int:number>/edit/", organiser.round_edit, name="round_edit"),
    path("t/<slug:slug>/round/<int:number>/publish/", organiser.round_publish, name="round_publish"),
    path("t/<slug:slug>/round/<int:number>/tables/publish/", organiser.round_publish, name="round_tables_publish"),
    path("t/<slug:slug>/round/<int:number>/start/", organiser.round_start, name="round_start"),
    path("t/<slug:slug>/round/<int:number>/close/", organiser.round_close, name="round_close"),
    path("t/<slug:slug>/round/<int:number>/tables/close/", organiser.round_close, name="round_tables_close"),
    path("t/<slug:slug>/links/", links.links_page, name="links"),
    path("t/<slug:slug>/links/cards.pdf", links.link_cards, name="link_cards"),
    path("t/<slug:slug>/links/<int:pk>/", links.link_detail, name="link_detail"),
    path("t/<slug:slug>/links/<int:pk>/<slug:action>/", links.link_action, name="link_action"),
]
