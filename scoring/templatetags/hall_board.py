"""``{% referee_call container as rc %}``: whether the one looking may call a referee to this
table (a side through its private link, or a referee), the open call if there is one, and the
URL of the button (:mod:`scoring.hall.calls`), and the end of a time's up grace period. Used by ``templates/hall/_call_referee.html`` on
the entry page."""
from __future__ import annotations

from django import template
from django.urls import reverse

from scoring.hall import calls
from scoring.kinds import kind_of
from scoring.models import TimesUp

register = template.Library()


@register.simple_tag(takes_context=True)
def referee_call(context, container) -> dict:
    """``{"may": bool, "open": RefereeCall | None, "grace_until": datetime | None, "url": str}``
    for ``container``: ``may`` is False (nothing shown) for a round that is not published or
    running, or for anyone but a side of the table or a referee; ``grace_until``: time's up was
    called with time to finish the hand in play, until then (:mod:`scoring.hall.times_up`)."""
    request = context.get("request")
    actor = getattr(request, "actor", None) or getattr(request, "user", None)
    if container is None or actor is None or not container.round.is_open or not calls.may_call(actor, container):
        return {"may": False}
    kind = kind_of(container)
    call = TimesUp.objects.filter(round_id=container.round_id, applied_at=None, grace_until__isnull=False).first()
    return {"may": True, "open": calls.open_call(container), "grace_until": call.grace_until if call else None,
            "url": reverse(f"scoring:{kind.key}_call_referee", args=[container.round.tournament.slug, container.pk])}
