"""ASGI entry point: the events process (issue 25, docs/operations.md "Live pages").

``uvicorn nskt.asgi:application`` serves ``/events/<slug>/``, the server-sent events of one
tournament (:mod:`scoring.live.events`, Django Channels); the reverse proxy sends only that path
here. Every other path is answered by Django's own ASGI handler too (the same pages as gunicorn
serves), so one ASGI server can also run the whole site (a browser test, a laptop).
"""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nskt.settings")
django_application = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from scoring.live.events import TournamentEvents  # noqa: E402

application = ProtocolTypeRouter({
    "http": URLRouter([
        path("events/<slug:slug>/", TournamentEvents.as_asgi()),
        re_path(r"", django_application),
    ]),
})
