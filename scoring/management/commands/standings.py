"""``manage.py standings SLUG --format json|csv [--round N]``: print the standings
(:mod:`scoring.standings`)."""
import dataclasses
import json

from django.core.management.base import BaseCommand, CommandError

from scoring.io.datasets import export_csv, standings_dataset
from scoring.models import Tournament
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
        if opts["format"] == "csv":
            self.stdout.write(export_csv(standings_dataset(t, through_round=opts["round"])), ending="")
            return
        rows = [dataclasses.asdict(r) for r in standings_for(t, through_round=opts["round"])]
        self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))
