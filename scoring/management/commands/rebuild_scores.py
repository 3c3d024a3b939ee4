"""``manage.py rebuild_scores [SLUG]``: recompute every derived number (hand scores, match
totals, status, winner, match points) from the hand records
(:func:`scoring.services.results.rebuild_scores`)."""
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Tournament
from scoring.services.results import rebuild_scores


class Command(BaseCommand):
    help = "Recompute every derived score from the entered hand records."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", default=None, help="Only this tournament (default: every Tai Pan tournament).")

    def handle(self, *args, **opts):
        t = None
        if opts["slug"]:
            t = Tournament.objects.filter(slug=opts["slug"]).first()
            if t is None:
                raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        count = rebuild_scores(t)
        self.stdout.write(f"Recomputed {count} matches.")
