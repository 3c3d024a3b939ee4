"""The phone's outbox (docs/results.md, "Saving without a connection").

``{% outbox_owner as owner %}``: who this page is opened as, ``{"key": ..., "name": ...}``
(:func:`scoring.policy.actor_key` and :func:`scoring.policy.actor_name` of the request's actor;
empty texts for nobody). The entry form records it with each hand kept offline, and the outbox
sends a waiting hand only from a page opened as the same person (static/js/outbox.js).
"""
from __future__ import annotations

from django import template

from scoring.policy import actor_key, actor_name
from scoring.web.decorators import actor_of

register = template.Library()


@register.simple_tag(takes_context=True)
def outbox_owner(context) -> dict[str, str]:
    """``{"key": "user:<id>" | "link:<id>" | "", "name": str}`` of the page's request."""
    request = context.get("request")
    actor = actor_of(request) if request is not None else None
    return {"key": actor_key(actor) or "", "name": actor_name(actor)}
