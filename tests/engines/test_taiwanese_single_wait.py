"""Taiwanese single wait 獨聽 (docs/engines/taiwanese.md: "Single wait = exactly one formal wait before the
win"; the Taiwanese rule text tai table: 獨聽 1 tai).

A formal wait is a tile kind that completes the hand before the win into five sets and a pair. It
counts even when all four copies of that tile are the player's own (in the concealed tiles or a
meld): there is no fifth copy to win on, but the hand still waits on it formally, so the other
wait is not a single wait. Every expected value below is worked out from the tai table: 門清
(concealed hand, discard win) 1, 獨聽 1, 不求 (concealed self-draw) 3; each payer pays
base 3 + 2 per tai; on a discard by West the dealer (East) is not involved, so no dealer tai.
"""
from hypothesis import given
from hypothesis import strategies as st

from engines import run
from engines.mahjong.hand import waits
from engines.mahjong.tiles import parse_tiles


def score(concealed, tile, how="discard", melds=()):
    data = {"round_wind": "E", "dealer": "E", "streak": 0, "seat": "S", "flowers": [], "melds": list(melds),
            "concealed": concealed, "win": {"tile": tile, "how": how, **({"discarder": "W"} if how == "discard" else {})},
            "flags": []}
    return run("taiwanese", "score", data)


def test_wait_on_a_tile_held_four_times_is_still_a_wait():
    # The example: before the win 1m 234m 4444m 678m 456p 789s waits on 1m (pair 11m, 234m,
    # 444m) and on 4m (123m, pung 444m, pair 44m), the fifth 4m not existing. Two formal waits: no
    # single wait. 11m 234m 444m is one reading only (a pung, so no 平胡). Only 門清 on the discard.
    out = score("11m 234m 444m 678m 456p 789s", "1m")
    assert out["waits"] == ["1m", "4m"]
    assert out["tai_items"] == {"concealed": 1}
    assert out["tai"] == 1
    assert out["pay"] == {"W": 3 + 2 * 1}


def test_same_hand_self_drawn_is_bu_qiu_without_single_wait():
    # 不求 is 3 in total (no extra 自摸); still two formal waits, so no 獨聽. Everyone pays
    # 3 + 2 * 3 = 9; the dealer East also pays the dealer tai 1 (N = 0): 3 + 2 * 4 = 11.
    out = score("11m 234m 444m 678m 456p 789s", "1m", how="self")
    assert out["tai_items"] == {"bu_qiu": 3}
    assert out["pay"] == {"W": 9, "N": 9, "E": 11}


def test_closed_wait_is_a_single_wait():
    # Before the win 13m 555m 678m 456p 789s 99s: the characters need 2m (123m 555m 678m) and no
    # other tile completes the hand (the 1m needs 2m and 3m in any reading; the pair 99s cannot move
    # into the characters). One formal wait: 獨聽 1 + 門清 1 = 2 tai; each pays 3 + 2 * 2 = 7.
    out = score("123m 555m 678m 456p 789s 99s", "2m")
    assert out["waits"] == ["2m"]
    assert out["tai_items"] == {"concealed": 1, "single_wait": 1}
    assert out["tai"] == 2
    assert out["pay"] == {"W": 7}


def test_wait_on_the_tile_of_an_own_concealed_kong_still_counts():
    # Concealed kong 9999p and, before the win, 78p 123m 456m 789m 55s: the 78p waits on 6p and on 9p
    # (all four 9p in the kong). Two formal waits, so winning on 6p is no single wait. A concealed kong
    # keeps the hand concealed: 門清 1 only (a kong, so no 平胡; three suits, no flush).
    out = score("678p 123m 456m 789m 55s", "6p", melds=["kong 9999p concealed"])
    assert out["waits"] == ["6p", "9p"]
    assert out["tai_items"] == {"concealed": 1}
    assert out["pay"] == {"W": 5}


def test_edge_wait_next_to_a_fully_held_tile_is_single():
    # Control: 12p waiting on 3p while all four 9p are held in a kong; 9p is no wait of 12p, so the
    # only formal wait is 3p: 獨聽 1 + 門清 1 = 2 tai.
    out = score("123p 123m 456m 789m 55s", "3p", melds=["kong 9999p concealed"])
    assert out["waits"] == ["3p"]
    assert out["tai_items"] == {"concealed": 1, "single_wait": 1}


def test_core_waits_can_include_or_leave_out_exhausted_tiles():
    before = parse_tiles("1m 234m 444m 678m 456p 789s", "t", honours=True)
    assert [str(t) for t in waits(before, 5, seven_pairs=False, honours=True)] == ["1m"]
    assert [str(t) for t in waits(before, 5, seven_pairs=False, honours=True, include_exhausted=True)] == ["1m", "4m"]


@given(st.integers(min_value=1, max_value=9), st.sampled_from("mps"))
def test_four_held_copies_wait_formally_on_a_fifth(number, suit):
    # Four copies of X plus four honour pungs (16 tiles): a fifth X would make pung XXX + pair XX, so
    # X is a formal wait although no fifth copy exists.
    x = parse_tiles(f"{number}{suit}", "t", honours=True)[0]
    tiles = [x] * 4 + parse_tiles("111z 222z 333z 555z", "t", honours=True)
    assert x in waits(tiles, 5, seven_pairs=False, honours=True, include_exhausted=True)
    assert x not in waits(tiles, 5, seven_pairs=False, honours=True)
