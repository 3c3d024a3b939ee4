"""Season URLs (issue 26 item 3): the public list, ranking page, PDF and export, and the
managers' create and edit pages."""
from django.urls import path

from scoring.web.views import seasons

urlpatterns = [
    path("seasons/", seasons.season_list, name="season_list"),
    path("seasons/new/", seasons.season_create, name="season_create"),
    path("seasons/<slug:slug>/", seasons.season_detail, name="season_detail"),
    path("seasons/<slug:slug>/edit/", seasons.season_edit, name="season_edit"),
    path("seasons/<slug:slug>/ranking.pdf", seasons.season_pdf, name="season_pdf"),
    path("seasons/<slug:slug>/export/", seasons.season_export, name="season_export"),
]
