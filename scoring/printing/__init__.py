"""scoring.printing."""
