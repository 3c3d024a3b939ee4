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
