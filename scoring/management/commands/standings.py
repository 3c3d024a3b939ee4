"""``manage.py standings SLUG --format json|csv [--round N]``: print the standings
(:mod:`scoring.standings`). ``--round N`` must name a played round (published or later, with a
finished or confirmed result): any other number is refused with the rounds there are, instead of
printing the current standings under that round's name."""
import dataclasses
import json

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from scoring.io.datasets import export_csv, standings_dataset
from scoring.models import ResultContainer, Round, Tournament
from scoring.standings import standings_for


class Command(BaseCommand):
    help = "Print the standings of a tournament as JSON or CSV."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--round", type=int, default=None, help="Standings after this round.")

    def handle(self, *args, **opts):
        t = Tournament.objects.filter(slug=opts["slug"]).first()
        if t is None:
            raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        if opts["round"] is not None:
            check_played(t, opts["round"])
        if opts["format"] == "csv":
            self.stdout.write(export_csv(standings_dataset(t, through_round=opts["round"])), ending="")
            return
        rows = [dataclasses.asdict(r) for r in standings_for(t, through_round=opts["round"])]
        self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))


#: A result the standings count.
COUNTED = (ResultContainer.Status.FINISHED, ResultContainer.Status.CONFIRMED)


def played_rounds(tournament: Tournament) -> list[int]:
    """The numbers of the rounds of ``tournament`` the standings can stand after: not drafts, with
    at least one finished or confirmed match or table."""
    counted = Q(matches__status__in=COUNTED) | Q(tables__status__in=COUNTED)
    return list(Round.objects.filter(tournament=tournament).exclude(status=Round.Status.DRAFT).filter(counted)
                .values_list("number", flat=True).distinct().order_by("number"))


def check_played(tournament: Tournament, number: int) -> None:
    """Raise :class:`CommandError` unless round ``number`` of ``tournament`` is played
    (:func:`played_rounds`), saying which rounds are."""
    played = played_rounds(tournament)
    if number in played:
        return
    exists = Round.objects.filter(tournament=tournament, number=number).exists()
    why = "is not played yet" if exists else "does not exist"
    there = f"standings exist after round {', '.join(map(str, played))}" if played else "no round is played yet"
    raise CommandError(f"Round {number} of {tournament.slug!r} {why}: {there}.")
