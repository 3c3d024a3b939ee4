"""Fixtures of the hall tests."""
from __future__ import annotations

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_messages():
    """The sheet's messages are read in English, the source language (the tests match their
    words); Dutch is the site's default and every message has its Dutch translation."""
    with translation.override("en"):
        yield
