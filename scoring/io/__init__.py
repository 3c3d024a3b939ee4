"""scoring.io."""
