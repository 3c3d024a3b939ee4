"""How long to wait, said in the request's language (fresh tester of issue 22: DRF's throttle
text was half English in Dutch answers, and a link page asked to wait "1024 seconds")."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient

from scoring.errors import wait_phrase


@pytest.mark.parametrize("seconds,text", [(1, "1 second"), (5, "5 seconds"), (119, "119 seconds"),
                                          (120, "2 minutes"), (121, "3 minutes"), (1024, "18 minutes"),
                                          (3600, "60 minutes")])
def test_wait_phrase_in_english(seconds, text):
    with translation.override("en"):
        assert wait_phrase(seconds) == text


def test_wait_phrase_in_dutch():
    with translation.override("nl"):
        assert wait_phrase(1024) == "18 minuten" and wait_phrase(1) == "1 seconde"


@pytest.mark.django_db
@pytest.mark.parametrize("language,start", [("en", "Too many requests: try again in "), ("nl", "Te veel verzoeken: probeer het over ")])
def test_a_throttled_api_answer_is_in_the_requests_language(settings, language, start):
    cache.clear()
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "1/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client = APIClient(REMOTE_ADDR="192.0.2.10")
    assert client.get("/api/v1/tournaments", HTTP_ACCEPT_LANGUAGE=language).status_code == 200
    r = client.get("/api/v1/tournaments", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    message = r.json()["errors"][0]["message"]
    assert message.startswith(start) and "Expected" not in message, message
    cache.clear()
