"""The tai table of Taiwanese 16-tile mahjong, over one decomposition of a winning hand.

Source: the Taiwanese rule text ("De tai-tabel", "Bloemen in Taiwanees mahjong") with the decisions
of docs/engines/taiwanese.md; every open choice is an option of :mod:`engines.taiwanese.options`.

Item names (the keys of ``tai_items``), in table order:

===========================  ======  ==========================================================
name                          tai     pattern
===========================  ======  ==========================================================
``concealed``                 1       門清 nothing claimed, win on a discard (or robbed kong)
``single_wait``               1       獨聽 exactly one formal wait before the win
``round_wind``                1       圈風牌 pung/kong of the round wind
``seat_wind``                 1       門風牌 pung/kong of the own seat wind
``own_flower``                1 each  正花 flower or season with the number of the seat wind
``dragon_pung``               1 each  三元牌 pung/kong of a dragon
``self_drawn``                1       自摸 winning tile from the wall
``last_discard``              1       河底撈魚 win on the last discard
``last_wall_tile``            1       海底撈月 self-draw of the last wall tile
``win_after_kong``            1       槓上開花 win on the replacement tile after a kong
``robbing_kong``              1       搶槓 win on the tile another player adds to a kong
``all_claimed``               2       全求 every set claimed, win on a discard
``flower_kong``               2 each  花槓 all four flowers, or all four seasons
``ping_hu``                   2       平胡 five chows, no flowers, no honours, no self-draw/single wait
``three_concealed_pungs``     2       三暗刻
``bu_qiu``                    3       不求 concealed hand and self-drawn (3 in total)
``half_flush``                4       混一色 one suit plus honours
``all_pungs``                 4       碰碰胡 five pungs/kongs
``little_three_dragons``      4       小三元 two dragon pungs and a dragon pair
``four_concealed_pungs``      5       四暗刻
``full_flush``                8       清一色 one suit, no honours
``four_kongs``                8       四槓牌 four (or five) kongs
``five_concealed_pungs``      8       五暗刻
``big_three_dragons``         8       大三元 three dragon pungs
``little_four_winds``         8       小四喜 three wind pungs and a wind pair
``earthly_ready``             8       地聽 (flag)
``seven_rob_one``             8       七搶一 (``win.how``)
``eight_flowers``             8       八朵花 (``win.how``)
``all_honours``               16      字一色 (not in the Wikibooks table; option ``all_honours``)
``big_four_winds``            16      大四喜 four wind pungs
``heavenly_ready``            16      天聽 (flag)
``earthly_hand``              16      地胡 (flag)
``heavenly_hand``             32      天胡 (flag)
===========================  ======  ==========================================================

The dealer tai (莊家 1 + 連莊拉莊 2N) are not hand tai; see :mod:`engines.taiwanese.scoring`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Tai of each fixed-value pattern (rule text tai table).
TAI: dict[str, int] = {
    "concealed": 1,
    "single_wait": 1,
    "round_wind": 1,
    "seat_wind": 1,
    "own_flower": 1,
    "dragon_pung": 1,
    "self_drawn": 1,
    "last_discard": 1,
    "last_wall_tile": 1,
    "win_after_kong": 1,
    "robbing_kong": 1,
    "all_claimed": 2,
    "flower_kong": 2,
    "ping_hu": 2,
    "three_concealed_pungs": 2,
    "bu_qiu": 3,
    "half_flush": 4,
    "all_pungs": 4,
    "little_three_dragons": 4,
    "four_concealed_pungs": 5,
    "full_flush": 8,
    "four_kongs": 8,
    "five_concealed_pungs": 8,
    "big_three_dragons": 8,
    "little_four_winds": 8,
    "earthly_ready": 8,
    "seven_rob_one": 8,
    "eight_flowers": 8,
    "all_honours": 16,
    "big_four_winds": 16,
    "heavenly_ready": 16,
    "earthly_hand": 16,
    "heavenly_hand": 32,
}

#: Situations given in the input's ``flags`` (docs/engines/taiwanese.md), with their tai.
FLAGS: dict[str, int] = {
    "heavenly_hand": 32,  # 天胡 the dealer wins on the dealt hand
    "earthly_hand": 16,  # 地胡 a non-dealer wins on the first tile
    "heavenly_ready": 16,  # 天聽 ready from the start
    "earthly_ready": 8,  # 地聽 ready after the first discard
}

#: Flags that are a whole winning situation (they absorb the way-of-winning items).
HAND_FLAGS = ("heavenly_hand", "earthly_hand")

#: Items describing the way of winning, absorbed by 天胡/地胡 (option ``flag_hands_absorb_win_items``).
WIN_ITEMS = ("concealed", "bu_qiu", "self_drawn", "single_wait")

WIND_NUMBERS = (1, 2, 3, 4)  # 1z..4z East South West North
DRAGON_NUMBERS = (5, 6, 7)  # 5z..7z White Green Red

FLOWER_NAMES = tuple(f"fl{n}" for n in range(1, 5)) + tuple(f"se{n}" for n in range(1, 5))


@dataclass(frozen=True)
class ScoredSet:
    """One set of a decomposition as the tai table sees it.

    ``kind``: ``"chow"``, ``"pung"`` or ``"kong"``; ``suit``: ``"m"``, ``"p"``, ``"s"`` or ``"z"``;
    ``number``: the tile number (the lowest for a chow); ``open``: the set was claimed from another
    player (a claimed/exposed/added meld); ``concealed_pung``: a pung or kong that counts as
    concealed (暗刻: formed from the wall, not completed by another player's tile).
    """

    kind: str
    suit: str
    number: int
    open: bool
    concealed_pung: bool

    @property
    def is_pung(self) -> bool:
        """Pung or kong."""
        return self.kind in ("pung", "kong")

    @property
    def honour(self) -> bool:
        """A set of honours."""
        return self.suit == "z"


@dataclass(frozen=True)
class WinContext:
    """What the tai table needs besides the sets.

    ``how``: ``"discard"``, ``"self"`` or ``"rob_added_kong"``; ``seat_wind``/``round_wind``: 1..4
    (E, S, W, N); ``flowers``: names ``fl1``..``se4``; ``waits``: number of formal waits before the
    win; ``shape_single``: the winning tile completes an edge, closed or pair wait in this
    decomposition; ``flags``: the input's flags.
    """

    how: str
    seat_wind: int
    round_wind: int
    flowers: tuple[str, ...]
    waits: int
    shape_single: bool
    after_kong: bool = False
    last_wall_tile: bool = False
    last_discard: bool = False
    flags: tuple[str, ...] = ()


def flower_items(flowers: tuple[str, ...], seat_wind: int, options: dict[str, Any]) -> dict[str, int]:
    """正花 own flowers (1 each) and 花槓 flower kongs (2 per complete group of four).

    With ``flower_kong_adds_own_flower`` off, an own flower inside a flower kong is not counted again.
    """
    items: dict[str, int] = {}
    groups = {prefix: {f for f in flowers if f.startswith(prefix)} for prefix in ("fl", "se")}
    own = 0
    kongs = 0
    for prefix, group in groups.items():
        complete = len(group) == 4
        if complete:
            kongs += 1
        if f"{prefix}{seat_wind}" in group and (not complete or options["flower_kong_adds_own_flower"]):
            own += 1
    if own:
        items["own_flower"] = own * TAI["own_flower"]
    if kongs:
        items["flower_kong"] = kongs * TAI["flower_kong"]
    return items


def flag_items(flags: tuple[str, ...]) -> dict[str, int]:
    """The tai of the input's flags (天聽 地聽 天胡 地胡)."""
    return {flag: FLAGS[flag] for flag in FLAGS if flag in flags}


def hand_items(sets: list[ScoredSet], pair: tuple[str, int], ctx: WinContext, options: dict[str, Any]) -> dict[str, int]:
    """Every tai item of one decomposition (five sets, melds included, and the pair ``(suit, number)``).

    Returns ``{item name: tai}`` in table order; the flowers and flags are included.
    Source: the Taiwanese rule text tai table; docs/engines/taiwanese.md decisions (see module docstring).
    """
    found: dict[str, int] = {}
    absorb = options["big_patterns_absorb"]
    closed_hand = not any(s.open for s in sets)
    discard_win = ctx.how in ("discard", "rob_added_kong")
    self_win = ctx.how == "self"

    formal_single = ctx.waits == 1
    single = ctx.shape_single if options["single_wait"] == "shape" else formal_single

    # 全求 all claimed: every set claimed, win on another player's tile.
    all_claimed = all(s.open for s in sets) and (discard_win or options["all_claimed_on_self_draw"])

    if closed_hand and (discard_win or (self_win and options["concealed_on_self_draw"])):
        found["concealed"] = TAI["concealed"]
    if single and (not all_claimed or options["all_claimed_adds_single_wait"]):
        found["single_wait"] = TAI["single_wait"]

    wind_pungs = [s for s in sets if s.is_pung and s.honour and s.number in WIND_NUMBERS]
    dragon_pungs = [s for s in sets if s.is_pung and s.honour and s.number in DRAGON_NUMBERS]
    pair_is_wind = pair[0] == "z" and pair[1] in WIND_NUMBERS
    pair_is_dragon = pair[0] == "z" and pair[1] in DRAGON_NUMBERS
    big_winds = len(wind_pungs) == 4
    little_winds = len(wind_pungs) == 3 and pair_is_wind
    big_dragons = len(dragon_pungs) == 3
    little_dragons = len(dragon_pungs) == 2 and pair_is_dragon
    winds_absorbed = absorb and (big_winds or little_winds)
    dragons_absorbed = absorb and (big_dragons or little_dragons)

    if not winds_absorbed:
        if any(s.number == ctx.round_wind for s in wind_pungs):
            found["round_wind"] = TAI["round_wind"]
        if any(s.number == ctx.seat_wind for s in wind_pungs):
            found["seat_wind"] = TAI["seat_wind"]
    found.update(flower_items(ctx.flowers, ctx.seat_wind, options))
    if dragon_pungs and not dragons_absorbed:
        found["dragon_pung"] = TAI["dragon_pung"] * len(dragon_pungs)

    bu_qiu = closed_hand and self_win
    if self_win and (not bu_qiu or options["bu_qiu_adds_self_drawn"]):
        found["self_drawn"] = TAI["self_drawn"]
    if ctx.last_discard:
        found["last_discard"] = TAI["last_discard"]
    if ctx.last_wall_tile:
        found["last_wall_tile"] = TAI["last_wall_tile"]
    if ctx.after_kong:
        found["win_after_kong"] = TAI["win_after_kong"]
    if ctx.how == "rob_added_kong":
        found["robbing_kong"] = TAI["robbing_kong"]
    if all_claimed:
        found["all_claimed"] = TAI["all_claimed"]

    # flower_kong was added with the flowers above (table order keeps it next to own_flower).
    has_honours = pair[0] == "z" or any(s.honour for s in sets)
    if (
        all(s.kind == "chow" for s in sets)
        and not has_honours
        and (not ctx.flowers or options["ping_hu_allows_flowers"])
        and (not self_win or options["ping_hu_allows_self_draw"])
        and (not single or options["ping_hu_allows_single_wait"])
    ):
        found["ping_hu"] = TAI["ping_hu"]

    concealed_pungs = sum(1 for s in sets if s.is_pung and s.concealed_pung)
    if concealed_pungs == 3:
        found["three_concealed_pungs"] = TAI["three_concealed_pungs"]
    if bu_qiu:
        found["bu_qiu"] = TAI["bu_qiu"]

    suits = {s.suit for s in sets} | {pair[0]}
    plain_suits = suits - {"z"}
    if len(plain_suits) == 1 and "z" in suits:
        found["half_flush"] = TAI["half_flush"]
    if all(s.is_pung for s in sets):
        found["all_pungs"] = TAI["all_pungs"]
    if little_dragons:
        found["little_three_dragons"] = TAI["little_three_dragons"]
    if concealed_pungs == 4:
        found["four_concealed_pungs"] = TAI["four_concealed_pungs"]
    if len(plain_suits) == 1 and "z" not in suits:
        found["full_flush"] = TAI["full_flush"]
    if sum(1 for s in sets if s.kind == "kong") >= 4:
        found["four_kongs"] = TAI["four_kongs"]
    if concealed_pungs >= 5:
        found["five_concealed_pungs"] = TAI["five_concealed_pungs"]
    if big_dragons:
        found["big_three_dragons"] = TAI["big_three_dragons"]
    if little_winds:
        found["little_four_winds"] = TAI["little_four_winds"]
    if not plain_suits and options["all_honours"]:
        found["all_honours"] = options["all_honours"]
    if big_winds:
        found["big_four_winds"] = TAI["big_four_winds"]

    found.update(flag_items(ctx.flags))
    if options["flag_hands_absorb_win_items"] and any(f in ctx.flags for f in HAND_FLAGS):
        for name in WIN_ITEMS:
            found.pop(name, None)
    return _in_table_order(found)


def flower_win_items(how: str, flowers: tuple[str, ...], seat_wind: int, flags: tuple[str, ...], options: dict[str, Any]) -> dict[str, int]:
    """Tai items of a flower win (``how`` = ``"seven_rob_one"`` 七搶一 or ``"eight_flowers"`` 八朵花).

    8 tai; the flower tai are absorbed unless ``flower_wins_absorb_flowers`` is off; no self-drawn
    tai for eight flowers (it only pays as a self-draw). Ready flags still count.
    """
    found: dict[str, int] = {how: TAI[how]}
    if not options["flower_wins_absorb_flowers"]:
        found.update(flower_items(flowers, seat_wind, options))
    found.update(flag_items(flags))
    return _in_table_order(found)


def _in_table_order(found: dict[str, int]) -> dict[str, int]:
    order = list(TAI)
    return {name: found[name] for name in sorted(found, key=lambda n: order.index(n) if n in order else len(order))}
