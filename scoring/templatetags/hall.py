"""``{% hall_bar %}``: the round clock and the announcements on the pages that show them (docs/hall.md;
which pages and what: :func:`scoring.web.views.hall.bar_items`). Used once, in ``templates/base.html``;
pages without a hall bar cost no query."""
from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("hall/_bar.html", takes_context=True)
def hall_bar(context) -> dict:
    """The context of ``hall/_bar.html``: ``items`` (one per tournament shown) and ``request``."""
    from scoring.web.views.hall import bar_items

    return {"items": bar_items(context), "request": context.get("request")}


@register.inclusion_tag("hall/_clock_controls.html", takes_context=True)
def clock_controls(context) -> dict:
    """The organisers' clock buttons of the context's ``round`` (published or in progress, the
    user an organiser: ``can_organise``), else nothing."""
    from scoring.web.views.hall import controls

    return {**context.flatten(), "clock_controls": controls(context)}
