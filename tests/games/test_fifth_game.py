"""Adding a game needs nothing but an adapter (docs/architecture.md, "Adding a game"): a tiny
four-player game registered in this test gets seating, entry with preview, the end at the time
limit, confirmation, standings, exports and a PDF score sheet without any other module knowing it.

The game ("stones"): each deal, every player's points are written down; they must add up to 0.
"""
import io

import pytest
from django import forms
from django.urls import reverse
from pypdf import PdfReader

from scoring.draw import rounds, seating
from scoring.games import registry
from scoring.games.base import EntrantKind, GameAdapter, RecordOutcome, RuleViolation, Violation
from scoring.games.entry import Entry
from scoring.models import Round
from scoring.policy import SYSTEM
from tests.factories import PlayerFactory, TournamentFactory, staff

pytestmark = pytest.mark.django_db

SEATS = ("0", "1", "2", "3")


class StonesForm(forms.Form):
    """Four points, one per seat."""

    def __init__(self, *args, names=None, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[f"p{seat}"] = forms.IntegerField(label=(names or {}).get(seat, seat))


class StonesEntry(Entry):
    def build(self, data, initial):
        self.form = StonesForm(data, prefix=self.prefix, names=self.names,
                               initial={f"p{i}": v for i, v in enumerate(initial.get("points") or [])})

    def record(self):
        return {"points": [self.form.cleaned_data[f"p{s}"] for s in SEATS]}

    def locate(self, parts):
        return (self.form, f"p{parts[1]}") if parts[:1] == ["points"] and len(parts) > 1 else None


class Stones(GameAdapter):
    """The test's fifth game; its rule check is this adapter's own (no engine package)."""

    key = engine = "stones"
    label = "Stones"
    entrants = EntrantKind.PLAYERS
    sides = SEATS

    def presets(self):
        return {"plain": {"preset": "plain"}}

    def default_preset(self):
        return "plain"

    def resolve_rules(self, raw):
        return {"preset": "plain"}

    def evaluate_record(self, record, state, settings):
        points = record.get("points") if isinstance(record, dict) else None
        if not isinstance(points, list) or len(points) != 4:
            raise RuleViolation([Violation("points", "Four points are needed.")])
        if sum(points) != 0:
            raise RuleViolation([Violation("points.0", "The points must add up to 0, not {total}.", {"total": sum(points)})])
        return RecordOutcome({"points": points}, tuple(points), {}, {})

    def summary(self, record):
        return " / ".join(str(p) for p in record.get("points", []))

    def audit_sentence(self, action, number):
        return f"stones {number} {action}"

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return StonesEntry(data, names=names, initial=initial, prefix="deal", settings=settings)


@pytest.fixture
def stones():
    with registry.registered(Stones()) as adapter:
        yield adapter


def test_a_registered_game_is_played_from_seating_to_the_standings_and_the_score_sheet(client, stones):
    t = TournamentFactory(game="stones", rules={}, name="Stones Open")
    people = staff(t)
    names = ["Ada", "Ben", "Cor", "Dirk"]
    for name in names:
        PlayerFactory(tournament=t, name=name)
    outcome = seating.seat_round(t, SYSTEM, seed=1)
    rnd = outcome.round
    rounds.publish_round(rnd, SYSTEM)
    table = rnd.tables.get()
    seated = [s.player.name for s in table.seats.order_by("seat")]

    client.force_login(people["referees"][0])
    enter = reverse("scoring:table_enter", args=[t.slug, table.pk])
    page = client.get(enter)
    assert page.status_code == 200 and all(name in page.content.decode() for name in seated)

    preview = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]),
                          {"deal-p0": 5, "deal-p1": -2, "deal-p2": -2, "deal-p3": -1})
    assert preview.status_code == 200 and "<strong>5</strong>" in preview.content.decode()

    refused = client.post(enter, {"version": 0, "deal-p0": 5, "deal-p1": 1, "deal-p2": 0, "deal-p3": 0})
    assert refused.status_code == 400 and "add up to 0, not 6" in refused.content.decode()

    saved = client.post(enter, {"version": 0, "deal-p0": 5, "deal-p1": -2, "deal-p2": -2, "deal-p3": -1})
    assert saved.status_code == 302
    table.refresh_from_db()
    assert [s.total for s in table.seats.order_by("seat")] == [5, -2, -2, -1]

    ended = client.post(reverse("scoring:table_end", args=[t.slug, table.pk]), {"version": table.version, "end-reason": "time"})
    assert ended.status_code == 302

    client.force_login(people["referees"][1])
    table.refresh_from_db()
    confirmed = client.post(reverse("scoring:table_confirm", args=[t.slug, table.pk]), {"version": table.version})
    assert confirmed.status_code == 302
    table.refresh_from_db()
    assert table.status == table.Status.CONFIRMED

    rounds.close_round(rnd, SYSTEM)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED

    standings = client.get(reverse("scoring:standings", args=[t.slug])).content.decode()
    assert standings.index(seated[0]) < standings.index(seated[3]) < standings.index(seated[1])

    csv = client.get(reverse("scoring:standings_export", args=[t.slug])).content.decode("utf-8-sig")
    assert f"{seated[0]}," in csv

    pdf = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert pdf["Content-Type"] == "application/pdf" and all(name in text for name in seated) and "5 / -2 / -2 / -1" in text
