"""Taiwanese: South self-draws 6 tai with East dealing -> -17 / +47 / -15 / -15 (case T01); then South
deals (the dealer passes to the winner) and the same hand pays dealer tai 1 -> -17 / +51 / -17 / -17."""
from tests.factories import DEALS
from tests.games.kits import GameKit

RECORD, SCORES = DEALS["taiwanese"]

KIT = GameKit(
    key="taiwanese",
    record=RECORD,
    scores=SCORES,
    side_keys=["E", "S", "W", "N"],
    side_labels_en=["East", "South", "West", "North"],
    side_labels_nl=["Oost", "Zuid", "West", "Noord"],
    sheet_label="Taiwanese 16-tile mahjong",
    # winner, from, tai (a tile-by-tile record: its winning tile in brackets, the engine counts the tai)
    sheet_rows=[(RECORD, ["S", "self", "(6p)"], [-17, 47, -15, -15]), (RECORD, ["S", "self", "(6p)"], [-17, 51, -17, -17])],
)
