"""``manage.py makemessages`` for this project: Django's command with settings that make the
catalogues reproducible (issue 21).

- The short gettext aliases ``_t`` (``gettext``) and ``_g`` used in views and services are
  keywords too (Django's documented way to add keywords).
- ``--no-wrap`` for every gettext tool: a message is one line whatever the tool's version, so
  running the command never re-wraps what is there.
- ``--add-location=file``: a message names the files it comes from, not their line numbers, so
  an edit that moves lines in a source file leaves the catalogues alone.
- ``--no-fuzzy-matching`` for msgmerge: a new message stays untranslated instead of getting the
  translation of a similar-looking message (which is usually wrong, and fuzzy entries are not
  used by the pages). tests/web/test_dutch.py then asks for its Dutch translation.
- The project's folders that hold no translatable strings of the application (the virtualenv,
  the tests, the benchmarks) are ignored without being named on the command line.

``make messages`` runs it for Dutch and English and compiles the catalogues; on an unchanged tree
that changes nothing but the catalogues' ``POT-Creation-Date`` line (tests/ops/test_messages.py).
"""
from django.core.management.commands import makemessages

#: Options every gettext tool of the command gets (xgettext, msguniq, msgmerge, msgattrib).
STABLE_OUTPUT = ["--no-wrap", "--add-location=file"]
#: Ignored besides Django's defaults (``CVS``, ``.*``, ``*~``, ``*.pyc``).
PROJECT_IGNORES = [".venv", "tests", "benchmarks"]


class Command(makemessages.Command):
    """Django's makemessages with the keywords ``_t`` and ``_g``, unwrapped file-only locations,
    no fuzzy matching and the project's ignore patterns."""

    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=_t", "--keyword=_g", *STABLE_OUTPUT]
    msguniq_options = makemessages.Command.msguniq_options + STABLE_OUTPUT
    msgmerge_options = makemessages.Command.msgmerge_options + ["--no-fuzzy-matching", *STABLE_OUTPUT]
    msgattrib_options = makemessages.Command.msgattrib_options + STABLE_OUTPUT

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *PROJECT_IGNORES]
        return super().handle(*args, **options)
