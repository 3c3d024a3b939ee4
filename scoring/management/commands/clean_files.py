"""``manage.py clean_files``: delete the stored files nobody needs any more (old and superseded
round packs, finished imports, files no job names), as Celery beat does every hour
(:func:`scoring.printing.packs.clean_files`; docs/operations.md, "Stored files")."""
from django.core.management.base import BaseCommand

from scoring.printing.packs import clean_files


class Command(BaseCommand):
    help = "Delete old and superseded round packs and import files from the file storage."

    def handle(self, *args, **opts):
        counts = clean_files()
        self.stdout.write("Deleted: {expired} expired, {superseded} superseded, {orphans} orphaned.".format(**counts))
