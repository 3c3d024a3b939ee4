"""Tien Gow (Chinese dominoes) rule engine: tiles, groups, deal validation and settlement.

Rule source: the Tien Gow rule text with the decisions of docs/engines/tiengow.md. Commands (JSON in, JSON out):

- ``check``: is a play legal, does it beat the current high group;
- ``deal``: validate a trick-by-trick record, derive columns, payments and the next banker;
- ``settle``: payments from a settlement-level record (columns, last trick, immediate events).

Seats are 0..3 in play order. The banker of a table's first deal is seat 0
(:data:`INITIAL_BANKER`; the rule text draws a random banker, the tournament seats that player at
0); ``deal`` and ``settle`` always return ``next_banker``, the banker of the following deal (the last
trick's winner, or the same banker when there is no last trick), so callers never derive it.

Typed API: :mod:`.tiles` (:class:`Tile`, :class:`TileClass`, :class:`Family`), :mod:`.groups`
(:class:`Group`, :class:`GroupKind`, :func:`identify`, :func:`beats`), :mod:`.settlement`,
:mod:`.deal`, :mod:`.options` (rules options), :mod:`.names` (English/Dutch tile names),
:mod:`.simulate` (a random legal player).

Rules presets (the same three names in every engine package): ``PRESETS``, ``DEFAULT_PRESET``
(``"standard"``) and ``resolve_rules(raw)`` -> option dict; the typed form is :func:`resolve` ->
:class:`Options`.
"""
from __future__ import annotations

from engines.tiengow.commands import check_command, deal_command, settle_command
from engines.tiengow.deal import DealResult, Play, TrickResult, play_deal
from engines.tiengow.groups import Group, GroupKind, beats, identify, legal_groups
from engines.tiengow.options import DEFAULT_OPTIONS, DEFAULT_PRESET, PRESETS, Options, resolve, resolve_rules
from engines.tiengow.settlement import (
    INITIAL_BANKER,
    ImmediateEvent,
    ImmediateGroup,
    LastTrick,
    LastTrickGroup,
    Settlement,
    Transfer,
    settle,
)
from engines.tiengow.tiles import FULL_SET, TILES, Family, Tile, TileClass, parse_tile

COMMANDS = {"check": check_command, "deal": deal_command, "settle": settle_command}

__all__ = [
    "COMMANDS", "DEFAULT_OPTIONS", "DEFAULT_PRESET", "FULL_SET", "INITIAL_BANKER", "PRESETS", "TILES",
    "DealResult", "Family", "Group", "GroupKind", "ImmediateEvent", "ImmediateGroup", "LastTrick",
    "LastTrickGroup", "Options", "Play", "Settlement", "Tile", "TileClass", "Transfer", "TrickResult",
    "beats", "identify", "legal_groups", "parse_tile", "play_deal", "resolve", "resolve_rules", "settle",
]
