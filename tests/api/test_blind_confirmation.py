"""Blind confirmation holds in the API as on the pages (docs/results.md): until a result is
confirmed, its totals, scores, records and outcome are hidden from everyone but the tournament's
members (and the side that entered it), so the side that confirms re-types them from its sheet."""
import pytest

from scoring.models import Tournament
from scoring.results import sheet
from tests.api.conftest import api_url
from tests.factories import PLAIN_HAND, play

pytestmark = pytest.mark.django_db


def test_unconfirmed_totals_are_hidden_from_the_public_and_shown_to_members_and_once_confirmed(api_world):
    w = api_world
    Tournament.objects.filter(pk=w.tp.pk).update(blind_confirmation=True)
    play(w.match, [PLAIN_HAND], w.referee, end_reason="time is up")
    url = api_url("match-detail", "tp", w.match.pk)
    public = w.client(None).get(url).json()
    assert public["totals_hidden"] is True and public["totals"] is None and public["records"] == []
    assert [s["total"] for s in public["sides"]] == [None, None] and public["winner"] is None and public["outcome"] == ""
    round_table = w.client(None).get(api_url("round-detail", "tp", 1)).json()["tables"][0]
    assert round_table["totals"] is None
    member = w.client("referee").get(url).json()
    assert member["totals_hidden"] is False and member["totals"] == [75, 25] and len(member["records"]) == 1
    w.match.refresh_from_db()
    sheet.confirm(w.match, w.confirmer, expected_version=w.match.version, totals=[75, 25])
    confirmed = w.client(None).get(url).json()
    assert confirmed["totals"] == [75, 25] and confirmed["totals_hidden"] is False
