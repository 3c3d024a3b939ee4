"""``manage.py load_demo [--if-empty]``: the 16-team NSKT demo tournament replaying real hands,
plus the ``organiser`` and ``referee`` logins (printed). See :mod:`scoring.io.demo`."""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring.io.demo import load_demo


class Command(BaseCommand):
    help = "Build the 'NSKT demo' tournament (16 teams, 3 played rounds of real hands, round 4 paired) and demo logins."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true",
                            help="Do nothing if the demo tournament already exists (the logins are still printed).")
        parser.add_argument("--in-production", action="store_true",
                            help="Allow it with DEBUG off (it creates logins with published passwords).")

    def handle(self, *args, **opts):
        if getattr(settings, "PRODUCTION", False) and not opts["in_production"]:
            raise CommandError("load_demo creates the logins organiser/referee with published passwords; "
                               "with DEBUG off it needs --in-production (then change or remove those accounts).")
        result = load_demo(if_empty=opts["if_empty"])
        t = result.tournament
        if result.created:
            self.stdout.write(self.style.SUCCESS(
                f"Created {t.name!r} (/t/{t.slug}/): {t.teams.count()} teams, {t.rounds.count()} rounds."))
        else:
            self.stdout.write(f"The demo tournament {t.name!r} (/t/{t.slug}/) already exists; left as it is.")
        self.stdout.write("Logins (development only):")
        for username, password, role in result.logins:
            self.stdout.write(f"  {role:10} username: {username:10} password: {password}")
