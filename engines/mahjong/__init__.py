"""Shared mahjong core (docs/engines/sichuan.md and taiwanese.md): tiles and MPSZ parsing, melds, physical checks,
decompositions into sets and a pair, seven pairs and formal waits. Pure functions, no game rules.

This package is not a game (it has no ``COMMANDS``); the Sichuan and Taiwanese engines build on it.
"""
from engines.mahjong.hand import (
    Decomposition,
    check_counts,
    count_tiles,
    decompositions,
    is_seven_pairs,
    is_seven_pairs_counts,
    is_winning,
    is_winning_counts,
    waits,
)
from engines.mahjong.melds import ALLOWED_EXPOSURES, Exposure, Meld, MeldKind, parse_meld, parse_melds
from engines.mahjong.tiles import TILE_KINDS, TILES, Suit, Tile, format_tiles, parse_tile, parse_tiles

__all__ = [
    "ALLOWED_EXPOSURES", "TILES", "TILE_KINDS", "Decomposition", "Exposure", "Meld", "MeldKind", "Suit", "Tile",
    "check_counts", "count_tiles", "decompositions", "format_tiles", "is_seven_pairs", "is_seven_pairs_counts",
    "is_winning", "is_winning_counts", "parse_meld", "parse_melds", "parse_tile", "parse_tiles", "waits",
]
