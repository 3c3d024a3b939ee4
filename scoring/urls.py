"""URLs of the scoring app, one module per audience: public (no login), referee (results) and
organiser (settings, entrants, rounds). URL names are unique across the three."""
from scoring.web import urls_organiser, urls_public, urls_referee

app_name = "scoring"

urlpatterns = [*urls_public.urlpatterns, *urls_referee.urlpatterns, *urls_organiser.urlpatterns]
