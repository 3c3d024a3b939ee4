"""Tien Gow quick entry (issue 24 item 1): the settlement face posts only what a referee taps (the
last trick's winner and the columns; "won with" defaults to ordinary), shows the banker carried
from the last deal by name, keeps the immediate payments and the last trick's details behind
"more", and keeps the trick-by-trick mode.

Values by hand from the Tien Gow rule text ("Afrekening") and docs/engines/tiengow.md: the winner of the last
trick settles with each opponent, who pays 4 - c for c columns (5 for none) or receives the surplus
over four from the winner; every payment with the banker doubles, a last trick won by a quartet
doubles all final payments.

- D1, banker seat 1 (index 0, a table's first deal): seat 2 (index 1) wins the last trick with the
  columns 5/2/1/0. Seat 1, the banker, has 5 columns: receives 5 - 4 = 1, doubled, 2; seat 3 pays
  4 - 1 = 3; seat 4 (no column) pays 5. Net +2 / +6 / -3 / -5; seat 2 is the next banker.
- D2, banker seat 2: seat 4 (index 3) wins the last trick with a quartet (its four columns among
  its own), columns 1/2/1/4. The quartet is also paid at once (the referee does not list it: the
  quick face adds it): 4 from each, doubled with the banker: seats 1 and 3 pay 4, seat 2 pays 8.
  Final, doubled for the last quartet: seats 1 and 3 pay (4 - 1) x 2 = 6, seat 2 (the banker)
  (4 - 2) x 2 x 2 = 8. Net -10 / -16 / -10 / +36 (immediate payments are never multiplied further).
"""
from types import SimpleNamespace

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import registry
from scoring.models import Deal
from tests.web.entry_data import NAMES
from tests.web.test_table_entry import make_table, url, ver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def quick(cols, winner, **extra) -> dict:
    """What the quick face posts: the mode (checked by default), the winner tapped, the columns
    from the keypad; nothing else."""
    data = {"deal-mode": "settle", "deal-last_winner": str(winner)}
    data.update({f"deal-columns_{i}": str(c) for i, c in enumerate(cols)})
    data.update(extra)
    return data


def test_quick_deals_with_the_carried_banker(client):
    t, table, users = make_table("tiengow")
    client.force_login(users["referee"])
    page = client.get(url("table_enter", table)).content.decode()
    assert f"Banker: {NAMES[0]} (seat 1)" in page
    assert 'data-digit="8"' in page and 'class="tg-keypad"' in page  # the keypad (shown by static/js/tiengow.js)
    # "won with" starts at ordinary; the rest is behind "more"; the trick-by-trick mode stays
    assert 'name="deal-last_group" value="ordinary"' in page and 'value="ordinary"\n' not in page
    assert page.index('class="tg-more"') < page.index('name="deal-imm_winner_0"')
    assert 'name="deal-tricks"' in page and 'name="deal-mode" value="deal"' in page
    r = client.post(url("table_enter", table), ver(table, quick([5, 2, 1, 0], 1)))
    assert r.status_code == 302, r.context["entry"].error_lines()
    deal = Deal.objects.get(table=table)
    assert deal.record["last_trick"] == {"winner": 1, "group": "ordinary"} and deal.record["banker"] == 0
    assert deal.net == [2, 6, -3, -5]
    page = client.get(url("table_enter", table)).content.decode()
    assert f"Banker: {NAMES[1]} (seat 2)" in page  # the last trick's winner banks next
    r = client.post(url("table_enter", table), ver(table, quick([1, 2, 1, 4], 3, **{"deal-last_group": "quartet"})))
    assert r.status_code == 302, r.context["entry"].error_lines()
    assert [d.net for d in Deal.objects.filter(table=table).order_by("number")][1] == [-10, -16, -10, 36]
    assert Deal.objects.get(table=table, number=2).record["immediate"] == [{"winner": 3, "group": "quartet"}]
    # editing deal 1 shows the banker written into it, not the table's current one
    page = client.get(url("deal_edit", table, 1)).content.decode()
    assert f"Banker: {NAMES[0]} (seat 1)" in page


def test_quick_face_checks_what_it_can(client):
    t, table, users = make_table("tiengow")
    client.force_login(users["referee"])
    r = client.post(url("table_enter", table), ver(table, quick([2, 3, 3, ""], 1)))
    assert r.status_code == 400 and "columns_3" in r.context["entry"].form.errors  # every seat's columns
    r = client.post(url("table_enter", table), ver(table, quick([2, 3, 3, 0], "")))
    assert r.status_code == 400 and "last_winner" in r.context["entry"].form.errors
    r = client.post(url("table_enter", table), ver(table, quick([2, 3, 3, 1], 1)))
    assert r.status_code == 400 and r.context["entry"].form.column_errors()  # 9 columns: the engine's check
    # The engine's seat 1 (0-based) is the page's "Seat 2": its messages name seats as the page does.
    r = client.post(url("table_enter", table), ver(table, quick([4, 0, 2, 2], 1)))
    lines = r.context["entry"].error_lines()
    assert r.status_code == 400 and any("Seat 2 won the last trick" in line for line in lines), lines
    assert not Deal.objects.filter(table=table).exists()


@st.composite
def quick_deals(draw):
    """A quick-face deal as a referee taps it: the columns of the four seats (eight in all), the
    last trick's winner (with at least the columns its group takes: 1, the Supreme 2, a quartet 4)
    and its group."""
    group = draw(st.sampled_from(["ordinary", "quartet", "supreme", "little_three"]))
    least = {"quartet": 4, "supreme": 2}.get(group, 1)
    winner = draw(st.integers(0, 3))
    cols = [0, 0, 0, 0]
    cols[winner] = least
    for _ in range(8 - least):
        cols[draw(st.integers(0, 3))] += 1
    return cols, winner, group


@settings(max_examples=40, deadline=None)
@given(deal=quick_deals(), banker=st.integers(0, 3))
def test_every_quick_deal_is_settled(deal, banker):
    """Whatever the referee taps (within the rules), the engine settles it: the net sums to 0 and
    the last trick's winner banks next (the rule text: "De winnaar van de laatste slag wordt de
    volgende bankier")."""
    cols, winner, group = deal
    adapter = registry.get("tiengow")
    settings_ = SimpleNamespace(rules=None, round_format="", hands_per_round=None)
    entry = adapter.entry(quick(cols, winner, **{"deal-last_group": group}), names={}, settings=settings_)
    assert entry.is_valid(), entry.error_lines()
    outcome = adapter.evaluate_record(entry.record(), {"banker": banker}, settings_)
    assert sum(outcome.scores) == 0 and outcome.state_after == {"banker": winner}
