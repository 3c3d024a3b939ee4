"""Tien Gow tiles, groups and their comparison, with expected values taken from the Tien Gow rule text
("Opstelling", "Een beurt spelen") and docs/engines/tiengow.md."""
from itertools import combinations

import pytest

from engines import run
from engines.errors import RuleViolation
from engines.tiengow import FULL_SET, TILES, GroupKind, beats, identify
from engines.tiengow.names import TILE_NAMES, tile_name
from engines.tiengow.options import resolve

# The rule text's civil order, high to low: Hemel, Aarde, Mens, Gans, Pruim, Dubbele Drie, Plank,
# Bijl, Scheidingspartitie, Lange Poot Zeven, Grote Kop Zes (pips per docs/engines/tiengow.md).
CIVIL_HIGH_TO_LOW = ["6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"]
# Military by total: nine, eight, seven, Grote Zes (2-4), five, Kleine Drie (1-2).
MILITARY_BY_TOTAL = [["4-5", "3-6"], ["3-5", "2-6"], ["3-4", "2-5"], ["2-4"], ["1-4", "2-3"], ["1-2"]]


def g(*codes, rules=None):
    group, _ = identify([TILES[c] for c in codes], resolve(rules))
    return group


def check(current, play, rules=None):
    data = {"current": current, "play": play}
    if rules is not None:
        data["rules"] = rules
    return run("tiengow", "check", data)


def test_the_set_has_32_tiles_22_civil_10_military():
    assert sum(FULL_SET.values()) == 32
    assert sum(n for c, n in FULL_SET.items() if TILES[c].civil) == 22
    assert sum(n for c, n in FULL_SET.items() if not TILES[c].civil) == 10
    assert sorted(c for c in TILES if TILES[c].civil) == sorted(CIVIL_HIGH_TO_LOW)
    assert all(FULL_SET[c] == 2 for c in CIVIL_HIGH_TO_LOW)
    assert all(FULL_SET[c] == 1 for row in MILITARY_BY_TOTAL for c in row)


def test_families():
    # Hemel–negen, Aarde–acht, Man–zeven, Gans–vijf
    assert {TILES[c].family.value for c in ("6-6", "4-5", "3-6")} == {"heaven"}
    assert {TILES[c].family.value for c in ("1-1", "3-5", "2-6")} == {"earth"}
    assert {TILES[c].family.value for c in ("4-4", "3-4", "2-5")} == {"man"}
    assert {TILES[c].family.value for c in ("1-3", "1-4", "2-3")} == {"goose"}
    assert all(TILES[c].family is None for c in ("5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5", "2-4", "1-2"))


@pytest.mark.parametrize(("raw", "field"), [
    ("7-1", "play[0]"), ("0-3", "play[0]"), ("66", "play[0]"), ("", "play[0]"), (12, "play[0]"),
])
def test_unknown_tiles_are_rejected_with_the_field(raw, field):
    with pytest.raises(RuleViolation) as exc:
        check(None, [raw])
    assert [v.field for v in exc.value.violations] == [field]
    assert "Unknown tile" in exc.value.violations[0].message


def test_too_many_copies_is_rejected():
    with pytest.raises(RuleViolation) as exc:
        check(None, ["6-6", "6-6", "6-6"])
    assert [v.field for v in exc.value.violations] == ["play[2]"]
    assert "Too many copies of 6-6" in exc.value.violations[0].message
    with pytest.raises(RuleViolation) as exc:
        check(None, ["4-5", "4-5"])
    assert [v.field for v in exc.value.violations] == ["play[1]"]


def test_high_low_spelling_is_normalised():
    out = check(None, ["6-1"])
    assert out["group"]["tiles"] == ["1-6"]


def test_every_violation_is_reported_together():
    with pytest.raises(RuleViolation) as exc:
        check(["9-9"], ["x", "1-1"])
    assert {v.field for v in exc.value.violations} == {"current[0]", "play[0]"}


def test_civil_singles_follow_the_rule_text_order():
    for i, high in enumerate(CIVIL_HIGH_TO_LOW):
        for j, low in enumerate(CIVIL_HIGH_TO_LOW):
            assert beats(g(high), g(low))[0] is (i < j), (high, low)


def test_military_singles_rank_by_total_and_equal_totals_are_equal():
    for i, row_high in enumerate(MILITARY_BY_TOTAL):
        for j, row_low in enumerate(MILITARY_BY_TOTAL):
            for a in row_high:
                for b in row_low:
                    assert beats(g(a), g(b))[0] is (i < j), (a, b)


def test_civil_and_military_singles_never_beat_each_other():
    for c in CIVIL_HIGH_TO_LOW:
        for row in MILITARY_BY_TOTAL:
            for m in row:
                assert not beats(g(c), g(m))[0]
                assert not beats(g(m), g(c))[0]


def test_pairs():
    for c in CIVIL_HIGH_TO_LOW:
        pair = g(c, c)
        assert (pair.kind, pair.civil, pair.military) == (GroupKind.PAIR, 2, 0)
    for row in MILITARY_BY_TOTAL:
        if len(row) == 2:
            pair = g(*row)
            assert (pair.kind, pair.civil, pair.military) == (GroupKind.PAIR, 0, 2)
    # civil pairs by civil rank, military pairs by total
    assert beats(g("1-1", "1-1"), g("2-2", "2-2"))[0]
    assert not beats(g("2-2", "2-2"), g("1-1", "1-1"))[0]
    assert beats(g("3-4", "2-5"), g("1-4", "2-3"))[0]
    assert not beats(g("4-5", "3-6"), g("6-6", "6-6"))[0]  # 0/2 vs 2/0
    # not pairs: different civil tiles, different military totals, 2-4 with a five
    assert g("6-6", "1-1") is None
    assert g("4-5", "3-5") is None
    assert g("2-4", "1-4") is None
    assert g("1-2", "2-3") is None


def test_supreme_only_wins_when_led():
    supreme = g("2-4", "1-2")
    assert (supreme.kind, supreme.civil, supreme.military) == (GroupKind.SUPREME, 0, 2)
    for a, b in combinations(list(TILES), 2):
        other = g(a, b)
        if other is None or other.kind is GroupKind.SUPREME:
            continue
        assert not beats(other, supreme)[0]
        assert not beats(supreme, other)[0]
    for c in CIVIL_HIGH_TO_LOW:
        assert not beats(g(c, c), supreme)[0]


FAMILIES = {  # family: (civil tile, military tiles of its total), strongest family first
    "heaven": ("6-6", ["4-5", "3-6"]),
    "earth": ("1-1", ["3-5", "2-6"]),
    "man": ("4-4", ["3-4", "2-5"]),
    "goose": ("1-3", ["1-4", "2-3"]),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_mixed_groups_of_each_family(family):
    civil, military = FAMILIES[family]
    shapes = {
        (1, 1): [civil, military[0]],
        (2, 1): [civil, civil, military[1]],
        (1, 2): [civil, *military],
        (2, 2): [civil, civil, *military],
    }
    for (nc, nm), tiles in shapes.items():
        group = g(*tiles)
        assert (group.kind, group.civil, group.military, group.family.value) == (GroupKind.MIXED, nc, nm, family)
    assert g(civil, civil, civil) is None


def test_mixed_groups_compare_by_family_only_with_equal_counts():
    order = list(FAMILIES)
    for i, fa in enumerate(order):
        for j, fb in enumerate(order):
            ca, ma = FAMILIES[fa]
            cb, mb = FAMILIES[fb]
            assert beats(g(ca, ma[0]), g(cb, mb[1]))[0] is (i < j)
            assert beats(g(ca, ca, *ma), g(cb, cb, *mb))[0] is (i < j)
            assert not beats(g(ca, ca, ma[0]), g(cb, *mb))[0]  # 2C+1M vs 1C+2M
    assert not beats(g("6-6", "4-5"), g("6-6", "3-6"))[0]  # equal rank loses


def test_not_mixed():
    assert g("5-5", "4-5") is None  # Plum has no family
    assert g("6-6", "3-5") is None  # Heaven with an eight
    assert g("6-6", "6-6", "1-1") is None  # three civil
    assert g("1-3", "1-4", "2-3", "2-4") is None  # three military
    assert g("6-6", "6-6", "4-5", "3-6", "1-1") is None  # five tiles


def test_check_when_leading():
    out = check(None, ["1-1", "1-1", "3-5"])
    assert out == {
        "legal": True, "beats": True, "current_group": None, "reason": None,
        "group": {"kind": "mixed", "civil": 2, "military": 1, "rank": 2, "family": "earth", "tiles": ["1-1", "1-1", "3-5"]},
    }
    out = check(None, ["6-6", "1-1"])
    assert out["legal"] is False and out["beats"] is False and out["group"] is None and out["reason"]


def test_check_when_following():
    # any two tiles may be discarded face down after a pair: legal, but they do not beat
    out = check(["2-2", "2-2"], ["6-6", "1-2"])
    assert out["legal"] is True and out["beats"] is False and out["group"] is None
    out = check(["2-2", "2-2"], ["5-5", "5-5"])
    assert out["legal"] is True and out["beats"] is True
    out = check(["2-2"], ["6-6", "6-6"])
    assert out["legal"] is False


def test_current_must_be_a_group():
    with pytest.raises(RuleViolation) as exc:
        check(["6-6", "1-1"], ["2-2", "2-2"])
    assert [v.field for v in exc.value.violations] == ["current"]


def test_equal_totals_civil_option():
    # default (docs/engines/tiengow.md): equal totals are equal only among military tiles
    assert check(["4-6"], ["5-5"])["beats"] is True
    assert check(["2-2"], ["1-3"])["beats"] is True
    rules = {"preset": "standard", "equal_totals_civil": True}
    assert check(["4-6"], ["5-5"], rules)["beats"] is False
    assert check(["1-5"], ["3-3"], rules)["beats"] is False
    assert check(["2-2", "2-2"], ["1-3", "1-3"], rules)["beats"] is False
    assert check(["5-6"], ["5-5"], rules)["beats"] is True


def test_unknown_rules_are_rejected():
    with pytest.raises(RuleViolation) as exc:
        check(None, ["6-6"], {"preset": "standard", "no_such_option": 1})
    assert [v.field for v in exc.value.violations] == ["rules.no_such_option"]
    with pytest.raises(RuleViolation) as exc:
        check(None, ["6-6"], {"preset": "standard", "early_death": "sometimes"})
    assert [v.field for v in exc.value.violations] == ["rules.early_death"]
    with pytest.raises(RuleViolation) as exc:
        check(None, ["6-6"], "nope")
    assert [v.field for v in exc.value.violations] == ["rules.preset"]


def test_names_in_english_and_dutch():
    assert set(TILE_NAMES) == set(TILES)
    dutch = [TILE_NAMES[c][1] for c in CIVIL_HIGH_TO_LOW]
    assert dutch == ["Hemel", "Aarde", "Mens", "Gans", "Pruim", "Dubbele Drie", "Plank", "Bijl",
                     "Scheidingspartitie", "Lange Poot Zeven", "Grote Kop Zes"]
    assert tile_name("2-4", "nl") == "Grote Zes" and tile_name("1-2", "nl") == "Kleine Drie"
    assert tile_name("6-6") == "Heaven" and tile_name("1-5") == "Big Head Six"
