"""``manage.py pair_round SLUG [--seed N]``: pair the next round as a draft and print the tables
(:func:`scoring.draw.pairing.pair_next_round`)."""
from django.core.management.base import BaseCommand, CommandError

from scoring.draw.pairing import pair_next_round
from scoring.errors import ServiceError
from scoring.models import Tournament
from scoring.policy import SYSTEM


class Command(BaseCommand):
    help = "Pair the next round of a tournament as a draft and print the tables."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--seed", type=int, default=None, help="Seed for round 1's random draw.")

    def handle(self, *args, **opts):
        t = Tournament.objects.filter(slug=opts["slug"]).first()
        if t is None:
            raise CommandError(f"No tournament with slug {opts['slug']!r}.")
        try:
            rnd = pair_next_round(t, SYSTEM, seed=opts["seed"])
        except ServiceError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"{t.name} - round {rnd.number} (draft)")
        for m in rnd.matches.select_related("team_ns", "team_ew").order_by("table"):
            ew = m.team_ew.name if m.team_ew else "BYE"
            self.stdout.write(f"{m.table:>4}  {m.team_ns.name:30} - {ew:30}  {m.pairing_note}")
