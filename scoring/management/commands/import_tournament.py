"""``manage.py import_tournament FILE [--slug SLUG] [--organiser USERNAME]``: create a tournament
from an export (:func:`scoring.io.tournament_json.load_tournament`); ``-`` reads stdin.

The file is checked against the declared schema and every rule first; each problem is printed with
its JSON path and the command exits with status 1, nothing created. Warnings (a member or a
confirmation dropped: accounts are never created, a superuser never gets a role) are printed with
the result. ``--organiser`` makes that existing account the organiser of the imported tournament.
"""
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from scoring.io.tournament_json import ImportRefused, load_tournament

#: Largest file read (bytes).
MAX_BYTES = 50_000_000


class Command(BaseCommand):
    help = "Import a tournament from a JSON export."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", default=None, help="Use this slug instead of the one in the file.")
        parser.add_argument("--organiser", default=None, metavar="USERNAME",
                            help="Make this existing account the organiser of the imported tournament.")

    def handle(self, *args, **opts):
        try:
            if opts["file"] == "-":
                text = sys.stdin.buffer.read(MAX_BYTES + 1)
            else:
                path = Path(opts["file"])
                if path.stat().st_size > MAX_BYTES:
                    raise CommandError(f"Cannot read {opts['file']}: larger than {MAX_BYTES // 1_000_000} MB.")
                text = path.read_bytes()
        except OSError as err:
            raise CommandError(f"Cannot read {opts['file']}: {err}") from None
        if len(text) > MAX_BYTES:
            raise CommandError(f"Cannot read {opts['file']}: larger than {MAX_BYTES // 1_000_000} MB.")
        try:
            with translation.override("en"):  # one language in the output (the engines' messages too)
                imported = load_tournament(text, slug=opts["slug"], organiser=opts["organiser"])
        except ImportRefused as err:
            for path, message in err.errors:
                self.stderr.write(f"{path}: {message}")
            raise CommandError(f"{opts['file']} was not imported: {len(err.errors)} problem(s) above; nothing was created.") from None
        for warning in imported.warnings:
            self.stderr.write(f"Warning: {warning}")
        t = imported.tournament
        self.stdout.write(f"Imported {t.name!r} as {t.slug!r}: {imported.entrants}, {t.rounds.count()} rounds.")
