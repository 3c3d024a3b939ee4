"""Django settings, driven by environment variables.

Development reads the file ``.env`` in the project folder too (``make run`` writes one with
``DEBUG=1`` and a generated ``SECRET_KEY`` when there is none). The real environment always wins
over the file, and the file counts only when ``DEBUG`` ends up on: with ``DEBUG`` off in the real
environment (or not set anywhere) nothing is taken from it, so production never takes a value
from a stray ``.env``. Under pytest the file is not read at all. docs/operations.md lists every
variable.

Variables (all optional for the embedded default):

- ``DEBUG``: ``1``/``true`` for development. Default off.
- ``SECRET_KEY``: required in production; a fixed development key is used when ``DEBUG`` is on or
  under pytest.
- ``DATABASE_URL``: e.g. ``postgres://user@127.0.0.1:5432/nskt``. Default: SQLite file
  ``db.sqlite3`` in the project folder.
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``; Celery broker, result backend and Django cache.
  Without it Celery runs tasks eagerly and the cache is in-process memory.
- ``LIVE_EVENTS``: ``0``/``1``: the pages follow server-sent events (default on with ``REDIS_URL``);
  ``LIVE_HEARTBEAT_SECONDS`` (20), ``LIVE_RETRY_MS`` (5000): the event stream's heartbeat and retry;
  ``LIVE_CHANNEL_PREFIX``: the Redis pub/sub prefix (default ``nskt-live-<database number>``).
- ``ALLOWED_HOSTS``: comma-separated host names. Default ``localhost,127.0.0.1`` (plus
  ``testserver`` under tests).
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://nskt.example.org``).
- ``SECURE_SSL_REDIRECT``: ``1`` to redirect http to https in production (default on when not DEBUG
  and not under tests).
- ``SECURE_COOKIES``: ``0`` sends session and CSRF cookies over plain http in production mode (only
  for loopback benchmarks; default on).
- ``TRUSTED_PROXIES``: comma-separated addresses or networks of the reverse proxies
  (``127.0.0.1,::1`` for nginx on the same machine). Forwarded headers (``X-Forwarded-For``,
  ``X-Forwarded-Proto``) are read only from them (``scoring.proxies``). Default: none.
  ``BEHIND_PROXY=1`` (deprecated) without it means ``127.0.0.1,::1``.
- ``LINK_RATE``: requests through one private link on the pages, per link, per period
  (``"120/minute"``; failed attempts have their own growing delays per client address); ``API_RATE_LINK``:
  API requests through one private link, per link.
- ``EMAIL_HOST`` (with ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS``, ``DEFAULT_FROM_EMAIL``): the SMTP server for password reset mails. Without it
  password reset is not offered (in development, ``DEBUG=1``, mails go to the console, and reset
  is not offered either); ``EMAIL_BACKEND`` chooses another Django mail backend.
- ``AXES_FAILURE_LIMIT``, ``AXES_COOLOFF_MINUTES``, ``AXES_COOLOFF_MAX_MINUTES``: login throttling
  per account (5 failures; a cool-off of 1 minute, doubling up to 60).
- ``INVITATION_HOURS``: how long a new login link of a referee or organiser works (24).
- ``STATIC_ROOT``: the folder ``collectstatic`` fills (default ``staticfiles`` in the project folder).
"""
import ipaddress
import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from dotenv import dotenv_values

BASE_DIR = Path(__file__).resolve().parent.parent

TESTING = "pytest" in sys.modules or (len(sys.argv) > 1 and sys.argv[1] == "test")


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean environment variable (1/true/yes/on, case-insensitive)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable as a list of non-empty strings."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def read_env_file(path: Path) -> dict[str, str]:
    """The variables of a development ``.env`` file (``KEY=value`` lines), or none if it is missing."""
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path).items() if value is not None}


ENV_FILE = BASE_DIR / ".env"
_env_file = {} if TESTING else read_env_file(ENV_FILE)
if os.environ.get("DEBUG", "").strip():
    DEBUG = env_bool("DEBUG", False)
    DEBUG_FROM_ENV_FILE = False
else:
    DEBUG = _env_file.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}
    DEBUG_FROM_ENV_FILE = DEBUG
if DEBUG:
    # Development: the file fills in what the real environment leaves out (never the reverse).
    for _key, _value in _env_file.items():
        os.environ.setdefault(_key, _value)
    if DEBUG_FROM_ENV_FILE and not sys.argv[0].endswith("manage.py"):
        # A server or worker started in debug mode by the file alone (no DEBUG in its environment)
        # says so once on stderr: a production process must set DEBUG=0 in its environment.
        print(f"nskt: DEBUG is on because {ENV_FILE} says so; development only "
              "(a production environment sets DEBUG=0).", file=sys.stderr)
PRODUCTION = not DEBUG and not TESTING

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1")
if TESTING:
    ALLOWED_HOSTS.append("testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# A form sent with a stale CSRF token gets the site's own page (nothing saved; open it again).
CSRF_FAILURE_VIEW = "scoring.web.views.account.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_tables2",
    "django_htmx",
    "axes",
    "csp",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "scoring",
]

MIDDLEWARE = [
    "scoring.proxies.ForwardedHeadersMiddleware",  # first: forwarded headers only from TRUSTED_PROXIES
    "scoring.web.unavailable.DatabaseUnavailableMiddleware",  # a lost database: one more try or 503, never 500
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "scoring.web.middleware.SiteLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Login throttling; must stay last.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "nskt.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "scoring.web.context.site",
            ],
        },
    },
]

FORM_RENDERER = "scoring.web.forms.renderer.FormRenderer"

WSGI_APPLICATION = "nskt.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # No "SELECT 1" before every request's first query (a round trip per request, a tenth of a
        # web worker's time in the hall's load scenario): a read on a connection that died is run
        # once more, and a write checks its connection first
        # (scoring.web.unavailable.DatabaseUnavailableMiddleware).
        conn_health_checks=False,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for the write lock instead of failing at once when two requests write together.
    # and take it at the start of every transaction (no read-then-upgrade deadlocks).
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

if TESTING:
    # Fast hashing in tests only; production keeps Django's default (PBKDF2).
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scoring:tournament_list"
LOGOUT_REDIRECT_URL = "scoring:tournament_list"

# Internationalisation: Dutch first, English second.
LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Amsterdam")
USE_TZ = True

STATIC_URL = "static/"
# collectstatic writes here; in production the reverse proxy serves it (deploy/Caddyfile).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
MEDIA_URL = "media/"
# The app's files (round packs, uploaded imports; scoring.files) go through the default storage: a
# folder under MEDIA_ROOT, or an S3-compatible bucket shared by every host when STORAGE_S3_BUCKET
# is set (django-storages; credentials from boto3's usual sources: AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY, or the machine's role). Files are served through Django (with the
# pages' access checks), never by a public bucket address.
STORAGE_S3_BUCKET = os.environ.get("STORAGE_S3_BUCKET", "")
if STORAGE_S3_BUCKET:
    STORAGES["default"] = {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": {
        "bucket_name": STORAGE_S3_BUCKET,
        "endpoint_url": os.environ.get("STORAGE_S3_ENDPOINT_URL") or None,
        "region_name": os.environ.get("STORAGE_S3_REGION") or None,
        "location": os.environ.get("STORAGE_S3_PREFIX", ""),
        "addressing_style": os.environ.get("STORAGE_S3_ADDRESSING_STYLE") or None,
        "default_acl": None,
        "querystring_auth": True,
        # A file read from the bucket spools to a temporary file past 2 MB (not all in memory).
        "max_memory_size": 2 * 1024 * 1024,
    }}
# Stored files no longer needed are deleted by the beat task scoring.tasks.clean_stored_files
# (docs/operations.md, "Stored files"): packs and imports untouched for FILES_KEEP_DAYS days,
# superseded packs and files no job names after FILES_GRACE_MINUTES.
FILES_KEEP_DAYS = float(os.environ.get("FILES_KEEP_DAYS", "14"))
FILES_GRACE_MINUTES = float(os.environ.get("FILES_GRACE_MINUTES", "10"))

# Cache and Celery: Redis when REDIS_URL is set, otherwise in-process and eager.
# A Redis that is down or hangs must never hold a page up: the cache answers or fails within a
# second (no retries; a failure is a miss, scoring.standings.cache), and the broker connection
# gives up after a second without publish retries (the job is then marked failed with a
# message, scoring.tasks.dispatch).
REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_cache(url: str) -> dict:
    """The Django cache settings for Redis at ``url``: one-second socket timeouts, no retries."""
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, "retry": Retry(NoBackoff(), 0)},
    }}


if REDIS_URL:
    CACHES = redis_cache(REDIS_URL)
    # Each process's own memory in front of Redis for values under content keys (the standings
    # of a state, the phones' shared live regions: scoring.caching), kept LOCAL_CACHE_SECONDS.
    CACHES["local"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "nskt-local",
                       "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("LOCAL_CACHE_ENTRIES", "500"))}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

LOCAL_CACHE_SECONDS = int(os.environ.get("LOCAL_CACHE_SECONDS", "60"))

# Live pages (issue 25, scoring.live, docs/operations.md "Live pages"): the pages follow their
# tournament's server-sent events at /events/<slug>/ (the events process, nskt.asgi) and poll only
# as a fallback. The web processes reach the events process through Redis pub/sub, so LIVE_EVENTS
# is on by default only with REDIS_URL; without it (the embedded default, `make run`) the pages
# poll every LIVE_POLL_SECONDS as before. The stream sends a comment every
# LIVE_HEARTBEAT_SECONDS and tells the browser to reconnect after LIVE_RETRY_MS.
LIVE_EVENTS = env_bool("LIVE_EVENTS", bool(REDIS_URL))
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "20"))
LIVE_RETRY_MS = int(os.environ.get("LIVE_RETRY_MS", "5000"))
if REDIS_URL:
    CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        # Pub/sub channels ignore Redis' database number: the prefix carries it, so sites sharing a
        # Redis on different databases never see each other's events.
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 1}],
                   "prefix": os.environ.get("LIVE_CHANNEL_PREFIX", "nskt-live-" + (urlparse(REDIS_URL).path.strip("/") or "0"))},
    }}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A worker killed mid-task leaves its message unacknowledged: Redis hands it to another worker
# after the visibility timeout (seconds; CELERY_VISIBILITY_TIMEOUT, default 5 minutes, longer
# than any round pack takes). Tasks are idempotent (scoring.tasks).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300")),
    "unacked_restore_interval": int(os.environ.get("CELERY_RESTORE_INTERVAL", "10")),
    "unacked_restore_throttle": int(os.environ.get("CELERY_RESTORE_THROTTLE", "3")),
    "socket_connect_timeout": 1,
    "socket_timeout": 2,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 2
# A pending job no worker took for this long is shown as failed and can be started again
# (scoring.tasks.settle); longer than the visibility timeout.
TASK_STALE_SECONDS = int(os.environ.get("TASK_STALE_SECONDS", "360"))
# A running job beats every TASK_HEARTBEAT_SECONDS; without a beat for TASK_HEARTBEAT_TIMEOUT its
# worker counts as dead and the job as failed (issue 22 item 6, scoring.tasks.Heartbeat).
TASK_HEARTBEAT_SECONDS = float(os.environ.get("TASK_HEARTBEAT_SECONDS", "10"))
TASK_HEARTBEAT_TIMEOUT = int(os.environ.get("TASK_HEARTBEAT_TIMEOUT", "60"))
# A CSV import of more rows than this runs as a background job with progress.
IMPORT_INLINE_ROWS = int(os.environ.get("IMPORT_INLINE_ROWS", "500"))
# Celery beat (one process per service): periodic tasks.
CELERY_BEAT_SCHEDULE = {
    "clean-stored-files": {"task": "scoring.tasks.clean_stored_files",
                           "schedule": float(os.environ.get("FILES_CLEAN_SECONDS", "3600"))},
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Security. Production (DEBUG off, not under tests) gets secure cookies, HSTS and https redirects.
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the cookie-free meta tag; keep default.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if PRODUCTION:
    # SECURE_COOKIES=0 only for plain-http loopback runs such as the load benchmark.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Login throttling (django-axes, scoring.participants.logins): failures are counted per account
# from every address together; after AXES_FAILURE_LIMIT of them the account waits a cool-off that
# doubles each time the limit is reached again within a day (AXES_COOLOFF_MINUTES up to
# AXES_COOLOFF_MAX_MINUTES). Tries during a lockout are not counted; each failure expires on its
# own; a successful login clears them. The lockout answer is the site's page (429).
AXES_ENABLED = env_bool("AXES_ENABLED", not TESTING)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_MINUTES = float(os.environ.get("AXES_COOLOFF_MINUTES", "1"))
AXES_COOLOFF_MAX_MINUTES = float(os.environ.get("AXES_COOLOFF_MAX_MINUTES", "60"))
AXES_COOLOFF_TIME = "scoring.participants.logins.cool_off"
# Per account from every address ("username"); the pair is listed for axes' own deploy check (W006)
# and counts nothing more (its failures are a part of the account's).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USE_ATTEMPT_EXPIRATION = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_CALLABLE = "scoring.web.views.account_pages.locked_out"
# Proxy trust (issue 22 item 5, scoring.proxies): forwarded headers count only from TRUSTED_PROXIES
# (addresses or networks). One client-address function serves the login throttling (axes), the
# API's rate limits and the private links' guessing limit; X-Forwarded-Proto (and so https) is
# believed only from a trusted proxy (ForwardedHeadersMiddleware drops it from anyone else).
# BEHIND_PROXY=1 is the deprecated way of saying "the proxy runs on this machine".
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
if not TRUSTED_PROXIES and env_bool("BEHIND_PROXY", False):
    TRUSTED_PROXIES = ["127.0.0.1", "::1"]
for _entry in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_entry, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_entry!r} is not an address or a network") from None
AXES_CLIENT_IP_CALLABLE = "scoring.proxies.client_address"
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Mail (password reset). SMTP when EMAIL_HOST is set; the console in development; otherwise no
# mail, and the password reset pages are not offered (MAIL_CONFIGURED, nskt.urls).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# Another way out (e.g. Django's file backend in a test set-up): EMAIL_BACKEND in the environment.
if os.environ.get("EMAIL_BACKEND"):
    EMAIL_BACKEND = os.environ["EMAIL_BACKEND"]
# Password reset is offered only when a mail can reach the user: an SMTP server, or a backend set
# in the environment that is not the console or dummy one. Without it the login page says to ask
# the organiser (who can set a password or make a login link).
MAIL_CONFIGURED = bool(EMAIL_HOST) or EMAIL_BACKEND.rsplit(".", 2)[-2] not in {"console", "dummy", "locmem"}
# Hours a new login link (invitation) of a referee or organiser works by default.
INVITATION_HOURS = int(os.environ.get("INVITATION_HOURS", "24"))

# Content security policy (django-csp): only our own scripts (plus per-request nonces for the few
# inline ones), no framing, forms post only to us.
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# Private links of teams and players (issue 15, docs/private-links.md): requests through a working
# link are counted per link, failed attempts (guessing) per client address, in the cache.
LINK_RATE = os.environ.get("LINK_RATE", "120/minute")

# The REST API (scoring/api, docs/api.md). Its views set their own authentication, parser,
# renderer and throttle classes; these defaults also serve the schema and docs views.
API_THROTTLE_RATES = {
    "anon": os.environ.get("API_RATE_ANON", "300/minute"),
    "user": os.environ.get("API_RATE_USER", "600/minute"),
    "engines": os.environ.get("API_RATE_ENGINES", "60/minute"),
    "link": os.environ.get("API_RATE_LINK", "120/minute"),
}
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["scoring.api.auth.TokenAuthentication", "scoring.api.auth.LinkAuthentication",
                                       "rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["scoring.api.throttling.AnonThrottle", "scoring.api.throttling.ActorThrottle"],
    "DEFAULT_THROTTLE_RATES": API_THROTTLE_RATES,
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
# API tokens (django-rest-knox; scoring/participants/api_tokens.py, docs/api.md): only a SHA-512
# of each token is stored, in the app's own model (with a name and when it was last used). A token
# reads "nskt_" + 64 hex digits; it lives 30 days unless its user chooses otherwise (1 to 90 days
# on the account page, up to 365 with manage.py api_token); at most 10 unexpired tokens per user.
KNOX_TOKEN_MODEL = "scoring.ApiToken"
# knox's own migrations would create its unused default table (knox_authtoken) even though the
# model is swapped out; without migrations no table is made for it.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=30),
    "TOKEN_PREFIX": "nskt_",
    "TOKEN_LIMIT_PER_USER": 10,
    "AUTH_HEADER_PREFIX": "Token",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "NSKT tournaments API",
    "DESCRIPTION": "Tournaments, rounds, standings and results of Tai Pan and the four-player games; result entry "
                   "with an API token; the rule engines' commands. See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from our own static files (the CSP allows scripts from 'self' only).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "RoundStatusEnum": "scoring.models.rounds.Round.Status",
        "ResultStatusEnum": "scoring.models.results.ResultContainer.Status",
        "TournamentStatusEnum": "scoring.models.tournaments.Tournament.Status",
        "PublicNamesEnum": "scoring.models.persons.PublicNames",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
