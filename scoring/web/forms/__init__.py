"""scoring.web.forms."""
