"""Issue 24 item 6: a four-player round whose tables all ended at the time limit with 0 deals and
were confirmed, while the round was only published (never started), is closed directly: the
round page offers "Close round" beside "Start round", and the page and the REST API close it
(:func:`scoring.draw.rounds.close_round` accepts a published round whose every result is
confirmed)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.hall import clock, times_up
from scoring.kinds import kind_of
from scoring.models import ResultContainer, Round
from scoring.results import sheet
from tests.api.conftest import api_url, client_for, issue_token
from tests.hall.helpers import hall_round

pytestmark = pytest.mark.django_db


def zero_deal_round():
    """A published Sichuan round of two tables, ended by time's up with 0 deals and confirmed."""
    rnd, tables, people = hall_round("table", tables=2)
    assert times_up.call(rnd, people["organiser"]).ended == [1, 2]
    for table in tables:
        table.refresh_from_db()
        sheet.confirm(table, people["referees"][1], expected_version=table.version)
        table.refresh_from_db()
        assert table.status == ResultContainer.Status.CONFIRMED and kind_of(table).records(table) == []
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    return rnd, people


def test_the_round_page_offers_close_and_closes_a_published_round_of_confirmed_zero_deal_tables(client):
    rnd, people = zero_deal_round()
    t = rnd.tournament
    client.force_login(people["organiser"])
    page = client.get(reverse("scoring:round_tables", args=[t.slug, 1])).content.decode()
    close_url = reverse("scoring:round_close", args=[t.slug, 1])
    assert f'action="{close_url}"' in page
    assert "Start round" in page  # still possible: nothing forces the organiser to close
    response = client.post(close_url)
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    # The clock was never started: nothing is current any more, the hall bar shows no round.
    assert clock.current_round(t) is None


def test_a_published_round_with_an_unconfirmed_table_offers_only_start(client):
    rnd, tables, people = hall_round("table", tables=1)
    client.force_login(people["organiser"])
    page = client.get(reverse("scoring:round_tables", args=[rnd.tournament.slug, 1])).content.decode()
    assert reverse("scoring:round_close", args=[rnd.tournament.slug, 1]) not in page


def test_the_api_closes_a_published_round_of_confirmed_zero_deal_tables():
    rnd, people = zero_deal_round()
    response = client_for(issue_token(people["organiser"])).post(api_url("round-close", rnd.tournament.slug, 1), format="json")
    assert response.status_code == 200 and response.json()["status"] == "closed"
