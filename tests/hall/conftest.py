"""Fixtures of the hall tests."""
from __future__ import annotations

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_messages(settings, client):
    """The hall's messages are read in English, the source language (the tests match their words):
    in the test's own thread, as the site's default (what automatic announcements are written in)
    and on the pages the test client opens. Dutch is the site's default and every message has its
    Dutch translation."""
    settings.LANGUAGE_CODE = "en"
    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield
