"""Public, read-only pages: the tournament list and a tournament's overview."""
from django.shortcuts import get_object_or_404, render

from scoring.models import Tournament
from scoring.roles import can_organise, can_referee


def tournament_list(request):
    """All tournaments, newest first."""
    tournaments = Tournament.objects.all()
    return render(request, "scoring/tournament_list.html", {"tournaments": tournaments})


def tournament_detail(request, slug):
    """A tournament's overview: rounds and links to pairings, standings and (for members) entry."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rounds = tournament.rounds.all()
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "can_organise": can_organise(request.user, tournament),
        "can_referee": can_referee(request.user, tournament),
    }
    return render(request, "scoring/tournament_detail.html", context)
