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
    sheet_rows=[(RECORD, ["win East self-draw 5p"], [6, -2, -2, -2]), (RECORD, ["win East self-draw 5p"], [6, -2, -2, -2])],
)
