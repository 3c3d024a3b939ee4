"""App configuration."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """The tournament and scoring app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Tournament scoring")

    def ready(self):
        """Register the app's system checks (``check --deploy``: proxy trust) and connect the login
        throttling's signal receiver (:mod:`scoring.participants.logins`) and the hall's receivers of
        the round lifecycle's signals (automatic announcements, :mod:`scoring.hall.announcements`) and the state
        counters' receivers (:mod:`scoring.live.signals`), and the URL converter ``<id:>``
        (:class:`scoring.params.IdConverter`)."""
        from django.urls import register_converter
        from django.urls.converters import get_converters

        from scoring import proxies  # noqa: F401
        from scoring.hall import announcements
        from scoring.live import signals as live_signals
        from scoring.params import IdConverter
        from scoring.participants import logins

        logins.connect()
        announcements.connect()
        live_signals.connect()
        if "id" not in get_converters():  # ready() may run twice (tests)
            register_converter(IdConverter, "id")
