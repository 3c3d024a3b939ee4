"""The site's URLs plus a person profile page named ``person_profile`` (as the profile part of
issue 26 adds it), for the season page's conditional link."""
from django.http import HttpResponse
from django.urls import include, path

urlpatterns = [
    path("people/<int:pk>/", lambda request, pk: HttpResponse(str(pk)), name="person_profile"),
    path("", include("nskt.urls")),
]
