"""Sichuan: East self-draws all chows and a pair, no fan items -> E +6, S/W/N -2 (case S02)."""
from tests.factories import DEALS
from tests.games.kits import GameKit

RECORD, SCORES = DEALS["sichuan"]

KIT = GameKit(
    key="sichuan",
    record=RECORD,
    scores=SCORES,
    side_keys=["E", "S", "W", "N"],
    side_labels_en=["East", "South", "West", "North"],
    side_labels_nl=["Oost", "Zuid", "West", "Noord"],
    sheet_label="Sichuan mahjong (bloody battle)",
    # winner, from, fan (a tile-by-tile record: its winning tile in brackets, the engine counts the fan)
    sheet_rows=[(RECORD, ["E", "self", "(5p)"], [6, -2, -2, -2]), (RECORD, ["E", "self", "(5p)"], [6, -2, -2, -2])],
)
