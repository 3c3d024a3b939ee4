"""Request middleware of the scoring app."""
from __future__ import annotations


class SiteLanguageMiddleware:
    """Dutch (``LANGUAGE_CODE``) is the site's language, English the second: a visitor sees Dutch
    until they choose English with the language switch (Django's language cookie), whatever
    their browser asks for. A projector or a phone set to English still shows the championship's
    language. Runs before ``LocaleMiddleware``, which then finds only the cookie.

    The REST API (``/api/``) is the exception: a program asks for its language with
    ``Accept-Language`` (Dutch when it asks for none)."""

    #: Paths whose requests keep their ``Accept-Language``.
    KEEP_ACCEPT_LANGUAGE = ("/api/",)

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(self.KEEP_ACCEPT_LANGUAGE):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
