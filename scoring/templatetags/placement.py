"""``{{ value|placement_points }}``: placement points (exact fractions) as people read them,
at most two decimals (:func:`scoring.standings.placement.render`)."""
from __future__ import annotations

from django import template

from scoring.standings.placement import render

register = template.Library()


@register.filter
def placement_points(value) -> str:
    """``value`` (Fraction, int or ``None``) rendered: "3", "1.5", "2.33", "—"."""
    return render(value)
