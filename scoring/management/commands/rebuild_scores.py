"""``manage.py rebuild_scores [SLUG]``: recompute every derived number from the entered records:
Tai Pan hand scores, match totals, status, winner and match points
(:func:`scoring.results.matches.rebuild_scores`), and four-player deal results, seat totals and
carried state (:func:`scoring.results.tables.rebuild_tables`)."""
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Tournament
from scoring.results.matches import rebuild_scores
from scoring.results.tables import rebuild_tables


class Command(BaseCommand):
    help = "Recompute every derived score from the entered hand records."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", default=None, help="Only this tournament (default: every tournament).")

    def handle(self, *args, **opts):
        t = None
        if opts["slug"]:
            t = Tournament.objects.filter(slug=opts["slug"]).first()
            if t is None:
                raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        count = rebuild_scores(t)
        tables = rebuild_tables(t)
        self.stdout.write(f"Recomputed {count} matches and {tables} four-player tables.")
