"""People across tournaments (issue 26, docs/players.md): the organiser's review list of
look-alike people and its actions ("Same person", "Different people"), and "Not the same person"
on an entry's page. The same actions are in the REST API (:mod:`scoring.api.views.persons`)
through the same service and policy (:mod:`scoring.participants.persons`)."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_POST, require_safe

from scoring.errors import ServiceError
from scoring.models import Player, Team
from scoring.params import whole_number
from scoring.participants import persons
from scoring.policy import Perm
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view


@require_safe
@tournament_view(Perm.MANAGE)
def review(request, *, tournament):
    """The look-alike pairs of this tournament's people and people of any tournament, with the
    tournaments each played (:func:`scoring.participants.persons.candidates`)."""
    pairs = persons.hide_numbers(persons.candidates(tournament), request.user)
    return render(request, "persons/review.html", tournament_context(request, tournament, pairs=pairs))


def _ids(request, *names: str) -> list[int] | None:
    values = [whole_number(request.POST.get(n, "")) for n in names]
    return None if any(v is None for v in values) else values


@require_POST
@tournament_view(Perm.MANAGE)
def decide(request, *, tournament):
    """POST ``here``, ``other`` and ``decision`` (``same``: this tournament's entries of ``here``
    become ``other``'s; ``different``: never offered again)."""
    ids = _ids(request, "here", "other")
    decision = request.POST.get("decision")
    if ids is None or decision not in ("same", "different"):
        messages.error(request, _t("Choose two people and a decision."))
        return redirect("scoring:persons_review", tournament.slug)
    try:
        if decision == "same":
            person = persons.same_person(tournament, request.user, *ids)
            messages.success(request, _t("Joined: %(name)s is one person now.") % {"name": person.name})
        else:
            persons.different_people(tournament, request.user, *ids)
            messages.success(request, _t("Recorded as different people."))
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("scoring:persons_review", tournament.slug)


@require_POST
@tournament_view(Perm.MANAGE)
def split(request, pk, *, tournament):
    """"Not the same person": the entry ``pk`` gets a person of its own."""
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    try:
        persons.split(tournament, request.user, player.pk)
        messages.success(request, _t("%(name)s is a separate person now.") % {"name": player.name})
    except ServiceError as exc:
        messages.error(request, str(exc))
    team = Team.objects.filter(tournament=tournament).filter(first_player=player).first() or \
        Team.objects.filter(tournament=tournament, second_player=player).first()
    if team is not None:
        return redirect("scoring:team_edit", tournament.slug, team.pk)
    return redirect("scoring:player_edit", tournament.slug, player.pk)
