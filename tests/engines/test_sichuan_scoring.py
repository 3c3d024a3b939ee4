"""Sichuan ``score-hand`` (docs/engines/sichuan.md, the Sichuan rule text section 4-5): acceptance cases,
more hands worked out by hand from the rule text, every rules option, and clear violations."""
import pytest

from engines import run
from engines.errors import RuleViolation
from tests.conftest import load_cases, subset_mismatch


@pytest.mark.parametrize("case", load_cases("sichuan", {"score-hand"}), ids=lambda c: c["id"])
def test_acceptance_case(case):
    if case["expect"].get("errors") is True:
        with pytest.raises(RuleViolation):
            run("sichuan", "score-hand", case["input"])
    else:
        assert subset_mismatch(case["expect"], run("sichuan", "score-hand", case["input"])) is None


def hand(concealed, tile, *, void="s", melds=(), how="discard", after_kong=False, last_tile=False, rules=None):
    data = {"void": void, "melds": list(melds), "concealed": concealed,
            "win": {"tile": tile, "how": how, "after_kong": after_kong, "last_tile": last_tile}}
    if rules is not None:
        data["rules"] = rules
    return data


def score(*args, **kwargs):
    return run("sichuan", "score-hand", hand(*args, **kwargs))


def errors_of(data):
    with pytest.raises(RuleViolation) as err:
        run("sichuan", "score-hand", data)
    return err.value.by_field()


# ------------------------------------------------------------------ patterns worked out by hand

def test_best_reading_prefers_pungs():
    # 111 222 333 999 m + 55m: all pungs (1) + flush (2) = 3 beats the chow reading (flush 2).
    out = score("111m 222m 333m 999m 55m", "5m", void="p")
    assert out["fan_items"] == {"all_pungs": 1, "full_flush": 2}
    assert (out["fan"], out["base"]) == (3, 8)
    assert out["reading"]["kind"] == "standard"


def test_root_from_four_concealed_copies():
    # 1m four times (pung 111m + chow 123m): root 1 -> base 2.
    out = score("111m 123m 456p 789p 22p", "2p")
    assert out["fan_items"] == {"root": 1} and out["base"] == 2


def test_all_258_needs_a_258_pair():
    out = score("222m 555p 888p 222p 33m", "3m")
    assert out["fan_items"] == {"all_pungs": 1} and out["fan"] == 1
    out = score("222m 555p 888p 222p 33m", "3m", rules={"all_258_pair_required": False})
    assert out["fan_items"] == {"all_258_pungs": 3}


def test_all_258_replaces_all_pungs_option():
    out = score("222m 555p 888p 222p 55m", "5m", rules={"all_258_replaces_all_pungs": False})
    assert out["fan_items"] == {"all_pungs": 1, "all_258_pungs": 3} and out["fan"] == 4


def test_outside_hand_pair_rule():
    # Every set has a terminal but the pair 55p does not: no outside hand by default.
    assert score("123m 789m 111p 789p 55p", "5p")["fan_items"] == {}
    out = score("123m 789m 111p 789p 55p", "5p", rules={"outside_hand": "every_set"})
    assert out["fan_items"] == {"outside_hand": 2}


def test_patterns_add_up_option():
    melds = ["pung 222p claimed", "pung 444p claimed"]
    assert score("666p 888p 99p", "9p", void="m", melds=melds)["fan"] == 3
    out = score("666p 888p 99p", "9p", void="m", melds=melds, rules={"patterns_add_up": False})
    assert out["fan_items"] == {"full_flush": 2} and out["fan"] == 2


def test_root_includes_kongs_option():
    melds = ["pung 111m claimed", "pung 333m claimed", "pung 777p claimed", "kong 5555p exposed"]
    assert score("88p", "8p", melds=melds)["fan"] == 3
    out = score("88p", "8p", melds=melds, rules={"root_includes_kongs": False})
    assert out["fan_items"] == {"all_pungs": 1, "gold_hook": 1}


def test_gold_hook_needs_four_melds():
    # Three melds: the concealed part is a pung and a pair, no gold hook (all pungs 1).
    melds = ["pung 111m claimed", "pung 333m claimed", "pung 777p claimed"]
    assert score("555p 88p", "8p", melds=melds)["fan_items"] == {"all_pungs": 1}


def test_kong_replacement_only_on_self_draw():
    melds = ["kong 6666m concealed"]
    assert score("123m 456p 789p 22p", "2p", melds=melds, how="discard", after_kong=True)["fan_items"] == {"root": 1}
    out = score("123m 456p 789p 22p", "2p", melds=melds, how="discard", after_kong=True,
                rules={"kong_replacement_on_discard": True})
    assert out["fan_items"] == {"root": 1, "kong_replacement": 1}


def test_last_tile_on_discard():
    assert score("123m 456m 789p 234p 55p", "5p", last_tile=True)["fan_items"] == {"last_tile": 1}
    assert score("123m 456m 789p 234p 55p", "5p", last_tile=True, rules={"last_tile_on_discard": False})["fan_items"] == {}


def test_cap_options():
    out = score("1111m 2222m 33m 55m 77m", "7m", void="p", rules={"fan_cap": None})
    assert (out["fan_raw"], out["fan"], out["base"], out["capped"]) == (6, 6, 64, False)
    out = score("1111m 2222m 33m 55m 77m", "7m", void="p")
    assert (out["fan"], out["base"], out["capped"]) == (5, 32, True)
    assert out["each_pays"] == 32


def test_self_draw_pays_base_plus_one():
    out = score("1111m 2222m 33m 55m 77m", "7m", void="p", how="self")
    assert out["each_pays"] == 33 and out["payers"] == "each_active_opponent"


def test_seven_pairs_four_as_two_pairs_option():
    assert score("1111m 22m 33m 55m 77m 99m", "9m", void="p")["fan_items"] == {"seven_pairs": 2, "full_flush": 2, "root": 1}
    with pytest.raises(RuleViolation):
        run("sichuan", "score-hand", hand("1111m 22m 33m 55m 77m 99m", "9m", void="p", rules={"four_as_two_pairs": False}))


def test_concealed_chows_option():
    with pytest.raises(RuleViolation):
        score("123m 456m 789p 234p 55p", "5p", rules={"concealed_chows": False})


def test_kong_as_two_pairs_option():
    data = hand("33m 55m 22p 44p 66p", "6p", melds=["kong 1111m concealed"])
    assert "declared kong is never two pairs" in errors_of(data)["concealed"][0]
    data["rules"] = {"kong_as_two_pairs": True}
    out = run("sichuan", "score-hand", data)
    assert out["fan_items"] == {"seven_pairs": 2, "root": 1}


# ------------------------------------------------------------------ violations

def test_unknown_tile():
    fields = errors_of(hand("123m 456m 789p 234p 0p 5p", "5p"))
    assert "concealed" in fields and "0p" in fields["concealed"][0]


def test_honour_tile():
    assert "concealed" in errors_of(hand("123m 456m 789p 234p 5z 5z", "5z"))


def test_void_suit_in_meld():
    fields = errors_of(hand("123m 456m 789p 55p", "5p", melds=["pung 222s claimed"]))
    assert "void suit" in fields["melds[0]"][0]


def test_claimed_chow():
    fields = errors_of(hand("456m 789p 234p 55p", "5p", melds=["chow 123m claimed"]))
    assert "no chows" in fields["melds[0]"][0]


def test_wrong_count_and_fifth_copy():
    fields = errors_of(hand("123m 456m 789p 234p 5p", "5p"))
    assert "13 tiles" in fields["concealed"][0]
    fields = errors_of(hand("123m 456p 789p 22p", "2p", melds=["kong 1111m concealed"]))
    assert any("5 copies of 1m" in m for m in fields["concealed"])


def test_winning_tile_must_be_in_hand():
    assert "win.tile" in errors_of(hand("123m 456m 789p 234p 55p", "9m"))


def test_not_a_winning_hand():
    fields = errors_of(hand("123m 456m 789p 234p 56p", "6p"))
    assert "not a winning hand" in fields["concealed"][0]


def test_replacement_win_needs_a_kong():
    assert "win.after_kong" in errors_of(hand("123m 456m 789p 234p 55p", "5p", how="self", after_kong=True))


def test_robbed_tile_held_once():
    assert "win.tile" in errors_of(hand("123p 456p 789p 444s 99s", "4s", void="m", how="rob_added_kong"))


def test_bad_void_how_and_rules():
    data = hand("123m 456m 789p 234p 55p", "5p", void="z", how="stolen")
    data["rules"] = {"no_such_option": 1}
    with pytest.raises(RuleViolation) as err:
        run("sichuan", "score-hand", data)
    assert "rules.no_such_option" in err.value.by_field()
    data["rules"] = None
    fields = errors_of(data)
    assert set(fields) >= {"void", "win.how"}


def test_every_violation_reported_at_once():
    fields = errors_of(hand("123m 456m 789p 234p 0p", "5p", melds=["chow 123m claimed", "kong 55p exposed"]))
    assert {"concealed", "melds[0]", "melds[1]"} <= set(fields)


# ------------------------------------------------------------------ property tests

from collections import Counter  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engines.mahjong import TILE_KINDS, TILES, format_tiles, parse_meld  # noqa: E402


@st.composite
def sichuan_hands(draw):
    """A random legal Sichuan winning hand: void suit, 0-4 declared pungs/kongs, concealed chows and
    pungs, a pair; at most four copies of any tile."""
    void = draw(st.sampled_from("mps"))
    kinds = [t for t in TILE_KINDS(False) if t.suit.value != void]
    counts = Counter()
    melds, concealed = [], []
    n_melds = draw(st.integers(0, 4))
    while len(melds) + len(concealed) // 3 < 4:
        start = draw(st.sampled_from(kinds))
        if len(melds) < n_melds:
            size = draw(st.sampled_from([3, 4]))
            if counts[start] + size > 4:
                continue
            counts[start] += size
            melds.append(f"{'pung' if size == 3 else 'kong'} {format_tiles([start] * size)} "
                         f"{'claimed' if size == 3 else draw(st.sampled_from(['exposed', 'concealed', 'added']))}")
            continue
        chow = draw(st.booleans()) and start.number <= 7
        group = [TILES[start.index + i] for i in range(3)] if chow else [start] * 3
        if any(counts[t] + group.count(t) > 4 for t in group):
            continue
        counts.update(group)
        concealed += group
    pair = draw(st.sampled_from([k for k in kinds if counts[k] <= 2]))
    concealed += [pair, pair]
    return void, melds, concealed


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(sichuan_hands(), st.randoms(), st.sampled_from(["discard", "self"]))
def test_random_legal_hand_scores_and_order_does_not_matter(hand_parts, rnd, how):
    void, melds, concealed = hand_parts
    win_tile = str(rnd.choice(concealed))
    data = {"void": void, "melds": melds, "concealed": format_tiles(concealed),
            "win": {"tile": win_tile, "how": how, "after_kong": False, "last_tile": False}}
    out = run("sichuan", "score-hand", data)
    assert out["fan"] == min(out["fan_raw"], 5) and out["base"] == 2 ** out["fan"]
    assert out["fan_raw"] == sum(out["fan_items"].values())
    assert win_tile in out["waits"]
    shuffled = list(concealed)
    rnd.shuffle(shuffled)
    again = run("sichuan", "score-hand", {**data, "concealed": " ".join(str(t) for t in shuffled)})
    assert again == out
    # One tile more or less: a count violation on the concealed field.
    for bad in (format_tiles(concealed[1:]), format_tiles(concealed) + " " + win_tile):
        with pytest.raises(RuleViolation) as err:
            run("sichuan", "score-hand", {**data, "concealed": bad})
        assert "concealed" in err.value.by_field() or "win.tile" in err.value.by_field()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(sichuan_hands())
def test_fifth_copy_is_rejected(hand_parts):
    void, melds, concealed = hand_parts
    counts = Counter(concealed)
    for meld in melds:
        counts.update(parse_meld(meld, "m", honours=False).tiles)
    full = [t for t, n in counts.items() if n == 4]
    if not full:
        return
    swap = next(i for i, t in enumerate(concealed) if t != full[0])
    bad = list(concealed)
    bad[swap] = full[0]
    data = {"void": void, "melds": melds, "concealed": format_tiles(bad),
            "win": {"tile": str(full[0]), "how": "discard", "after_kong": False, "last_tile": False}}
    with pytest.raises(RuleViolation) as err:
        run("sichuan", "score-hand", data)
    assert any("5 copies" in m for m in err.value.by_field().get("concealed", []))
