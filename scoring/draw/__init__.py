"""scoring.draw."""
