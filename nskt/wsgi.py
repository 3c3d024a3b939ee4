"""WSGI entry point (gunicorn nskt.wsgi)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nskt.settings")
application = get_wsgi_application()
