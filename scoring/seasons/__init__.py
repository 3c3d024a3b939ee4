"""Seasons: rankings over several tournaments (issue 26 item 3, docs/players.md "Season ranking"):
the ranking (:mod:`scoring.seasons.ranking`), creating and editing seasons
(:mod:`scoring.seasons.manage`); the federation export is :mod:`scoring.io.season_export`, the PDF
:mod:`scoring.printing.seasons`."""
