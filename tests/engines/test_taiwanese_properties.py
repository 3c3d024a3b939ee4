"""Property tests (hypothesis) of the Taiwanese 16-tile ``score`` command.

Random winning hands are built from random sets (chows, pungs, kongs; some declared as melds) plus a
pair, never using a fifth copy of a tile. Checked: every such hand is scored; the winning tile is a
formal wait; shuffling tiles, melds and flowers changes nothing; each payment is
``base + per_tai * (tai + dealer tai when the dealer is the payer or the winner)`` with the cap on
hand tai (the Taiwanese rule text "Betalen: basis plus tai", docs/engines/taiwanese.md); the payments balance;
a fifth copy or a wrong tile count is rejected.
"""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import run
from engines.errors import RuleViolation
from engines.mahjong.tiles import TILES, format_tiles

SEATS = ["E", "S", "W", "N"]
FLOWERS = ["fl1", "fl2", "fl3", "fl4", "se1", "se2", "se3", "se4"]
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def winning_hands(draw):
    """A valid ``score`` input: five random sets and a pair, some sets declared as melds."""
    counts = [0] * 34
    sets = []  # (kind, first tile index)
    for _ in range(5):
        options = []
        for i in range(34):
            if counts[i] <= 1:
                options.append(("pung", i))
            if counts[i] == 0:
                options.append(("kong", i))
            if i < 27 and i % 9 <= 6 and all(counts[i + k] <= 3 for k in range(3)):
                options.append(("chow", i))
        kind, i = draw(st.sampled_from(options))
        if kind == "chow":
            for k in range(3):
                counts[i + k] += 1
        else:
            counts[i] += 3 if kind == "pung" else 4
        sets.append((kind, i))
    pair = draw(st.sampled_from([i for i in range(34) if counts[i] <= 2]))
    counts[pair] += 2

    melds, concealed = [], [TILES[pair]] * 2
    for kind, i in sets:
        tiles = [TILES[i + k] for k in range(3)] if kind == "chow" else [TILES[i]] * (3 if kind == "pung" else 4)
        if kind == "kong":
            exposure = draw(st.sampled_from(["exposed", "concealed", "added"]))
            melds.append(f"kong {format_tiles(tiles)} {exposure}")
        elif draw(st.booleans()):
            melds.append(f"{kind} {format_tiles(tiles)} claimed")
        else:
            concealed += tiles
    # A hand needs a concealed part holding the winning tile: the pair is always concealed.
    win_tile = draw(st.sampled_from(sorted(set(concealed))))
    seat = draw(st.sampled_from(SEATS))
    others = [s for s in SEATS if s != seat]
    how = draw(st.sampled_from(["discard", "self", "rob_added_kong"] if counts[win_tile.index] == 1 else ["discard", "self"]))
    win = {"tile": str(win_tile), "how": how}
    if how == "discard":
        win["discarder"] = draw(st.sampled_from(others))
        win["last_discard"] = draw(st.booleans())
    elif how == "rob_added_kong":
        win["robbed"] = draw(st.sampled_from(others))
    else:
        win["last_wall_tile"] = draw(st.booleans())
        if any(m.startswith("kong") for m in melds):
            win["after_kong"] = draw(st.booleans())
    flowers = draw(st.lists(st.sampled_from(FLOWERS), unique=True, max_size=7))
    return {
        "round_wind": draw(st.sampled_from(SEATS)),
        "dealer": draw(st.sampled_from(SEATS)),
        "streak": draw(st.integers(0, 6)),
        "seat": seat,
        "flowers": flowers,
        "melds": melds,
        "concealed": " ".join(str(t) for t in concealed),
        "win": win,
        "flags": [],
    }


rules_strategy = st.fixed_dictionaries({
    "base": st.integers(0, 10),
    "per_tai": st.integers(0, 5),
    "cap": st.none() | st.integers(0, 40),
})

COMPARED = ("tai_items", "tai_raw", "tai", "dealer_tai", "pay", "winner_total", "waits", "payments", "net", "seat_wind")


@PROPS
@given(hand=winning_hands(), seed=st.integers(0, 2**32 - 1))
def test_random_winning_hand_is_scored_and_order_free(hand, seed):
    out = run("taiwanese", "score", hand)
    assert out["tai_raw"] == sum(out["tai_items"].values()) == out["tai"]
    assert all(v > 0 for v in out["tai_items"].values())
    assert hand["win"]["tile"] in out["waits"]
    # The scored reading re-assembles exactly the hand's tiles.
    shuffled = dict(hand)
    rnd = random.Random(seed)
    tiles = hand["concealed"].split()
    rnd.shuffle(tiles)
    shuffled["concealed"] = "".join(tiles) if rnd.random() < 0.5 else " ".join(tiles)
    shuffled["melds"] = rnd.sample(hand["melds"], len(hand["melds"]))
    shuffled["flowers"] = rnd.sample(hand["flowers"], len(hand["flowers"]))
    again = run("taiwanese", "score", shuffled)
    for key in COMPARED:
        assert again[key] == out[key], key
    assert sorted(again["decomposition"]["sets"]) == sorted(out["decomposition"]["sets"])


@PROPS
@given(hand=winning_hands(), rules=rules_strategy)
def test_payments_follow_the_formula(hand, rules):
    out = run("taiwanese", "score", {**hand, "rules": rules})
    raw = sum(out["tai_items"].values())
    tai = raw if rules["cap"] is None else min(raw, rules["cap"])
    assert out["tai"] == tai
    seat, dealer = hand["seat"], hand["dealer"]
    dealer_tai = 1 + 2 * hand["streak"]
    how = hand["win"]["how"]
    if how == "discard":
        payers = [hand["win"]["discarder"]]
    elif how == "rob_added_kong":
        payers = [hand["win"]["robbed"]]
    else:
        payers = [s for s in SEATS if s != seat]
    assert sorted(out["pay"]) == sorted(payers)
    for payer in payers:
        extra = dealer_tai if dealer in (payer, seat) else 0
        assert out["pay"][payer] == rules["base"] + rules["per_tai"] * (tai + extra)
    assert out["winner_total"] == sum(out["pay"].values())
    assert sum(out["net"].values()) == 0
    assert out["net"][seat] == out["winner_total"]


def _tiles(hand):
    return hand["concealed"].split()


@PROPS
@given(hand=winning_hands())
def test_fifth_copy_is_rejected(hand):
    # Turn other concealed tiles into copies of the winning tile until five copies exist, or, with
    # too few concealed tiles, declare a kong of the winning tile in place of the first meld.
    win = hand["win"]["tile"]
    tiles = _tiles(hand)
    held = tiles.count(win) + sum(m.count(win[0]) for m in hand["melds"] if m.split()[1].endswith(win[1]))
    others = [i for i, t in enumerate(tiles) if t != win]
    changed = dict(hand)
    if len(others) >= 5 - held:
        for i in others[: max(0, 5 - held)]:
            tiles[i] = win
        changed["concealed"] = " ".join(tiles)
    else:
        changed["melds"] = [f"kong {win[0] * 4}{win[1]} exposed"] + hand["melds"][1:]
    try:
        run("taiwanese", "score", changed)
    except RuleViolation as exc:
        assert any("copies" in m for m in exc.by_field().get("concealed", [])), exc.by_field()
    else:
        raise AssertionError(f"a fifth copy was accepted: {changed}")


@PROPS
@given(hand=winning_hands(), add=st.booleans(), extra=st.sampled_from([str(t) for t in TILES]))
def test_wrong_count_is_rejected(hand, add, extra):
    tiles = _tiles(hand)
    if add:
        tiles.append(extra)
    else:
        tiles.remove(next(t for t in tiles if t != hand["win"]["tile"]) if len(set(tiles)) > 1 else tiles[0])
    try:
        run("taiwanese", "score", {**hand, "concealed": " ".join(tiles)})
    except RuleViolation as exc:
        messages = exc.by_field().get("concealed", [])
        assert any("must have" in m for m in messages), exc.by_field()
    else:
        raise AssertionError("a wrong tile count was accepted")
