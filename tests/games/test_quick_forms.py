"""The quick entry forms of Sichuan and Taiwanese deals (scoring.games.quick), without a database:
what they post becomes the engine's quick record, and the adapter pays it as the rules say
(Sichuan: base 2^min(fan, 5), a self-draw base + 1 from each other player; Taiwanese: 3 + 2 x tai,
the dealer tai 1 + 2N between the dealer and the winner; docs/engines/*.md "Quick entry")."""
from types import SimpleNamespace

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.errors import RuleViolation
from scoring.games import registry
from scoring.games.sichuan.forms import fan_choices, fan_keypad_top
from scoring.games.taiwanese.forms import tai_keypad_top

SEATS = ["E", "S", "W", "N"]
QUICK = SimpleNamespace(rules=None, entry_mode="quick", round_format="target", hands_per_round=None)
FULL = SimpleNamespace(rules=None, entry_mode="full", round_format="target", hands_per_round=None)


def sichuan_post(winner, source, fan):
    return {"entrymode": "quick", "quick-ev-TOTAL_FORMS": "1", "quick-ev-INITIAL_FORMS": "0",
            "quick-ev-0-type": "win", "quick-ev-0-player": winner, "quick-ev-0-source": source, "quick-ev-0-fan": str(fan)}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEATS), st.sampled_from(["self", *SEATS]), st.integers(0, 5))
def test_a_quick_sichuan_win_is_paid_as_the_rules_say(winner, source, fan):
    adapter = registry.get("sichuan")
    entry = adapter.entry(sichuan_post(winner, source, fan), settings=QUICK)
    assert entry.mode == "quick" and entry.is_valid(), entry.error_lines()
    record = entry.record()
    if source == winner:
        with pytest.raises(RuleViolation) as exc:
            adapter.evaluate_record(record, {}, QUICK)
        entry.add_violations(exc.value)
        assert entry.formset.forms[0].errors["source"]  # next to "From"
        return
    net = dict(zip(SEATS, adapter.evaluate_record(record, {}, QUICK).scores, strict=True))
    base = 2 ** fan
    if source == "self":
        assert net == {s: 3 * (base + 1) if s == winner else -(base + 1) for s in SEATS}
    else:
        assert net[winner] == base and net[source] == -base and sum(net.values()) == 0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEATS), st.sampled_from(["self", *SEATS]), st.integers(0, 15), st.sampled_from(SEATS),
       st.integers(0, 3))
def test_a_quick_taiwanese_win_is_paid_as_the_rules_say(winner, source, tai, dealer, streak):
    adapter = registry.get("taiwanese")
    entry = adapter.entry({"entrymode": "quick", "quick-winner": winner, "quick-source": source, "quick-tai": str(tai)},
                          settings=QUICK)
    assert entry.is_valid(), entry.error_lines()
    state = {"dealer": dealer, "streak": streak, "round_wind": "E"}
    if source == winner:
        with pytest.raises(RuleViolation):
            adapter.evaluate_record(entry.record(), state, QUICK)
        return
    net = dict(zip(SEATS, adapter.evaluate_record(entry.record(), state, QUICK).scores, strict=True))
    payers = [s for s in SEATS if s != winner] if source == "self" else [source]
    for payer in payers:
        extra = 1 + 2 * streak if dealer in (payer, winner) else 0
        assert net[payer] == -(3 + 2 * (tai + extra))
    assert sum(net.values()) == 0


def test_full_mode_offers_no_quick_part_and_refuses_quick_records():
    adapter = registry.get("taiwanese")
    entry = adapter.entry({"entrymode": "quick", "quick-winner": "S", "quick-source": "self", "quick-tai": "3"}, settings=FULL)
    assert entry.mode == "full" and entry.quick is None and not entry.is_valid()  # the tile fields were not given
    with pytest.raises(RuleViolation) as exc:
        adapter.evaluate_record({"seat": "S", "tai": 3, "win": {"how": "self"}}, {"dealer": "E", "streak": 0, "round_wind": "E"}, FULL)
    assert [v.field for v in exc.value.violations] == ["tai"]
    with pytest.raises(RuleViolation) as exc:
        registry.get("sichuan").evaluate_record({"events": [{"type": "win", "player": "E", "fan": 1}]}, {}, FULL)
    assert [v.field for v in exc.value.violations] == ["events[0].fan"]


def test_keypads_follow_the_rules_cap():
    assert fan_keypad_top(QUICK) == (5, True) and fan_choices((5, True))[-1] == (5, "5+")
    assert fan_keypad_top(SimpleNamespace(rules={"fan_cap": None})) == (10, False)
    assert tai_keypad_top(QUICK) == (15, True)  # no cap: 0..15 and a field for more
    assert tai_keypad_top(SimpleNamespace(rules={"cap": 8})) == (8, False)
    assert tai_keypad_top(SimpleNamespace(rules="cap16")) == (15, True)


def test_a_stored_record_opens_in_its_own_part():
    adapter = registry.get("sichuan")
    quick = {"players": SEATS, "events": [{"type": "win", "player": "E", "fan": 2, "discarder": "S"}], "exhaustion": None}
    entry = adapter.entry(initial=quick, settings=QUICK)
    assert entry.mode == "quick" and entry.formset.forms[0].initial == {"type": "win", "player": "E", "fan": 2, "source": "S",
                                                                        "robbed": False}
    full = {"events": [{"type": "win", "player": "E", "hand": {"void": "s", "melds": [], "concealed": "123m 456m 789p 234p 55p",
                                                              "win": {"tile": "5p", "how": "self"}}}], "exhaustion": None}
    assert adapter.entry(initial=full, settings=QUICK).mode == "full"
    with translation.override("en"):
        assert adapter.summary(quick) == "win East from South 2 fan"


def test_a_too_large_more_tai_gives_one_error_next_to_it():
    """More tai than the engine's 100 (docs/engines/taiwanese.md "Quick entry"): the error of the
    "more tai" field, not also "tap the tai" (nothing was tapped because the value was typed)."""
    adapter = registry.get("taiwanese")
    with translation.override("en"):
        entry = adapter.entry({"entrymode": "quick", "quick-winner": "S", "quick-source": "self", "quick-tai_other": "250"},
                              settings=QUICK)
        assert not entry.is_valid()
        assert set(entry.form.errors) == {"tai_other"}


def test_a_full_win_reads_like_a_quick_one_with_its_winning_tile():
    """The list of deals reads alike for both modes: who won, from whom (or self-drawn), then the
    fan of a quick win or the winning tile of a hand entered tile by tile."""
    adapter = registry.get("sichuan")
    full = {"events": [{"type": "win", "player": "E", "discarder": "S", "hand": {"win": {"tile": "5p", "how": "discard"}}},
                       {"type": "win", "player": "W", "hand": {"win": {"tile": "2m", "how": "self"}}},
                       {"type": "win", "player": "N", "robbed": "S", "hand": {"win": {"tile": "7s", "how": "rob_added_kong"}}}]}
    with translation.override("en"):
        assert adapter.summary(full) == "win East from South 5p; win West self-drawn 2m; win North robbing South 7s"


def test_engine_messages_name_seats_and_roles_in_words():
    """A second win by a player who already left the deal, and a Taiwanese winner who paid
    themselves: the messages name the seat ("East") and the role in words, never a seat code or
    an input field name."""
    sichuan = registry.get("sichuan")
    data = {"entrymode": "quick", "quick-ev-TOTAL_FORMS": "2", "quick-ev-INITIAL_FORMS": "0",
            "quick-ev-0-type": "win", "quick-ev-0-player": "E", "quick-ev-0-source": "S", "quick-ev-0-fan": "1",
            "quick-ev-1-type": "win", "quick-ev-1-player": "E", "quick-ev-1-source": "W", "quick-ev-1-fan": "1"}
    taiwanese = registry.get("taiwanese")
    with translation.override("en"):
        entry = sichuan.entry(data, settings=QUICK)
        assert entry.is_valid(), entry.error_lines()
        with pytest.raises(RuleViolation) as exc:
            sichuan.evaluate_record(entry.record(), {}, QUICK)
        entry.add_violations(exc.value)
        assert any("East has already won and left the deal, so cannot win or declare a kong here." in line
                   for line in entry.error_lines()), entry.error_lines()
        entry = taiwanese.entry({"entrymode": "quick", "quick-winner": "W", "quick-source": "W", "quick-tai": "5"},
                                settings=QUICK)
        assert entry.is_valid()
        with pytest.raises(RuleViolation) as exc:
            taiwanese.evaluate_record(entry.record(), {"dealer": "E", "streak": 0, "round_wind": "E"}, QUICK)
        entry.add_violations(exc.value)
        assert any("The winner cannot have discarded the winning tile." in line for line in entry.error_lines())
