"""Service layer of the scoring app (DESIGN.md 1): plain functions with docstrings; views stay thin.

Modules: :mod:`errors` (exceptions views map to messages), :mod:`results` (Tai Pan hands, match
results, confirmation, audit), :mod:`pairing` and :mod:`rounds` (Swiss pairing and the round
lifecycle), :mod:`standings` (ranking with tie-breaks, see :mod:`scoring.tiebreaks`), :mod:`io`
(tournament JSON, teams CSV, standings/pairings datasets), :mod:`demo` (``manage.py load_demo``).
"""
