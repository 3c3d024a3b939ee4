"""Season tests: English pages and a fresh cache (as tests/web/conftest.py)."""
import pytest
from django.core.cache import cache


@pytest.fixture
def english(client, settings):
    settings.LANGUAGE_CODE = "en"
    client.cookies["django_language"] = "en"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()
