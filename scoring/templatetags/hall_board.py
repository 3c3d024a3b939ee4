"""``{% referee_call container as rc %}``: whether the one looking may call a referee to this
table (a side through its private link, or a referee), the open call if there is one, and the
URL of the button (:mod:`scoring.hall.calls`). Used by ``templates/hall/_call_referee.html`` on
the entry page."""
from __future__ import annotations

from django import template
from django.urls import reverse

from scoring.hall import calls
from scoring.kinds import kind_of

register = template.Library()


@register.simple_tag(takes_context=True)
def referee_call(context, container) -> dict:
    """``{"may": bool, "open": RefereeCall | None, "url": str}`` for ``container``: ``may`` is
    False (nothing shown) for a round that is not published or running, or for anyone but a side
    of the table or a referee."""
    request = context.get("request")
    actor = getattr(request, "actor", None) or getattr(request, "user", None)
    if container is None or actor is None or not container.round.is_open or not calls.may_call(actor, container):
        return {"may": False}
    kind = kind_of(container)
    return {"may": True, "open": calls.open_call(container),
            "url": reverse(f"scoring:{kind.key}_call_referee", args=[container.round.tournament.slug, container.pk])}
