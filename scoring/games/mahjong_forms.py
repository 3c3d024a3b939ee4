"""Shared pieces of the mahjong entry forms (Sichuan and Taiwanese): seats, seat choices, melds
typed as text, and the tile picker's tiles (MPSZ notation, docs/engines/sichuan.md and taiwanese.md)."""
from __future__ import annotations

import re

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

SEATS = ("E", "S", "W", "N")
SEAT_NAMES = {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}


def seat_short(seat) -> str:
    """A seat as one letter in the active language (``"E"`` -> ``"O"`` in Dutch), for the narrow
    columns of the printed score sheet; an unknown value as it is."""
    return str(SEAT_NAMES[seat])[:1] if seat in SEAT_NAMES else str(seat or "")


def seat_choices(seats: list[str] | None, names: dict[str, str] | None, blank: str | None = "---") -> list[tuple[str, str]]:
    """Choices for a seat select: ``[("E", "East - Anna"), ...]``."""
    names = names or {}
    out = [("", blank)] if blank is not None else []
    for s in seats or SEATS:
        label = f"{SEAT_NAMES[s]} - {names[s]}" if s in names else str(SEAT_NAMES[s])
        out.append((s, label))
    return out


def seat_toggles(names: dict[str, str] | None, blank: str | None = None) -> list[tuple[str, str]]:
    """Choices for a seat shown as toggle buttons: the seat in bold, the player's name small
    under it (``[("E", "<b>East</b><small>Anna</small>"), ...]``, names escaped); ``blank``: a
    first choice with an empty value (e.g. "nobody")."""
    names = names or {}
    out = [("", blank)] if blank is not None else []
    for s in SEATS:
        out.append((s, format_html("<b>{}</b><small>{}</small>", SEAT_NAMES[s], names.get(s, ""))))
    return out


def split_melds(text: str) -> list[str]:
    """Melds typed one per line or separated by commas/semicolons: ``"pung 111m claimed, kong 5555p exposed"``."""
    return [m.strip() for m in re.split(r"[,;\n]+", text or "") if m.strip()]


MPSZ_SUITS = [("m", [f"{n}m" for n in range(1, 10)]), ("p", [f"{n}p" for n in range(1, 10)]), ("s", [f"{n}s" for n in range(1, 10)])]
HONOURS = [f"{n}z" for n in range(1, 8)]
FLOWERS = [f"fl{n}" for n in range(1, 5)] + [f"se{n}" for n in range(1, 5)]

#: Names of the honour tiles (MPSZ codes: 1z-4z winds East..North, 5z-7z dragons White, Green,
#: Red as in ``engines.taiwanese.patterns.DRAGON_NUMBERS``), shown as the tile buttons' title.
HONOUR_NAMES = {
    "1z": _("East wind"),
    "2z": _("South wind"),
    "3z": _("West wind"),
    "4z": _("North wind"),
    "5z": _("White dragon"),
    "6z": _("Green dragon"),
    "7z": _("Red dragon"),
}


def tile_title(code: str) -> str:
    """The name of an MPSZ tile button in the active language: suited tiles "3 dots (p)",
    honours "East wind" .. "Red dragon", flowers "flower 1".."flower 4", seasons "season 1"..
    "season 4" (the Taiwanese rule text: flowers and seasons numbered 1-4)."""
    if code in HONOUR_NAMES:
        return str(HONOUR_NAMES[code])
    if code.startswith("fl"):
        return _g("flower {n}").format(n=code[2:])
    if code.startswith("se"):
        return _g("season {n}").format(n=code[2:])
    suits = {"m": _g("characters (m)"), "p": _g("dots (p)"), "s": _g("bamboo (s)")}
    if len(code) == 2 and code[1] in suits:
        return f"{code[0]} {suits[code[1]]}"
    return code


def tile_picker(*, honours: bool = False, flowers: bool = False) -> dict:
    """Context of the tile picker template: suits (and honours, flowers) as ``(code, title)``."""
    return {
        "mpsz_suits": [(suit, [(t, tile_title(t)) for t in tiles]) for suit, tiles in MPSZ_SUITS],
        "honours": [(t, tile_title(t)) for t in HONOURS] if honours else [],
        "flowers": [(t, tile_title(t)) for t in FLOWERS] if flowers else [],
    }


SUIT_NAMES = {"m": _("characters"), "p": _("dots"), "s": _("bamboo"), "z": _("honours")}


def tile_sets(suits: str) -> list[dict]:
    """The tile picker's buttons per suit (``suits``: e.g. ``"mps"``): single tiles, chows, pungs,
    kongs and pairs as MPSZ groups (``"123"`` + suit), so a whole set is one tap. Honours (``z``)
    have no chows. ``[{"suit", "name", "rows": [(kind label, [(group, title, tile code of a
    single tile or "")])]}]``; a single tile's title is its name (:func:`tile_title`)."""
    out = []
    for suit in suits:
        top = 7 if suit == "z" else 9
        singles = [(str(n), tile_title(f"{n}{suit}"), f"{n}{suit}") for n in range(1, top + 1)]
        rows = [(_g("tile"), singles)]
        if suit != "z":
            rows.append((_g("chow"), [(f"{n}{n + 1}{n + 2}", f"{_g('chow')} {n}{n + 1}{n + 2}{suit}", "") for n in range(1, 8)]))
        rows.append((_g("pung"), [(str(n) * 3, f"{_g('pung')} {n}{n}{n}{suit}", "") for n in range(1, top + 1)]))
        rows.append((_g("pair"), [(str(n) * 2, f"{_g('pair')} {n}{n}{suit}", "") for n in range(1, top + 1)]))
        rows.append((_g("kong"), [(str(n) * 4, f"{_g('kong')} {n}{n}{n}{n}{suit}", "") for n in range(1, top + 1)]))
        out.append({"suit": suit, "name": str(SUIT_NAMES[suit]), "rows": rows})
    return out


#: An MPSZ group in a line of text ("5p", "123m"; not inside a word or a number).
TILE_TOKEN = re.compile(r"(?<![\w/])([1-9]+)([mpsz])(?!\w)")
#: What a tile face shows for an honour (as static/js/tiles.js does): the wind's letter, a sign
#: for a dragon, and its colour class.
HONOUR_FACES = {"1z": ("E", ""), "2z": ("S", ""), "3z": ("W", ""), "4z": ("N", ""),
                "5z": ("\u25a2", "white"), "6z": ("\u25c6", "green"), "7z": ("\u25c6", "red")}


def tiles_of(text: str) -> list[str]:
    """The single tiles of MPSZ text: ``"123m 55p"`` -> ``["1m", "2m", "3m", "5p", "5p"]``."""
    return [f"{d}{suit}" for digits, suit in TILE_TOKEN.findall(text or "") for d in digits]


def tile_row(tiles: list[str]) -> SafeString:
    """A row of small tile faces (``<span class="tile-row-view">``, static/css/entry.css), each
    with its name for screen readers (:func:`tile_title`); no images."""
    faces = []
    for tile in tiles:
        top, mark, kind = tile[0], tile[1], tile[1]
        if tile in HONOUR_FACES:
            top, colour = HONOUR_FACES[tile]
            mark, kind = "", f"z {colour}".strip()
        faces.append((kind, tile_title(tile), top, mark))
    inner = format_html_join("", '<span class="tf {}" role="img" aria-label="{}"><span class="tf-n">{}</span><span class="tf-s" aria-hidden="true">{}</span></span>', faces)
    return format_html('<span class="tile-row-view">{}</span>', inner)


def with_tile_faces(text: str) -> SafeString:
    """``text`` escaped, each MPSZ group in it shown as a row of tile faces (:func:`tile_row`)."""
    out, last = [], 0
    for m in TILE_TOKEN.finditer(text or ""):
        out += [escape(text[last:m.start()]), tile_row(tiles_of(m.group(0)))]
        last = m.end()
    out.append(escape((text or "")[last:]))
    return mark_safe("".join(str(x) for x in out))
