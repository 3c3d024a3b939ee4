"""``manage.py makemessages`` that also collects the project's short gettext aliases ``_t``
(``gettext``) and ``_g`` used in views and services (Django's documented way to add keywords)."""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    """Django's makemessages with the extra keywords ``_t`` and ``_g``."""

    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=_t", "--keyword=_g"]
