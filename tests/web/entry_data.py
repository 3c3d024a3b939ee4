"""POST data of each game's entry form (what a referee types off the score sheet), shared by the
result page tests. Values and the worked examples they come from are named next to each one
(the rule texts, docs/engines/, the acceptance cases in ``tests/cases/``).

The Tai Pan hand form posts unprefixed fields; the four-player forms post ``deal-`` fields."""
from __future__ import annotations

#: Players seated 0..3 (East, South, West, North) at a four-player table, or of two Tai Pan teams.
NAMES = ["Anna", "Bart", "Cees", "Dirk"]


# --------------------------------------------------------------------------- Tai Pan


def hand_data(version, *, calls=None, first_out="", dv="", ns="", ew="", **extra) -> dict:
    """One Tai Pan hand as the entry form posts it (``version``: ``None`` leaves it out)."""
    data = {"version": version, "call_n": "", "call_e": "", "call_s": "", "call_w": "",
            "first_out": first_out, "double_victory": dv, "card_points_ns": ns, "card_points_ew": ew}
    if version is None:
        del data["version"]
    for seat, call in (calls or {}).items():
        data[f"call_{seat.lower()}"] = call
    data.update(extra)
    return data


# --------------------------------------------------------------------------- Taiwanese


def tw_post(winner, *, how="discard", source="", concealed="", melds="", tile="", flowers="", version=None, flags=()) -> dict:
    """One Taiwanese deal (``winner``: a seat, or ``"draw"``)."""
    data = {
        "deal-winner": winner,
        "deal-how": how,
        "deal-source": source,
        "deal-concealed": concealed,
        "deal-melds": melds,
        "deal-win_tile": tile,
        "deal-flowers": flowers,
    }
    if flags:
        data["deal-flags"] = list(flags)
    if version is not None:
        data["version"] = str(version)
    return data


#: T01 (seed004 worked example): S self-draws an open half flush with a dragon pung: 4 + 1 + 1 = 6
#: tai; each pays 3 + 2 x 6 = 15, the dealer E also the dealer tai 1: 3 + 2 x 7 = 17; S +47.
T01 = dict(how="self", concealed="123p 456p 789p 222p 99p", melds="pung 555z claimed", tile="6p")
T01_NET = [-17, 47, -15, -15]
#: T04 hand (pinghu 2 tai), won on W's discard.
T04 = dict(how="discard", source="W", concealed="123m 456p 234s 678s 11p", melds="chow 789m claimed", tile="4p")


# --------------------------------------------------------------------------- Sichuan


def sc_rows(rows, *, exhausted=False, ex=None) -> dict:
    """A Sichuan deal: event ``rows`` (see :func:`win_row`) and the wall exhaustion."""
    data = {"deal-ev-TOTAL_FORMS": str(max(6, len(rows))), "deal-ev-INITIAL_FORMS": "0", "deal-ev-MIN_NUM_FORMS": "0",
            "deal-ev-MAX_NUM_FORMS": "20"}
    for i, row in enumerate(rows):
        for k, v in row.items():
            data[f"deal-ev-{i}-{k}"] = v
    if exhausted:
        data["deal-ex-exhausted"] = "on"
    for k, v in (ex or {}).items():
        data[f"deal-ex-{k}"] = v
    return data


def win_row(player, concealed, tile, *, void="s", how="self", source="", melds="") -> dict:
    """A Sichuan win event row."""
    return {"type": "win", "player": player, "void": void, "concealed": concealed, "win_tile": tile, "how": how,
            "source": source, "melds": melds}


#: S02: E self-draws, 1 fan (base 1 + 1 for the self-draw = 2 from each of three opponents): E +6.
S02 = [win_row("E", "123m 456m 789p 234p 55p", "5p")]
S02_NET = [6, -2, -2, -2]


# --------------------------------------------------------------------------- Tien Gow


def tg_settle(cols, winner, group="ordinary", *, immediate=(), leader="", led_with="", won_with="") -> dict:
    """A Tien Gow deal settled from the columns won and the last trick."""
    data = {"deal-mode": "settle", "deal-last_winner": str(winner), "deal-last_group": group,
            "deal-last_leader": str(leader), "deal-led_with": led_with, "deal-won_with": won_with}
    for i, c in enumerate(cols):
        data[f"deal-columns_{i}"] = "" if c is None else str(c)
    for k, (w, g) in enumerate(immediate):
        data[f"deal-imm_winner_{k}"] = str(w)
        data[f"deal-imm_group_{k}"] = g
    return data


#: S-01: banker seat 1 (index 0); columns 2/3/3/0, seat 2 (index 1) wins the last trick: index 0
#: (banker) pays (4-2) x 2 = 4, index 2 pays 1, index 3 (no column) pays 5 -> +10.
S01_COLUMNS = [2, 3, 3, 0]
S01_NET = [-4, 10, -1, -5]
