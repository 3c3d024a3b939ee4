"""URLs of the scoring app. Each feature module adds its patterns in its own block below."""
from django.urls import path

from scoring.views import public

app_name = "scoring"

urlpatterns = [
    path("", public.tournament_list, name="tournament_list"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament_detail"),
]
