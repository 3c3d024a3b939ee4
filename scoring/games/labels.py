"""Translatable labels for the identifiers the engines put in their outputs (fan and tai items,
payment reasons). Engines speak English identifiers (``half_flush``); pages and PDFs show
:func:`item_label`, which the catalogue in ``locale/`` turns into Dutch.

Sources: the Sichuan rule text (fan), the Taiwanese rule text (tai), docs/engines/sichuan.md and taiwanese.md.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

ITEM_LABELS = {
    # Sichuan fan items (docs/engines/sichuan.md)
    "all_pungs": _("all pungs"),
    "all_258_pungs": _("all 2/5/8 pungs"),
    "outside_hand": _("outside hand"),
    "seven_pairs": _("seven pairs"),
    "full_flush": _("full flush"),
    "gold_hook": _("gold hook"),
    "root": _("root"),
    "kong_replacement": _("win on a kong replacement"),
    "robbed_kong": _("robbing a kong"),
    "last_tile": _("last tile"),
    "self_draw": _("self-draw"),
    # Taiwanese tai items (docs/engines/taiwanese.md)
    "concealed": _("concealed hand"),
    "single_wait": _("single wait"),
    "round_wind": _("round wind"),
    "seat_wind": _("seat wind"),
    "own_flower": _("own flower"),
    "dragon_pung": _("dragon pung"),
    "self_drawn": _("self-drawn"),
    "last_discard": _("win on the last discard"),
    "last_wall_tile": _("win on the last wall tile"),
    "win_after_kong": _("win after a kong"),
    "robbing_kong": _("robbing a kong"),
    "all_claimed": _("all claimed"),
    "flower_kong": _("flower kong"),
    "ping_hu": _("ping hu (all chows)"),
    "three_concealed_pungs": _("three concealed pungs"),
    "bu_qiu": _("concealed self-draw (bu qiu)"),
    "half_flush": _("half flush"),
    "little_three_dragons": _("little three dragons"),
    "four_concealed_pungs": _("four concealed pungs"),
    "four_kongs": _("four kongs"),
    "five_concealed_pungs": _("five concealed pungs"),
    "big_three_dragons": _("big three dragons"),
    "little_four_winds": _("little four winds"),
    "big_four_winds": _("big four winds"),
    "all_honours": _("all honours"),
    "seven_rob_one": _("seven rob one"),
    "eight_flowers": _("eight flowers"),
    "heavenly_hand": _("heavenly hand"),
    "earthly_hand": _("earthly hand"),
    "heavenly_ready": _("heavenly ready"),
    "earthly_ready": _("earthly ready"),
    "dealer_tai": _("dealer tai"),
    # Tien Gow payment factors (docs/engines/tiengow.md)
    "banker": _("banker"),
    "sweep": _("sweep of 8"),
    "last_ordinary": _("last trick"),
    "last_quartet": _("last trick with a quartet"),
    "last_supreme": _("last trick with the Supreme"),
    "last_little_three": _("last trick with the Little Three"),
    # Payment reasons (Sichuan settle)
    "win_discard": _("win on a discard"),
    "kong_exposed": _("exposed kong"),
    "kong_added": _("added kong"),
    "kong_concealed": _("concealed kong"),
    "kong_refund": _("kong refund"),
    "flower_pig": _("flower pig"),
    "not_ready": _("not ready"),
}


def item_label(identifier: str) -> str:
    """The translated label of an engine identifier (``"half_flush"`` -> ``"half flush"`` /
    ``"halve kleur"``); unknown identifiers fall back to the identifier with spaces."""
    label = ITEM_LABELS.get(str(identifier))
    return str(label) if label is not None else str(identifier).replace("_", " ")
