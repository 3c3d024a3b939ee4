"""``manage.py rebuild_final_places [SLUG]``: rebuild the final places the season rankings read
(:mod:`scoring.standings.final_places`) from the standings of the entered results: every finished
tournament's recorded again, every other tournament's cleared."""
from django.core.management.base import BaseCommand, CommandError

from scoring.models import Tournament
from scoring.standings.final_places import rebuild_final_places


class Command(BaseCommand):
    help = "Rebuild the final places of finished tournaments (season rankings)."

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", default=None, help="Only this tournament (default: every tournament).")

    def handle(self, *args, **opts):
        tournaments = Tournament.objects.all()
        if opts["slug"]:
            tournaments = tournaments.filter(slug=opts["slug"])
            if not tournaments.exists():
                raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        done = rebuild_final_places(tournaments)
        self.stdout.write(f"Recorded the final places of {done} finished tournaments.")
