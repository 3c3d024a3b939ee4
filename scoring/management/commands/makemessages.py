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
- Last, every catalogue is written once more by ``msgcat`` with the same options: gettext's own
  layout (it breaks long ``#:`` location lines), so a catalogue edited by another tool (a
  translator's editor, polib) is laid out as the gettext tools lay it out, and a later run that
  adds one message changes that message's lines only.
- The project's folders that hold no translatable strings of the application (the virtualenv,
  the tests, the benchmarks) are ignored without being named on the command line.

``make messages`` runs it for Dutch and English and compiles the catalogues; on an unchanged tree
that changes nothing but the catalogues' ``POT-Creation-Date`` line (tests/ops/test_messages.py).
"""
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import makemessages
from django.core.management.utils import popen_wrapper

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
        result = super().handle(*args, **options)
        for locale in options.get("locale") or []:
            for root in settings.LOCALE_PATHS:
                self.lay_out(Path(root) / locale / "LC_MESSAGES" / f"{options.get('domain') or 'django'}.po")
        return result

    def lay_out(self, pofile: Path) -> None:
        """Write ``pofile`` as ``msgcat`` lays it out with :data:`STABLE_OUTPUT` (only when that
        changes it). Raises ``CommandError`` when msgcat fails."""
        if not pofile.is_file():
            return
        out, errors, status = popen_wrapper(["msgcat", *STABLE_OUTPUT, str(pofile)])
        if status:
            raise CommandError(f"msgcat failed on {pofile}: {errors}")
        if out != pofile.read_text(encoding="utf-8"):
            pofile.write_text(out, encoding="utf-8")
