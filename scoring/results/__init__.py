"""scoring.results."""
