"""Tai Pan: NSKT rules (the default preset); N's Grand Tai Pan with a double victory of NS is 400 : 0,
two of them reach the target 800 (docs/engines/taipan.md)."""
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, TAI_PAN_HAND
from tests.games.kits import GameKit

KIT = GameKit(
    key="taipan",
    record=TAI_PAN_HAND,
    scores=[175, 25],
    finishing=[GRAND_DOUBLE_VICTORY_NS] * 2,
    side_keys=["NS", "EW"],
    side_labels_en=["NS", "EW"],
    side_labels_nl=["NS", "EW"],
    sheet_label="Tai Pan",
    sheet_rows=[(TAI_PAN_HAND, ["TP", "N", "75", "25"], [175, 25]), (PLAIN_HAND, ["N", "75", "25"], [75, 25])],
    blank_rows=20,
)
