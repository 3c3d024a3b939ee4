"""scoring.standings."""
