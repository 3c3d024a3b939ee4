"""``manage.py import_tournament FILE [--slug SLUG]``: create a tournament from an export
(:func:`scoring.io.tournament_json.import_tournament`); ``-`` reads stdin. Nothing is created on error."""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.errors import ServiceError
from scoring.games.base import RuleViolation
from scoring.io.tournament_json import import_tournament


class Command(BaseCommand):
    help = "Import a tournament from a JSON export."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", default=None, help="Use this slug instead of the one in the file.")

    def handle(self, *args, **opts):
        try:
            text = sys.stdin.read() if opts["file"] == "-" else Path(opts["file"]).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, ValueError) as err:
            raise CommandError(f"Cannot read {opts['file']}: {err}") from None
        try:
            t = import_tournament(data, slug=opts["slug"])
        except (ServiceError, RuleViolation) as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"Imported {t.name!r} as {t.slug!r}: {t.teams.count()} teams, {t.rounds.count()} rounds.")
