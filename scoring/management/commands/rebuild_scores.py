"""``manage.py rebuild_scores [SLUG]``: recompute every derived number from the entered records
(docs/architecture.md): record scores, totals, status, winner, match points and carried state of every
match and table (:func:`scoring.results.sheet.rebuild`)."""
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Match, Table, Tournament
from scoring.results.sheet import rebuild


class Command(BaseCommand):
    help = "Recompute every derived score from the entered records."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", default=None, help="Only this tournament (default: every tournament).")

    def handle(self, *args, **opts):
        matches = Match.objects.select_related("round__tournament", "team_ns", "team_ew").order_by("round__tournament_id", "round__number", "table")
        tables = Table.objects.select_related("round__tournament").order_by("round__tournament_id", "round__number", "number")
        if opts["slug"]:
            t = Tournament.objects.filter(slug=opts["slug"]).first()
            if t is None:
                raise CommandError(f"No tournament with slug {opts['slug']!r}.")
            matches, tables = matches.filter(round__tournament=t), tables.filter(round__tournament=t)
        count, table_count = rebuild(matches), rebuild(tables)
        self.stdout.write(f"Recomputed {count} matches and {table_count} four-player tables.")
