"""scoring.games."""
