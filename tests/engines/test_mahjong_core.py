"""Shared mahjong core (engines/mahjong): MPSZ parsing, melds, decompositions, seven pairs, waits and
physical checks. Expected values are worked out by hand from the rule texts (docs/engines/sichuan.md and taiwanese.md)."""
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.errors import Collector, RuleViolation
from engines.mahjong import (
    TILE_KINDS,
    TILES,
    Exposure,
    MeldKind,
    Suit,
    Tile,
    check_counts,
    decompositions,
    format_tiles,
    is_seven_pairs,
    is_winning,
    parse_meld,
    parse_tiles,
    waits,
)


def T(text, honours=True):
    return parse_tiles(text, "t", honours=honours)


# ---------------------------------------------------------------- tiles

def test_parse_groups_and_order():
    tiles = T("123m 456m 55p")
    assert [str(t) for t in tiles] == ["1m", "2m", "3m", "4m", "5m", "6m", "5p", "5p"]
    assert tiles[0] == Tile(Suit.m, 1) and tiles[-1].suit is Suit.p and tiles[-1].number == 5
    assert [str(t) for t in T("123m456p")] == ["1m", "2m", "3m", "4p", "5p", "6p"]
    assert str(T("7Z")[0]) == "7z"


def test_tile_kinds():
    assert len(TILE_KINDS(False)) == 27 and len(TILE_KINDS(True)) == 34
    assert [str(t) for t in TILE_KINDS(True)[27:]] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert all(t.index == i for i, t in enumerate(TILES))


def test_format_tiles():
    assert format_tiles(T("123m 5p 9m"), sort=True) == "1239m 5p"
    assert format_tiles(T("123m 5p")) == "123m 5p"


@pytest.mark.parametrize("text,bad", [("0m", "0m"), ("8z", "8z"), ("fl1", "fl1"), ("12x", "1x"), ("5", "5")])
def test_unknown_tile_is_a_clear_violation(text, bad):
    with pytest.raises(RuleViolation) as err:
        parse_tiles(text, "concealed", honours=True)
    v = err.value.violations[0]
    assert v.field == "concealed" and "Unknown tile" in v.message and bad in v.message


def test_honours_not_allowed():
    with pytest.raises(RuleViolation) as err:
        parse_tiles("123m 5z", "hand.concealed", honours=False)
    assert err.value.violations[0].field == "hand.concealed"
    assert "honour" in err.value.violations[0].message.lower()


def test_every_bad_tile_is_reported():
    with pytest.raises(RuleViolation) as err:
        parse_tiles("0m 123m 9z", "c", honours=True)
    assert len(err.value.violations) == 2


# ---------------------------------------------------------------- melds

def test_parse_melds():
    m = parse_meld("pung 111m claimed", "melds[0]", honours=False)
    assert m.kind is MeldKind.pung and m.exposure is Exposure.claimed and not m.is_concealed and len(m.tiles) == 3
    k = parse_meld("kong 6666m concealed", "melds[0]", honours=False)
    assert k.kind is MeldKind.kong and k.is_concealed and len(k.tiles) == 4
    assert parse_meld("kong 3333m added", "m", honours=False).exposure is Exposure.added
    c = parse_meld("chow 312m claimed", "m", honours=False)
    assert [str(t) for t in c.tiles] == ["1m", "2m", "3m"] and str(c) == "chow 123m claimed"
    assert parse_meld("pung 555z", "m", honours=True).exposure is Exposure.claimed


@pytest.mark.parametrize("text", [
    "pung 112m claimed", "pung 1111m claimed", "kong 555p exposed", "kong 5556p concealed", "kong 5555p",
    "chow 124m claimed", "chow 123z claimed", "chow 1m2p3s claimed", "chow 123m concealed", "pung 111m added",
    "triple 111m claimed", "pung claimed", "",
])
def test_bad_melds(text):
    with pytest.raises(RuleViolation) as err:
        parse_meld(text, "melds[2]", honours=True)
    assert all(v.field == "melds[2]" for v in err.value.violations)


# ---------------------------------------------------------------- decompositions

def test_decompositions_of_a_plain_hand():
    ds = decompositions(T("123m 456m 789p 234p 55p"), 4)
    assert len(ds) == 1
    d = ds[0]
    assert str(d.pair) == "5p"
    assert [(k.value, str(t)) for k, t in d.sets] == [("chow", "1m"), ("chow", "4m"), ("chow", "2p"), ("chow", "7p")]


def test_decompositions_ambiguous():
    # 111222333m 789p 55p: three pungs or three chows.
    ds = decompositions(T("111222333m 789p 55p"), 4)
    readings = {tuple((k.value, str(t)) for k, t in d.sets) for d in ds}
    assert readings == {
        (("pung", "1m"), ("pung", "2m"), ("pung", "3m"), ("chow", "7p")),
        (("chow", "1m"), ("chow", "1m"), ("chow", "1m"), ("chow", "7p")),
    }
    # 11223344556677m: seven pairs, and two chow readings (123 123 456 456 77 / 11 234 234 567 567).
    ds = decompositions(T("11223344556677m"), 4)
    assert sorted(str(d.pair) for d in ds) == ["1m", "4m", "7m"]
    assert is_seven_pairs(T("11223344556677m"))


def test_honours_only_pung():
    assert decompositions(T("123z 111m 222m 333m 11p"), 4) == []
    assert len(decompositions(T("111z 777z 123m 456m 99p"), 4)) == 1


def test_not_winning_and_wrong_size():
    assert decompositions(T("123m 456m 789p 234p 56p"), 4) == []
    assert decompositions(T("123m 456m 789p 234p 5p"), 4) == []
    assert not is_winning(T("123m 456m 789p 234p 5p"), 4)


def test_seven_pairs():
    assert is_seven_pairs(T("11m 33m 55m 77m 22p 44p 66p"))
    assert is_seven_pairs(T("1111m 2222m 33m 55m 77m"))
    assert not is_seven_pairs(T("1111m 2222m 33m 55m 77m"), four_as_two_pairs=False)
    assert not is_seven_pairs(T("111m 33m 55m 77m 22p 44p 66p 6p"))


def test_waits():
    # Hand-computed: 123m 456m 789p 234p + 5p waits on 2p (22p + 345p) and 5p (234p + 55p).
    assert [str(t) for t in waits(T("123m 456m 789p 234p 5p"), 4, seven_pairs=True, honours=False)] == ["2p", "5p"]
    # Nine gates 1112345678999m waits on every m tile.
    nine = waits(T("1112345678999m"), 4, seven_pairs=False, honours=False)
    assert [str(t) for t in nine] == [f"{n}m" for n in range(1, 10)]
    # Seven-pairs wait only when allowed.
    six = T("11m 33m 55m 77m 22p 44p 6p")
    assert [str(t) for t in waits(six, 4, seven_pairs=True, honours=False)] == ["6p"]
    assert waits(six, 4, seven_pairs=False, honours=False) == []
    # Four copies already held/visible: no wait on a fifth.
    assert waits(T("1111m"), 1, seven_pairs=False, honours=False) == []
    assert [str(t) for t in waits(T("1113m"), 1, seven_pairs=False, honours=False)] == ["2m", "3m"]
    assert waits(T("1m"), 0, seven_pairs=False, honours=False) == [Tile(Suit.m, 1)]
    assert waits(T("1m"), 0, seven_pairs=False, honours=False, visible=T("111m")) == []
    # Honour single wait.
    assert waits(T("123m 456m 789m 111p 5z"), 4, seven_pairs=False, honours=True) == [Tile(Suit.z, 5)]


# ---------------------------------------------------------------- physical checks

def _melds(*texts):
    return [parse_meld(t, "m", honours=True) for t in texts]


def test_check_counts_ok():
    c = Collector()
    check_counts(c, T("123m 456p 789p 22p"), _melds("kong 6666m concealed"), expected_sets=4)
    check_counts(c, T("88p"), _melds("pung 111m", "pung 333m", "pung 777p", "kong 5555p exposed"), expected_sets=4)
    check_counts(c, T("123m 456m 789m 123p 456p 11z"), [], expected_sets=5)
    check_counts(c, T("123m 456m 789m 11m 45m"), [], expected_sets=4, winning=False)
    assert not c


def test_wrong_count_rejected():
    c = Collector()
    check_counts(c, T("123m 456m 789p 234p 5p"), [], expected_sets=4, field_prefix="hand.")
    assert [v.field for v in c.violations] == ["hand.concealed"]
    assert "13 tiles" in c.violations[0].message and "14" in c.violations[0].message
    c = Collector()
    # A kong counts as one set: with one kong 11 concealed tiles.
    check_counts(c, T("123m 456p 789p 22p 3p"), _melds("kong 6666m concealed"), expected_sets=4)
    assert c and "11" in c.violations[0].message
    c = Collector()
    check_counts(c, T("11m"), _melds(*["pung 222m"] * 5), expected_sets=4)
    assert c.violations[0].field == "melds"


def test_fifth_copy_rejected():
    c = Collector()
    check_counts(c, T("1m 23m 456p 789p 22p"), _melds("kong 1111m concealed"), expected_sets=4)
    assert len(c.violations) == 1 and "5 copies of 1m" in c.violations[0].message


# ---------------------------------------------------------------- property tests

NUMBERED = TILE_KINDS(False)


ANY_HONOURS = st.booleans()
ANY_SETS = st.integers(0, 5)


@st.composite
def winning_hands(draw, honours=ANY_HONOURS, sets_count=ANY_SETS):
    """A random legal hand built from random sets + a pair (at most four copies of a tile)."""
    use_honours = draw(honours)
    n_sets = draw(sets_count)
    kinds = TILE_KINDS(use_honours)
    counts = Counter()
    tiles = []
    built = []
    while len(built) < n_sets:
        start = draw(st.sampled_from(kinds))
        chow = draw(st.booleans()) and not start.is_honour and start.number <= 7
        group = [TILES[start.index + i] for i in range(3)] if chow else [start] * 3
        if any(counts[t] + group.count(t) > 4 for t in group):
            continue
        counts.update(group)
        tiles += group
        built.append(("chow" if chow else "pung", start))
    pair = draw(st.sampled_from([k for k in kinds if counts[k] <= 2]))
    tiles += [pair, pair]
    return tiles, n_sets, use_honours


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(winning_hands(), st.randoms())
def test_random_winning_hand_is_recognised(hand, rnd):
    tiles, n_sets, _honours = hand
    ds = decompositions(tiles, n_sets)
    assert ds, format_tiles(tiles, sort=True)
    assert is_winning(tiles, n_sets)
    for d in ds:
        assert d.tiles() == sorted(tiles)
        assert len(d.sets) == n_sets
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert decompositions(shuffled, n_sets) == ds
    # Without one tile the hand is waiting on (at least) that tile.
    removed = shuffled.pop()
    assert removed in waits(shuffled, n_sets, seven_pairs=False, honours=True)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(winning_hands(honours=st.just(False), sets_count=st.just(4)), st.data())
def test_fifth_copy_or_wrong_count_is_rejected(hand, data):
    tiles, n_sets, _ = hand
    c = Collector()
    check_counts(c, tiles, [], expected_sets=n_sets)
    assert not c
    # One tile too many or too few: a count violation naming the concealed field.
    extra = data.draw(st.sampled_from(NUMBERED))
    c = Collector()
    check_counts(c, tiles + [extra], [], expected_sets=n_sets, field_prefix="x.")
    assert any(v.field == "x.concealed" and "tiles" in v.message for v in c.violations)
    c = Collector()
    check_counts(c, tiles[1:], [], expected_sets=n_sets)
    assert c
    # A fifth copy (swap a tile for a copy of one already held four times).
    counts = Counter(tiles)
    full = [t for t, n in counts.items() if n == 4]
    if full:
        other = next(i for i, t in enumerate(tiles) if t != full[0])
        bad = list(tiles)
        bad[other] = full[0]
        c = Collector()
        check_counts(c, bad, [], expected_sets=n_sets)
        assert any("5 copies" in v.message for v in c.violations)


# ---------------------------------------------------------------- against the definition

def _splits(counts: list[int], sets: int, pair_left: bool) -> bool:
    """The definition, searched naively: the counts are ``sets`` pungs or chows (numbered suits
    only) plus one pair (if ``pair_left``), taking the lowest tile first."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return sets == 0 and not pair_left
    if pair_left and counts[i] >= 2:
        counts[i] -= 2
        found = _splits(counts, sets, False)
        counts[i] += 2
        if found:
            return True
    if sets and counts[i] >= 3:
        counts[i] -= 3
        found = _splits(counts, sets - 1, pair_left)
        counts[i] += 3
        if found:
            return True
    if sets and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        found = _splits(counts, sets - 1, pair_left)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return found
    return False


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(winning_hands(), st.data())
def test_winning_check_and_waits_agree_with_the_definition(hand, data):
    # The fast checks (one pass per suit, memoised per suit shape) against a naive search of the
    # definition "sets_needed sets plus a pair", on winning hands and on hands one tile off.
    tiles, n_sets, honours = hand
    kinds = TILE_KINDS(honours)
    if data.draw(st.booleans()):
        tiles = list(tiles)
        tiles[data.draw(st.integers(0, len(tiles) - 1))] = data.draw(st.sampled_from(kinds))
    counts = [0] * 34
    for tile in tiles:
        counts[tile.index] += 1
    assert is_winning(tiles, n_sets) == _splits(list(counts), n_sets, True)
    assert bool(decompositions(tiles, n_sets)) == _splits(list(counts), n_sets, True)
    before = tiles[:-1]
    expected = []
    for tile in kinds:
        trial = [0] * 34
        for t in before + [tile]:
            trial[t.index] += 1
        if _splits(trial, n_sets, True):
            expected.append(tile)
    assert waits(before, n_sets, seven_pairs=False, honours=honours, include_exhausted=True) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TILE_KINDS(True)), min_size=14, max_size=17), st.sampled_from([4, 5]))
def test_random_tiles_agree_with_the_definition(tiles, n_sets):
    counts = [0] * 34
    for tile in tiles:
        counts[tile.index] += 1
    assert is_winning(tiles, n_sets) == (len(tiles) == 3 * n_sets + 2 and _splits(counts, n_sets, True))
