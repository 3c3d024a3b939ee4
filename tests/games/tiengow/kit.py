"""Tien Gow: banker seat 1 settles columns 2/3/3/0 -> -4 / +10 / -1 / -5 and the bank passes to seat 2
(case S-01)."""
from tests.factories import DEALS
from tests.games.kits import GameKit

RECORD, SCORES = DEALS["tiengow"]

KIT = GameKit(
    key="tiengow",
    record=RECORD,
    scores=SCORES,
    side_keys=["0", "1", "2", "3"],
    side_labels_en=["Seat 1", "Seat 2", "Seat 3", "Seat 4"],
    side_labels_nl=["Plaats 1", "Plaats 2", "Plaats 3", "Plaats 4"],
    sheet_label="Tien Gow",
    # the second deal's scores are not compared: the bank has passed to seat 2
    # banker, columns per seat, last trick won by / with, immediate payments
    sheet_rows=[(RECORD, ["1", "2", "3", "3", "0", "2", "–", "–"], [-4, 10, -1, -5]), (RECORD, ["2", "2", "3", "3", "0", "2", "–", "–"], None)],
)
