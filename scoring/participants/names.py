"""Players' names as the public sees them (issue 26 item 1, docs/players.md "Privacy").

A player is shown by full name or by first name and initial (``"Anna de Vries"`` ->
``"Anna V."``). The player's own setting (:attr:`scoring.models.Player.public_name`) wins; empty
means the tournament's default (:attr:`scoring.models.Tournament.public_names`, set by the
organiser). Organisers and referees of the tournament see full names on their own pages; every
public page, public export, public PDF and the API's anonymous answers go through
:func:`public_name`.
"""
from __future__ import annotations

from scoring.models.persons import PublicNames


def short_name(name: str) -> str:
    """First name and the initial of the last name: ``"Anna de Vries"`` -> ``"Anna V."``,
    ``"Bart"`` -> ``"Bart"`` (one word stays whole). Whitespace is collapsed."""
    words = name.split()
    if len(words) < 2:
        return " ".join(words)
    return f"{words[0]} {words[-1][0].upper()}."


def name_setting(player_setting: str, tournament_setting: str) -> str:
    """The setting that applies: the player's own (``"full"``/``"short"``) or, when empty, the
    tournament's."""
    return player_setting or tournament_setting or PublicNames.FULL


def public_name(player, tournament=None) -> str:
    """``player``'s name as shown publicly (``player``: a :class:`scoring.models.Player`;
    ``tournament``: its tournament when already loaded, else ``player.tournament`` is read)."""
    tournament = tournament if tournament is not None else player.tournament
    if name_setting(player.public_name, tournament.public_names) == PublicNames.SHORT:
        return short_name(player.name)
    return player.name


def person_public_name(name: str, settings: list[tuple[str, str]]) -> str:
    """A person's name on cross-tournament public pages (profile, season ranking): ``name`` (the
    person's full name) shortened unless every entry shows the full name; privacy wins.
    ``settings``: ``[(player.public_name, tournament.public_names)]`` of the person's entries
    (empty list: the full name)."""
    if any(name_setting(own, default) == PublicNames.SHORT for own, default in settings):
        return short_name(name)
    return name
