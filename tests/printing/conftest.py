"""Printing tests read the PDFs back with pypdf, in English, with a cache of their own."""
import io
import uuid

import pytest
from django.utils import translation
from pypdf import PdfReader


@pytest.fixture(autouse=True)
def _english_and_own_cache(settings):
    """English PDFs and pages whatever translations exist (texts are asserted in English), and a
    fresh in-process cache (round packs and standings are cached by state)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    with translation.override("en"):
        yield


def read_pdf(data: bytes) -> list[str]:
    """The text of every page of a PDF."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


@pytest.fixture
def pdf_text():
    """``pdf_text(data) -> (text, pages)``: the whole text of a PDF and its number of pages."""
    def read(data: bytes) -> tuple[str, int]:
        pages = read_pdf(data)
        return "\n".join(pages), len(pages)
    return read
