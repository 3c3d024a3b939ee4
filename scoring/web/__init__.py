"""scoring.web."""
