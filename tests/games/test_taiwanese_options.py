"""The Taiwanese adapter honours the tournament's ``draw_keeps_dealer`` option (rules text: tables
differ on whether a drawn hand keeps the dealer; the default: it does)."""
import pytest

from scoring.games import registry
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

DRAW = {"draw": True}


def test_a_draw_keeps_the_dealer_by_default_and_passes_it_on_when_the_option_says_so():
    adapter = registry.get("taiwanese")
    keeps = TournamentFactory(game="taiwanese", rules={})
    passes = TournamentFactory(game="taiwanese", rules={"preset": adapter.default_preset(), "draw_keeps_dealer": False})
    assert adapter.evaluate([DRAW], keeps).state == {"dealer": "E", "streak": 1, "round_wind": "E"}
    assert adapter.evaluate([DRAW], passes).state == {"dealer": "S", "streak": 0, "round_wind": "E"}


def test_null_is_no_override_for_an_option_whose_preset_value_is_not_null():
    from scoring.games.base import RuleViolation

    with pytest.raises(RuleViolation):
        registry.get("taipan").resolve_rules({"preset": "nskt", "grand_allowed": None})
    assert registry.get("taiwanese").resolve_rules({"cap": None})["cap"] is None
