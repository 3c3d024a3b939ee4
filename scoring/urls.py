"""URLs of the scoring app, one module per audience: public (no login), entrants through their
private links, referee (results), organiser (settings, entrants, rounds) and the user's own
account (API token), and seasons. URL names are unique across the six."""
from scoring.web import urls_account, urls_entrants, urls_organiser, urls_public, urls_referee, urls_seasons

app_name = "scoring"

urlpatterns = [*urls_public.urlpatterns, *urls_entrants.urlpatterns, *urls_referee.urlpatterns,
               *urls_organiser.urlpatterns, *urls_account.urlpatterns, *urls_seasons.urlpatterns]
