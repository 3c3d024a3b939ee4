"""Players' names as the public sees them (issue 26 item 1, docs/players.md "Privacy").

A player is shown by full name or by first name and initial (``"Anna de Vries"`` ->
``"Anna V."``). The player's own setting (:attr:`scoring.models.Player.public_name`) wins; empty
means the tournament's default (:attr:`scoring.models.Tournament.public_names`, set by the
organiser). Organisers and referees of the tournament see full names on their own pages; every
public page, public export, public PDF and the API's anonymous answers go through
:func:`public_name`.
"""
from __future__ import annotations

from scoring.models.persons import PublicNames, name_setting, short_name, shown_name

__all__ = ["name_setting", "person_public_name", "public_name", "short_name", "shown_name"]


def public_name(player, tournament=None) -> str:
    """``player``'s name as shown publicly (``player``: a :class:`scoring.models.Player`;
    ``tournament``: its tournament when already loaded, else ``player.tournament`` is read)."""
    tournament = tournament if tournament is not None else player.tournament
    return shown_name(player.name, player.public_name, tournament.public_names)


def person_public_name(name: str, settings: list[tuple[str, str]]) -> str:
    """A person's name on cross-tournament public pages (profile, season ranking): ``name`` (the
    person's full name) shortened unless every entry shows the full name; privacy wins.
    ``settings``: ``[(player.public_name, tournament.public_names)]`` of the person's entries
    (empty list: the full name)."""
    if any(name_setting(own, default) == PublicNames.SHORT for own, default in settings):
        return short_name(name)
    return name
