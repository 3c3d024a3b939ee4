"""The attributes of a live region (issue 25, docs/operations.md "Live pages").

``{% live_attrs tournament "standings tournament" delay=8 %}`` on a region's opening element
(next to its ``hx-get``, ``hx-select`` and ``hx-swap``) writes::

    hx-trigger="live-refresh" data-live-topics="standings tournament" data-live-poll="15"
    data-live-delay="8" data-live-events="/events/<slug>/"

``static/js/live.js`` reads them: it follows the tournament's events (``data-live-events``, only
when ``settings.LIVE_EVENTS`` is on) and fires ``live-refresh`` on the region when an event names
one of its topics (at most once per ``delay`` seconds); without events it fires it every ``poll``
seconds instead; never while the page is hidden. The refresh is the region's own conditional GET
(htmx), answered 304 or with the region only.

Topics: the words of the string, plus ``round:<n>`` for ``round=n`` and ``result:<id>`` for
``result=id``; a topic ending in ``*`` matches every topic it begins (``result:*``).
"""
from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import get_script_prefix
from django.utils.html import format_html

register = template.Library()


def events_url(tournament) -> str:
    """The URL of ``tournament``'s event stream (``/events/<slug>/``), served by the events
    process (``nskt.asgi``), not by Django's URL configuration."""
    return f"{get_script_prefix()}events/{tournament.slug}/"


@register.simple_tag
def live_attrs(tournament, topics: str = "", *, poll=None, delay=0, round=None, result=None) -> str:  # noqa: A002
    """The live region's attributes (see the module): ``topics`` (space-separated), ``poll`` the
    fallback's seconds (default ``live_seconds()``), ``delay`` the least seconds between two
    refreshes on events, ``round`` / ``result`` add ``round:<n>`` / ``result:<id>``."""
    from scoring.web.views.public import live_seconds

    words = topics.split()
    if round not in (None, ""):
        words.append(f"round:{round}")
    if result not in (None, ""):
        words.append(f"result:{result}")
    html = format_html('hx-trigger="live-refresh" data-live-topics="{}" data-live-poll="{}" data-live-delay="{}"',
                       " ".join(words), int(poll if poll is not None else live_seconds()), f"{float(delay):g}")
    if getattr(settings, "LIVE_EVENTS", False) and tournament is not None:
        html += format_html(' data-live-events="{}"', events_url(tournament))
    return html
