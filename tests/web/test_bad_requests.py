"""A request Django cannot read (more than DATA_UPLOAD_MAX_NUMBER_FIELDS parameters: the fresh
tester of issue 22 sent 1,100) gets the site's own 400 page in Dutch, never a 500."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/t/cup/standings/", "/rules/taipan/"])
def test_too_many_parameters_is_the_sites_400_page(path):
    TournamentFactory(slug="cup")
    query = "&".join(f"a{i}=0" for i in range(1100))
    r = Client(raise_request_exception=False).get(f"{path}?{query}")
    assert r.status_code == 400
    page = r.content.decode()
    assert "Dit verzoek kon niet worden gelezen" in page and "Er is niets opgeslagen." in page


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/t/cup/match/9223372036854775808/",          # one past the largest 64-bit integer
    "/t/cup/round/99999999999999999999/",
    "/t/cup/match/1234567890123456789/enter/",     # 19 digits
    "/api/v1/tournaments/cup/rounds/99999999999999999999",
])
def test_an_id_beyond_a_64_bit_integer_is_not_found(path):
    """Ids in paths are 1 to 18 digits (:class:`scoring.params.IdConverter`): a longer number is
    404, not the database's overflow (a 500 on SQLite, found by the fresh tester of issue 25)."""
    TournamentFactory(slug="cup")
    r = Client(raise_request_exception=False).get(path)
    assert r.status_code == 404


def test_the_id_converter_reads_and_writes_plain_numbers():
    from django.urls import reverse

    from scoring.params import IdConverter

    assert IdConverter().to_python("007") == 7 and IdConverter().to_url(42) == "42"
    assert reverse("scoring:match_enter", args=["cup", 999999999999999999]).endswith("/999999999999999999/enter/")
