"""Teams from CSV: kept for its callers; the import of teams and of players lives in
:mod:`scoring.io.entrants_csv` (every row validated like the team form, nothing saved unless every
row is good, errors by line and column)."""
from scoring.io.entrants_csv import TEAM_COLUMNS, ImportReport, import_teams_csv

__all__ = ["TEAM_COLUMNS", "ImportReport", "import_teams_csv"]
