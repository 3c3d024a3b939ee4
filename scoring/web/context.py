"""What every tournament page shows around its content: the tournament, what the user may do
there (:mod:`scoring.policy`) and the navigation, which is the one place the pages tell teams
(Tai Pan: teams registered, rounds paired) from individual players (four-player games: players
registered, rounds seated)."""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.games import registry
from scoring.games.base import EntrantKind
from scoring.models import Tournament
from scoring.policy import Perm
from scoring.web.links import held_links, lost_link

#: What differs between tournaments of teams and of individual players on the pages.
ENTRANT_PAGES = {
    EntrantKind.TEAMS: {
        "entrants_url": "scoring:team_list", "entrants_label": _("Teams"),
        "draw_url": "scoring:round_pair", "draw_label": _("Pair the next round"),
        "actions": (("scoring:team_create", _("Register a team")), ("scoring:teams_import", _("Import teams (CSV)"))),
        "created": _("Tournament created. Register the teams next."),
        "ranking_template": "standings/_ranking_rules.html",
        "count": lambda t: t.teams.count(),
        "redraw": lambda t, number: (reverse("scoring:round_edit", args=[t.slug, number]), _("Edit pairing")),
        # The tournament JSON holds teams and matches (scoring.io.tournament_json).
    },
    EntrantKind.PLAYERS: {
        "entrants_url": "scoring:players", "entrants_label": _("Players"),
        "draw_url": "scoring:round_seat", "draw_label": _("Seat the next round"),
        "actions": (("scoring:players_import", _("Import players (CSV)")),),
        "created": _("Tournament created. Register the players next."),
        "ranking_template": "standings/_player_ranking.html",
        "count": lambda t: t.players.count(),
        "redraw": lambda t, number: (reverse("scoring:round_seat", args=[t.slug]), _("Seat again")),
    },
}


def tournament_context(request, tournament: Tournament, **extra) -> dict:
    """``tournament``, ``perms`` (the user's :class:`~scoring.policy.Perm` values), ``can_organise``,
    ``can_referee``, ``member`` and the navigation URLs; ``extra`` is added."""
    perms = policy.perms_of(request.user, tournament)
    pages = ENTRANT_PAGES[tournament.adapter.entrants]
    ctx = {
        "tournament": tournament,
        "adapter": tournament.adapter,
        "perms": {p.value: True for p in perms},
        "can_organise": Perm.MANAGE in perms,
        "can_referee": Perm.ENTER_RESULTS in perms,
        "member": Perm.VIEW_AUDIT in perms,
        "nav": {
            "overview": tournament.get_absolute_url(),
            "standings": reverse("scoring:standings", args=[tournament.slug]),
            "entrants": reverse(pages["entrants_url"], args=[tournament.slug]),
            "entrants_label": pages["entrants_label"],
            "draw": reverse(pages["draw_url"], args=[tournament.slug]),
            "draw_label": pages["draw_label"],
            "members": reverse("scoring:members", args=[tournament.slug]),
            "settings": reverse("scoring:tournament_edit", args=[tournament.slug]),
            "entrant_actions": [(reverse(name, args=[tournament.slug]), label) for name, label in pages["actions"]],
            "backup": reverse("scoring:tournament_export", args=[tournament.slug]),
            "links": reverse("scoring:links", args=[tournament.slug]),
        },
        "ranking_template": pages["ranking_template"],
    }
    ctx.update(extra)
    return ctx


def site(request) -> dict:
    """Context processor: the rules check pages of the games that have one (site navigation),
    ``mail_configured`` (the login page offers password reset only then) and ``held_links``: the
    private links this phone opened (their entrants' pages in the navigation; from the session,
    no query); ``lost_link``: the entrant whose link stopped working on this phone (revoked or
    replaced), for the pages that refuse it to say why."""
    return {"rules_checks": [(adapter.label, reverse("scoring:rules_check", args=[adapter.key]))
                             for adapter in registry.all_games() if adapter.rules_check is not None],
            "mail_configured": getattr(settings, "MAIL_CONFIGURED", False),
            "held_links": held_links(request), "lost_link": lost_link(request)}
