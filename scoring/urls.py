"""URLs of the scoring app, one module per audience: public (no login), referee (results),
organiser (settings, entrants, rounds) and the user's own account (API token). URL names are
unique across the four."""
from scoring.web import urls_account, urls_organiser, urls_public, urls_referee

app_name = "scoring"

urlpatterns = [*urls_public.urlpatterns, *urls_referee.urlpatterns, *urls_organiser.urlpatterns,
               *urls_account.urlpatterns]
