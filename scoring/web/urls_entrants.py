"""Entrant URLs (no account; issue 15): opening a private link (``/p/#<token>``: the token stays in
the fragment, never in a URL the server sees), the entrant's own page and letting go of the link.
Result entry and confirmation through a link use the referee URLs (``urls_referee``)."""
from django.urls import path

from scoring.web.views import checkins, links

urlpatterns = [
    path("p/", links.open_link, name="open_link"),
    path("t/<slug:slug>/mine/", links.entrant_home, name="entrant_home"),
    path("t/<slug:slug>/mine/checkin/", checkins.entrant_checkin, name="entrant_checkin"),
    path("t/<slug:slug>/mine/forget/", links.forget_link, name="forget_link"),
]
