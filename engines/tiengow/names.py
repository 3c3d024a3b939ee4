"""Tile, family and group names for the UI: English (the translation source) and the Dutch names
of the rule text (the Tien Gow rule text: "Hemel, Aarde, Mens, Gans, Pruim, Dubbele Drie, Plank, Bijl,
Scheidingspartitie, Lange Poot Zeven, Grote Kop Zes"; military "negen, acht, zeven, Grote Zes, vijf,
Kleine Drie"; families "Hemel–negen, Aarde–acht, Man–zeven, Gans–vijf").

The web layer marks the English names translatable (``gettext_lazy``); the Dutch column is the
list the lead puts into the Dutch catalogue. Engines never translate themselves.
"""
from __future__ import annotations

from engines.tiengow.tiles import TILES

TILE_NAMES: dict[str, tuple[str, str]] = {
    # civil tiles, strongest first (two copies each)
    "6-6": ("Heaven", "Hemel"),
    "1-1": ("Earth", "Aarde"),
    "4-4": ("Man", "Mens"),
    "1-3": ("Goose", "Gans"),
    "5-5": ("Plum", "Pruim"),
    "3-3": ("Long Three", "Dubbele Drie"),
    "2-2": ("Bench", "Plank"),
    "5-6": ("Axe", "Bijl"),
    "4-6": ("Partition", "Scheidingspartitie"),
    "1-6": ("Long Leg Seven", "Lange Poot Zeven"),
    "1-5": ("Big Head Six", "Grote Kop Zes"),
    # military tiles, strongest first (one each; equal totals rank equal)
    "4-5": ("Nine", "Negen"),
    "3-6": ("Nine", "Negen"),
    "3-5": ("Eight", "Acht"),
    "2-6": ("Eight", "Acht"),
    "3-4": ("Seven", "Zeven"),
    "2-5": ("Seven", "Zeven"),
    "2-4": ("Big Six", "Grote Zes"),
    "1-4": ("Five", "Vijf"),
    "2-3": ("Five", "Vijf"),
    "1-2": ("Little Three", "Kleine Drie"),
}
"""Tile code -> (English name, Dutch name of the rule text)."""

FAMILY_NAMES: dict[str, tuple[str, str]] = {
    "heaven": ("Heaven-nine", "Hemel–negen"),
    "earth": ("Earth-eight", "Aarde–acht"),
    "man": ("Man-seven", "Man–zeven"),
    "goose": ("Goose-five", "Gans–vijf"),
}
"""Family value (:class:`engines.tiengow.tiles.Family`) -> (English, Dutch)."""

GROUP_NAMES: dict[str, tuple[str, str]] = {
    "single": ("Single", "Enkele tegel"),
    "pair": ("Pair", "Paar"),
    "supreme": ("Supreme", "Supreme-paar"),
    "mixed": ("Mixed group", "Gemengde groep"),
    "quartet": ("Quartet", "Viertal"),
    "little_three": ("Single Little Three", "Enkele Kleine Drie"),
    "ordinary": ("Ordinary", "Gewoon"),
}
"""Group kinds and last-trick groups -> (English, Dutch)."""

CLASS_NAMES: dict[str, tuple[str, str]] = {
    "civil": ("Civil", "Burger"),
    "military": ("Military", "Militair"),
}
"""Tile classes -> (English, Dutch; docs/engines/tiengow.md: burger/militair)."""

assert set(TILE_NAMES) == set(TILES)


def tile_name(code: str, language: str = "en") -> str:
    """The name of tile ``code`` (``"6-6"``) in ``"en"`` or ``"nl"``; KeyError for an unknown code."""
    english, dutch = TILE_NAMES[code]
    return dutch if language == "nl" else english
