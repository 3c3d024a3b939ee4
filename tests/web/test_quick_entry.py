"""Quick entry of four-player deals through the test client (issue 24 item 1) and the
tournament's entry mode (form, API, JSON file).

Values (hand-worked, see tests/engines/test_quick_entry.py for the rules): Sichuan base =
2^min(fan, 5), a self-draw base + 1 from each opponent still in, a concealed kong 2 from each
opponent still in; Taiwanese each payer 3 + 2 x tai, the dealer tai 1 + 2N only between the dealer
and the winner.
"""
import json

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.io.tournament_json import export_tournament, load_tournament
from scoring.models import Deal, Round, Tournament
from tests.api.conftest import api_url, client_for, issue_token
from tests.web.entry_data import sc_rows, win_row
from tests.web.test_table_entry import make_table, totals, url, ver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def sc_quick(rows, *, exhausted=False, ends=None) -> dict:
    """A quick Sichuan deal: ``rows`` of ``{"player", "source", "fan", "type", "kind", "robbed"}``."""
    data = {"entrymode": "quick", "quick-ev-TOTAL_FORMS": str(max(1, len(rows))), "quick-ev-INITIAL_FORMS": "0",
            "quick-ev-MIN_NUM_FORMS": "0", "quick-ev-MAX_NUM_FORMS": "1000"}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"quick-ev-{i}-{key}"] = "on" if value is True else str(value)
    if exhausted:
        data["quick-ex-exhausted"] = "on"
    for seat, value in (ends or {}).items():
        data[f"quick-ex-end_{seat}"] = value
    return data


def tw_quick(winner, source="", tai="", **extra) -> dict:
    return {"entrymode": "quick", "quick-winner": winner, "quick-source": source, "quick-tai": str(tai), **extra}


def test_sichuan_quick_deal_with_a_kong_two_wins_and_exhaustion(client):
    t, table, users = make_table("sichuan")
    client.force_login(users["referee"])
    # West's concealed kong (+2 from E, S, N); East self-draws 7 fan, capped: 33 from S, W, N;
    # North robs South's kong, 1 fan: South pays 2. The wall runs out: South ready with 1 fan
    # (2), West not ready: refunds its kong income (2 each to E, S and N; East has won but gets
    # it back too, rule option refund_to_winners) and pays South 2.
    rows = [{"type": "kong", "player": "W", "kind": "concealed"},
            {"type": "win", "player": "E", "source": "self", "fan": 5},
            {"type": "win", "player": "N", "source": "S", "fan": 1, "robbed": True}]
    r = client.post(url("table_enter", table), ver(table, sc_quick(rows, exhausted=True, ends={"S": "1", "W": ""})))
    assert r.status_code == 302, r.content.decode()[:3000]
    deal = Deal.objects.get(table=table)
    assert deal.record["events"] == [{"type": "kong", "player": "W", "kind": "concealed"},
                                     {"type": "win", "player": "E", "fan": 5},
                                     {"type": "win", "player": "N", "fan": 1, "robbed": "S"}]
    assert deal.record["exhaustion"] == {"S": {"ready_fan": 1}, "W": {}}
    # E: -2 + 99 + 2 = 99; S: -2 - 33 - 2 + 2 + 2 = -33; W: 6 - 33 - 6 - 2 = -35; N: -2 - 33 + 2 + 2 = -31
    assert deal.net == [99, -33, -35, -31] and totals(table) == [99, -33, -35, -31]
    page = client.get(url("table_detail", table)).content.decode()
    assert "win East self-drawn 5 fan" in page and "win North robbing South 1 fan" in page


def test_sichuan_quick_errors_stand_next_to_their_field(client):
    t, table, users = make_table("sichuan")
    client.force_login(users["referee"])
    # A row without its fan (the form), and South winning on East's discard after East has won
    # (the engine: East has left the deal) -> next to "From" of event 2.
    r = client.post(url("table_enter", table), ver(table, sc_quick([{"player": "E", "source": "S"}])))
    assert r.status_code == 400 and "fan" in r.context["entry"].formset.forms[0].errors
    rows = [{"player": "E", "source": "self", "fan": 1}, {"player": "S", "source": "E", "fan": 2}]
    r = client.post(url("table_enter", table), ver(table, sc_quick(rows)))
    assert r.status_code == 400
    assert "has already won" in str(r.context["entry"].formset.forms[1].errors["source"])
    assert Deal.objects.count() == 0


def test_taiwanese_quick_deals_carry_the_dealer(client):
    t, table, users = make_table("taiwanese")
    client.force_login(users["referee"])
    enter = url("table_enter", table)
    # South self-draws 3 tai, dealer East (N = 0): W, N 9, E 11.
    r = client.post(enter, ver(table, tw_quick("S", "self", 3)))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [-11, 29, -9, -9]
    table.refresh_from_db()
    assert table.state == {"dealer": "S", "streak": 0, "round_wind": "E"}
    # Dealer South wins again on West's discard with 2 tai: 3 + 2 x (2 + 1) = 9 from West.
    r = client.post(enter, ver(table, tw_quick("S", "W", 2)))
    assert r.status_code == 302
    deal = Deal.objects.get(number=2)
    assert deal.record["win"] == {"how": "discard", "discarder": "W"} and deal.net == [0, 9, -9, 0]
    # The preview shows the same payment before saving (htmx).
    r = client.post(url("deal_preview", table), tw_quick("E", "N", 1, **{"quick-tai_other": ""}))
    assert r.status_code == 200 and "(not saved)" in r.content.decode()
    # The edit page opens the quick part with the stored values; the winner's own discard is refused.
    r = client.get(url("deal_edit", table, 2))
    assert r.context["entry"].mode == "quick" and r.context["entry"].form.initial["tai"] == 2
    r = client.post(url("deal_edit", table, 2), ver(table, {**tw_quick("S", "S", 2), "reason": "typo"}))
    assert r.status_code == 400 and "source" in r.context["entry"].form.errors


def test_full_entry_is_on_the_page_and_full_mode_refuses_quick_records(client):
    t, table, users = make_table("sichuan")
    client.force_login(users["referee"])
    page = client.get(url("table_enter", table)).content.decode()
    assert 'name="entrymode"' in page and 'name="quick-ev-0-fan"' in page and 'name="deal-ev-0-concealed"' in page
    # The full part of a quick-mode tournament saves a tiled deal (a dispute): E 1 fan... 0 fan on S's discard.
    data = {**sc_rows([win_row("E", "123m 456m 789p 234p 55p", "5p", how="discard", source="S")]), "entrymode": "full"}
    assert client.post(url("table_enter", table), ver(table, data)).status_code == 302
    assert Deal.objects.get().net == [1, -1, 0, 0]

    t2, table2, users2 = make_table("taiwanese", entry_mode="full")
    client.force_login(users2["referee"])
    page = client.get(url("table_enter", table2)).content.decode()
    assert 'name="entrymode"' not in page and 'name="quick-tai"' not in page and 'name="deal-concealed"' in page
    token = issue_token(users2["referee"])
    r = client_for(token).post(api_url("table-records", t2.slug, table2.pk),
                               json.dumps({"version": 0, "record": {"seat": "S", "tai": 3, "win": {"how": "self"}}}),
                               content_type="application/json")
    assert r.status_code == 400 and "tile by tile" in json.dumps(r.json())
    assert not Deal.objects.filter(table=table2).exists()


def test_entry_mode_in_the_form_the_api_and_the_file(client):
    t, table, users = make_table("taiwanese", status=Round.Status.DRAFT)
    Round.objects.filter(tournament=t).delete()
    client.force_login(users["organiser"])
    edit = reverse("scoring:tournament_edit", args=[t.slug])
    form = client.get(edit).context["form"]
    assert form["entry_mode"].value() == "quick" and not form.fields["entry_mode"].disabled
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dict))}
    data.update({"entry_mode": "full", "rules_preset": "", "rules_overrides": ""})
    r = client.post(edit, data)
    assert r.status_code == 302, r.context["form"].errors if r.context else r
    t.refresh_from_db()
    assert t.entry_mode == "full"
    detail = client_for(issue_token(users["organiser"])).get(api_url("tournament-detail", t.slug)).json()
    assert detail["entry_mode"] == "full"
    exported = export_tournament(t)
    assert exported["entry_mode"] == "full"
    exported["slug"] = "copy"
    assert load_tournament(json.dumps(exported)).tournament.entry_mode == "full"
    del exported["entry_mode"]
    exported["slug"] = "copy2"
    assert load_tournament(json.dumps(exported)).tournament.entry_mode == "quick"
    assert Tournament.objects.get(slug="copy2").full_entry_only is False


def test_switching_modes_with_nothing_typed_previews_nothing(client):
    """Tapping "all tiles" on an empty deal asks for a preview: nothing is typed
    yet, so nothing is shown, not "enter at least one event" (tester 24)."""
    t, table, users = make_table("sichuan")
    client.force_login(users["referee"])
    empty_full = {"entrymode": "full", "deal-ev-TOTAL_FORMS": "6", "deal-ev-INITIAL_FORMS": "0"}
    html = client.post(url("deal_preview", table), empty_full).content.decode()
    assert "Not valid yet" not in html and "at least one event" not in html and "errorlist" not in html
    # Something typed is checked as before.
    html = client.post(url("deal_preview", table), {**empty_full, "deal-ev-0-type": "win"}).content.decode()
    assert "Not valid yet" in html
