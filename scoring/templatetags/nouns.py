"""Template filters for counted nouns.

``{{ pair|noun_for:n }}``: the singular or plural noun of ``pair`` (``(singular, plural)``, e.g. an
adapter's ``record_noun``: ``("hand", "hands")``) for the count ``n``. A ``{% blocktranslate count %}``
then names one noun variable in both of its forms, which ``msgfmt`` requires: every placeholder of
a translated form must also be in the English plural.
"""
from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def noun_for(pair, count) -> str:
    """``pair[0]`` when ``count`` is 1, else ``pair[1]``; ``""`` for a missing pair. ``count``: an
    int or anything with a length."""
    if not pair:
        return ""
    try:
        n = int(count)
    except (TypeError, ValueError):
        n = len(count)
    return pair[0] if n == 1 else pair[1]
