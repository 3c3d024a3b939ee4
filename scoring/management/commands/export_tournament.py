"""``manage.py export_tournament SLUG [--output FILE]``: the whole tournament as JSON
(docs/tournaments.md; :func:`scoring.io.tournament_json.export_tournament`), canonical text on stdout or FILE."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.io.tournament_json import dumps, export_tournament
from scoring.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament as JSON (import it again with import_tournament)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", default=None, help="Write to this file instead of stdout.")

    def handle(self, *args, **opts):
        t = Tournament.objects.filter(slug=opts["slug"]).first()
        if t is None:
            raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        text = dumps(export_tournament(t))
        if opts["output"]:
            Path(opts["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
