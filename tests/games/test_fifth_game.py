"""A fifth game added by the checklist of docs/architecture.md ("Adding a game") works with no
other change: the test suite's game "stones" (tests/games/stones/: a real, framework-free engine
package, a :class:`~scoring.games.fourplayer.FourPlayerGame` adapter, its docs page and its test
kit), registered around each test with ``engines.register`` and ``scoring.games.register``
(:func:`tests.games.stones.kit.registered`).

It passes the same registry-driven tests as the four games of the rule texts: the tests marked
``every_game`` below are imported from their modules and run here for stones only
(:data:`GAMES_UNDER_TEST`; tests/conftest.py parametrizes them): ``engines.run`` and the presets
API, the docs examples of its page and its "At a glance" table, the API's engine endpoints (``POST
/api/v1/engines/stones/score`` and the engine list), the API's side keys, the round lifecycle and
the score sheets and round packs. The scenario at the end plays it through the referee's pages:
seating, entry, the htmx preview, a refused deal, the end at the time limit, confirmation, the
standings, the export and the PDF score sheet, with the tournament's rules preset applied by the
engine.
"""
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

import engines
from scoring.draw import rounds, seating
from scoring.games import registry
from scoring.models import Round
from scoring.policy import SYSTEM
from tests.api.test_engines import (  # noqa: F401  (run here for stones)
    test_engine_endpoint_equals_the_command_line,
    test_the_engine_list_shows_every_registered_game,
)
from tests.api.test_reads import test_side_keys_and_labels_per_game_as_documented  # noqa: F401
from tests.draw.test_rounds import (  # noqa: F401
    _english,
    test_next_round_needs_every_earlier_round_closed,
    test_publish_start_close_with_the_same_refusals_for_every_kind,
)
from tests.engines.test_presets_api import (  # noqa: F401
    test_every_package_exports_the_same_three_names,
    test_overrides_and_violations,
)
from tests.factories import PlayerFactory, TournamentFactory, staff
from tests.games.stones.adapter import Stones
from tests.games.stones.kit import KIT, registered
from tests.games.test_game_lists import (  # noqa: F401
    test_every_registered_game_has_a_test_kit,
    test_the_game_page_starts_with_an_at_a_glance_table_that_matches_the_registry,
)
from tests.ops.test_docs_examples import (  # noqa: F401
    test_every_command_has_an_example,
    test_examples_of_the_game_page_give_the_documented_output,
    test_python_examples_run,
)
from tests.printing.test_game_sheets import (  # noqa: F401
    test_round_pack_of_every_game,
    test_score_sheet_of_every_game,
)

pytestmark = pytest.mark.django_db

#: The games the ``every_game`` tests of this module run for (tests/conftest.py).
GAMES_UNDER_TEST = [Stones()]


@pytest.fixture(autouse=True)
def stones():
    """The stones engine and adapter, registered for one test and removed after it."""
    assert "stones" not in engines.GAMES
    with registered():
        yield registry.get("stones")
    assert "stones" not in engines.GAMES and "stones" not in [a.key for a in registry.all_games()]


def test_the_game_is_registered_like_the_others(stones):
    assert engines.GAMES[-1] == "stones" and [a.key for a in registry.all_games()][-1] == "stones"
    assert ("stones", "Stones") in registry.choices()
    assert engines.run("stones", "score", {"points": [5, -2, -2, -1], "rules": "double"})["net"] == [10, -4, -4, -2]
    assert stones.resolve_rules({"preset": "double", "stake": 3}) == {"preset": "double", "stake": 3, "empty_deals": False}


@pytest.mark.parametrize(("rules", "factor"), [({}, 1), ("double", 2)])
def test_a_registered_game_is_played_from_seating_to_the_standings_and_the_score_sheet(client, rules, factor):
    t = TournamentFactory(game="stones", rules=rules, name="Stones Open")
    people = staff(t)
    for name in ["Ada", "Ben", "Cor", "Dirk"]:
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

    preview = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]), KIT.entry)
    assert preview.status_code == 200 and f"<strong>{5 * factor}</strong>" in preview.content.decode()

    refused = client.post(enter, {"version": 0, "deal-p0": 5, "deal-p1": 1, "deal-p2": 0, "deal-p3": 0})
    assert refused.status_code == 400 and "add up to 0, not 6" in refused.content.decode()

    saved = client.post(enter, {"version": 0, **KIT.entry})
    assert saved.status_code == 302
    table.refresh_from_db()
    assert [s.total for s in table.seats.order_by("seat")] == [factor * x for x in KIT.scores]

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
