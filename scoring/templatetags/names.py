"""Players' names on public pages (issue 26, docs/players.md "Privacy").

``{{ player|public_name:tournament }}``: the name as the public sees it
(:func:`scoring.participants.names.public_name`: the player's own setting, else the tournament's).
"""
from __future__ import annotations

from django import template

from scoring.participants.names import public_name as _public_name

register = template.Library()


@register.filter
def public_name(player, tournament) -> str:
    """``player``'s public name in ``tournament`` (``""`` for no player)."""
    if player is None:
        return ""
    return _public_name(player, tournament)
