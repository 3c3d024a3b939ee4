"""scoring.web.views."""
