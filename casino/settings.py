"""One settings module, read from the environment with defaults that just run.

Embedded defaults (a newcomer's machine): SQLite, a Celery broker on the local filesystem (a real
worker process still runs the tasks), local media and report storage.  Production and CI set
``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis).
"""

import os
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("CASINO_VAR_DIR", default=str(BASE_DIR / "var")))

env = environ.Env()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """A boolean from the environment; anything but 1/0, true/false, yes/no, on/off is an error.

    django-environ's ``env.bool`` reads every unknown string as False, so ``HTTPS=ture`` would quietly
    turn the HTTPS hardening off.  Unset or empty: ``default``.
    """
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no or on/off")


def _number(name: str, default: str, *, low: float | None = None, high: float | None = None) -> Decimal:
    """A decimal number from the environment within [low, high]; anything else is an error at start."""
    raw = os.environ.get(name, "").strip() or default
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if not value.is_finite() or (low is not None and value < Decimal(str(low))) or (
            high is not None and value > Decimal(str(high))):
        raise ImproperlyConfigured(f"{name}={raw!r} must be between {low} and {high}")
    return value


DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS hardening: on in production (HTTPS=1), off by default so the embedded run and the tests work
# over plain http on localhost.  `HTTPS=1 SECRET_KEY=... manage.py check --deploy` is clean.
HTTPS = env_bool("HTTPS", default=False)

# The development key signs sessions and password-reset links of the embedded demo only: it is public
# (it is in this file).  It is accepted while HTTPS is off and every allowed host is this machine; in
# production (HTTPS=1, or real host names) a missing or development SECRET_KEY stops the start, and
# `manage.py check --deploy` reports it (casino.E001, casino/checks.py).
DEVELOPMENT_SECRET_KEY = "dev-insecure-" + "k" * 50
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1", "testserver"})
SECRET_KEY = env.str("SECRET_KEY", default="").strip() or DEVELOPMENT_SECRET_KEY
if SECRET_KEY == DEVELOPMENT_SECRET_KEY and (HTTPS or not set(ALLOWED_HOSTS) <= LOCAL_HOSTS):
    raise ImproperlyConfigured(
        "SECRET_KEY is missing or is the development key, which is public: set SECRET_KEY to a long random "
        "secret (python -c 'import secrets; print(secrets.token_urlsafe(50))').  The development key is "
        f"accepted only with HTTPS off and ALLOWED_HOSTS local ({', '.join(sorted(LOCAL_HOSTS))})."
    )
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
# Load balancers probe /healthz over plain http inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, not a CDN
    "csp",
    "simple_history",
    "django_celery_beat",
    "axes",  # before "tables": the role groups (post_migrate of tables) grant axes' view permissions
    "tables",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files need no database
    # A database that is down or silent answers 503 (JSON under /api/, with Retry-After), never a 500
    # and never after more than DB_QUERY_DEADLINE seconds.
    "casino.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last: turns a sign-in refused by the lockout into the lockout answer (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out user name before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'casino.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite under a web server and a worker at once: wait for locks instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # A transaction takes the write lock when it begins (BEGIN IMMEDIATE): a deferred one that reads
    # first and then writes fails at once with "database is locked" when another process wrote in
    # between, whatever the timeout (the web server and the worker of bin/run did exactly that).
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # Tests use a file too: the in-memory database's shared cache fails a concurrent read at once
    # ("database table is locked") where a file waits for the lock, as the running system does.
    # One file per test process, so two test runs on one machine do not share (and delete) it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that is down or never answers must not hold a worker: give up connecting after
    # DB_CONNECT_TIMEOUT seconds (libpq's minimum is 2) and cancel any statement running (or waiting
    # for a lock) longer than DB_STATEMENT_TIMEOUT seconds (0: no limit, e.g. for a long migration run as
    # the owner role).  The request then answers 503 (casino.middleware), never hangs.
    DB_CONNECT_TIMEOUT = env.int("DB_CONNECT_TIMEOUT", default=5)
    DB_STATEMENT_TIMEOUT = env.float("DB_STATEMENT_TIMEOUT", default=15.0)
    if DB_CONNECT_TIMEOUT < 1 or DB_STATEMENT_TIMEOUT < 0:
        raise environ.ImproperlyConfigured("DB_CONNECT_TIMEOUT must be >= 1 and DB_STATEMENT_TIMEOUT >= 0 (seconds)")
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
    # A server that vanishes mid-query (host down, network cut) sends no error at all: TCP keepalives
    # find the dead peer in about 5 + 3 x 2 = 11 s instead of the kernel's two hours.
    _options.setdefault("keepalives", 1)
    _options.setdefault("keepalives_idle", 5)
    _options.setdefault("keepalives_interval", 2)
    _options.setdefault("keepalives_count", 3)
    _options["options"] = (
        _options.get("options", "") + f" -c statement_timeout={int(DB_STATEMENT_TIMEOUT * 1000)}"
    ).strip()
    # A connection pool per process (Django's, psycopg_pool): at most DB_POOL_MAX_SIZE connections, a
    # request waiting up to DB_POOL_TIMEOUT seconds for one (then 503).  Off (0) by default; behind a
    # loaded web tier it keeps the server's connection limit from being hit ("too many clients": 641
    # failed commands at 500 tables, docs/floor-scale.md).  Needs CONN_MAX_AGE 0.
    DB_POOL_MAX_SIZE = int(_number("DB_POOL_MAX_SIZE", "0", low=0, high=1000))
    DB_POOL_TIMEOUT = float(_number("DB_POOL_TIMEOUT", "10", low=1, high=300))
    if DB_POOL_MAX_SIZE:
        if DATABASES["default"]["CONN_MAX_AGE"]:
            raise environ.ImproperlyConfigured("DB_POOL_MAX_SIZE needs CONN_MAX_AGE=0 (the pool keeps the connections)")
        _options["pool"] = {"min_size": min(2, DB_POOL_MAX_SIZE), "max_size": DB_POOL_MAX_SIZE,
                            "timeout": DB_POOL_TIMEOUT}
# Seconds a web request waits for any one answer of PostgreSQL (a query, a COMMIT) before it drops the
# connection and answers 503: the client-side deadline that still works when the server is frozen and
# its own statement_timeout cannot fire (casino/db_deadline.py).  Requests only: Celery tasks and
# management commands keep the server-side statement_timeout alone.
DB_QUERY_DEADLINE = float(_number("DB_QUERY_DEADLINE", "5", low=1, high=300))
# Seconds a client is told to wait (Retry-After) when the database is unavailable; a worker that found
# the database unreachable answers 503 at once for as long (casino/middleware.py).
DB_UNAVAILABLE_RETRY_AFTER = int(_number("DB_UNAVAILABLE_RETRY_AFTER", "5", low=1, high=300))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

# Django's four standard validators (forms, `changepassword`, `createsuperuser`): not too like the
# user's name or e-mail, at least PASSWORD_MIN_LENGTH characters, not a common password, not all digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": env.int("PASSWORD_MIN_LENGTH", default=12)},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# Dates as the dashboard writes them ("Thu 26 Nov 2026, 16:41"), not en-us's "Nov. 26, 2026, 4:41 p.m.".
FORMAT_MODULE_PATH = ["casino.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# MEDIA_ROOT holds the scan images: no URL serves it (never public media; the web server must not
# either).  A scan's image is served by GET /api/scans/<id>/image/ to those who may read its round.
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
REPORTS_ROOT = Path(env.str("REPORTS_ROOT", default=str(VAR_DIR / "reports")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

LOGIN_URL = "/tablet/login/"  # one sign-in page for the tablet, the dashboard and the landing page


def _positive(name: str, value: int) -> int:
    if value <= 0:
        raise ImproperlyConfigured(f"{name}={value} must be a positive whole number")
    return value


# Sign-in lockout (django-axes) on every login: /api/auth/token/, /tablet/login/, /admin/login/.
# AXES_FAILURE_LIMIT wrong passwords for one user name from one address lock that pair out for
# AXES_COOLOFF_MINUTES; a successful sign-in clears the count.  Attempts are stored in the database and
# shown in the back office (Axes: access attempts, failures, logs); a lockout writes an audit event.
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = _positive("AXES_FAILURE_LIMIT", env.int("AXES_FAILURE_LIMIT", default=5))
AXES_COOLOFF_MINUTES = _positive("AXES_COOLOFF_MINUTES", env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_COOLOFF_TIME = timedelta(minutes=AXES_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_CALLABLE = "tables.api.errors.lockout_response"

# API tokens (django-rest-knox): one per sign-in and device, expiring after API_TOKEN_TTL_HOURS (a
# dealer's shift), revocable (/api/auth/logout/, /api/auth/logout-all/), all revoked on a password change.
API_TOKEN_TTL_HOURS = _positive("API_TOKEN_TTL_HOURS", env.int("API_TOKEN_TTL_HOURS", default=12))
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=API_TOKEN_TTL_HOURS),
    "AUTH_HEADER_PREFIX": "Token",  # the tablet contract: "Authorization: Token <token>"
    "AUTO_REFRESH": False,
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Every API view (the token login included) answers errors as JSON and refuses over-deep JSON with a 400.
    "DEFAULT_PARSER_CLASSES": [
        "tables.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "tables.api.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino tables API",
    "DESCRIPTION": "Dealer tablet, round verification and pit-boss API.",
    "VERSION": "0.1.0",
    # Swagger UI's files come from drf-spectacular-sidecar (our static files): /api/docs/ works
    # offline and under the CSP below.  No online validator badge (an outside image).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# Content-Security-Policy on every response (django-csp): scripts and styles only from our own
# origin, no inline script anywhere (the templates load static files; Swagger UI's start-up script is
# a separate request, casino/urls.py), nothing framed, no plugins.  data: images are Swagger UI's
# icons.  CSP_REPORT_ONLY=1 sends it as Content-Security-Policy-Report-Only to try a change first.
_CSP = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
if env.bool("CSP_REPORT_ONLY", default=False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP
else:
    CONTENT_SECURITY_POLICY = _CSP

# Celery: a broker that needs no server by default (kombu's filesystem transport; a real worker
# process consumes from it).  CELERY_BROKER_URL=redis://... in production and CI.
_BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_BROKER_DIR / "in"),
        "data_folder_out": str(_BROKER_DIR / "in"),
        "processed_folder": str(_BROKER_DIR / "processed"),
        "control_folder": str(_BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=600)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=900)
CELERY_TIMEZONE = TIME_ZONE
# The beat schedule lives in the database, editable in the back office (django-celery-beat's admin).
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

# Theory shown in the back office (tables/services/theory.py): the Finnish 27 simulation of a pay-table
# version (25 million rounds: about +-0.05% at 95% in a few seconds on two cores) and the strategy
# of the player's free choices ("improved" or "rule-text").
THEORY_SIMULATION_ROUNDS = env.int("THEORY_SIMULATION_ROUNDS", default=25_000_000)

# The application's own settings (read through tables/conf.py; every one from the environment).
PAYOUT_APPROVAL_AMOUNT = _number("PAYOUT_APPROVAL_AMOUNT", "5000.00", low=0.01)  # a line paying this needs a pit boss
PAYOUT_APPROVAL_MULTIPLE = _number("PAYOUT_APPROVAL_MULTIPLE", "100", low=1)  # ... or this many times its wager
SCAN_CONFIDENCE_THRESHOLD = float(_number("SCAN_CONFIDENCE_THRESHOLD", "0.9", low=0, high=1))  # below: the dealer confirms (the reader is calibrated so that 0.9 or more is 99.9% right; what it is unsure of, it caps at 0.85)
GAMING_DAY_START_HOUR = int(_number("GAMING_DAY_START_HOUR", "6", low=0, high=23))
AUDIT_THEORY_F27_ROUNDS = _positive("AUDIT_THEORY_F27_ROUNDS", env.int("AUDIT_THEORY_F27_ROUNDS", default=400_000))
AUDIT_THEORY_BJ_ROUNDS = _positive("AUDIT_THEORY_BJ_ROUNDS", env.int("AUDIT_THEORY_BJ_ROUNDS", default=20_000))
AUDIT_HOLD_CONFIDENCE = float(_number("AUDIT_HOLD_CONFIDENCE", "0.99", low=0.5, high=0.999999))
AUDIT_FLAT_THRESHOLD_POINTS = (float(_number("AUDIT_FLAT_THRESHOLD_POINTS", "0", low=0))
                               if os.environ.get("AUDIT_FLAT_THRESHOLD_POINTS", "").strip() else None)
AUDIT_EARLY_SHUFFLE_TOLERANCE = int(_number("AUDIT_EARLY_SHUFFLE_TOLERANCE", "0", low=0, high=1000))
AUDIT_PG_RANDOM_PAGE_COST = float(_number("AUDIT_PG_RANDOM_PAGE_COST", "1.1", low=0.1, high=100))
AUDIT_REPORT_RECIPIENTS = env.list("AUDIT_REPORT_RECIPIENTS", default=[])
# Table accounting (docs/accounting.md): counted win (tray, fills, credits, drop) may differ from the
# tracked win of the rounds by this much before a shift is flagged (currency units; 0 flags any cent).
ACCOUNTING_WIN_TOLERANCE = _number("ACCOUNTING_WIN_TOLERANCE", "1.00", low=0, high=1_000_000)
THEORY_STRATEGY = env.str("THEORY_STRATEGY", default="improved")
# Idempotency records (each write's first answer, replayed to a retry with the same Idempotency-Key)
# are kept this many hours, then purged hourly (tables.purge_idempotency): a retry comes within
# seconds, and the records were two thirds of the database's growth (docs/floor-scale.md).
IDEMPOTENCY_KEEP_HOURS = int(_number("IDEMPOTENCY_KEEP_HOURS", "24", low=1, high=24 * 90))
# Maker-checker: publishing a rule set or pay table needs a second games manager's approval.
PUBLISH_NEEDS_SECOND_APPROVAL = env_bool("PUBLISH_NEEDS_SECOND_APPROVAL", default=True)

# The push channel (docs/push.md): server-sent events through django-eventstream.  PUSH_REDIS_URL
# (redis://host:6379/2) fans events out between processes over Redis pub/sub; unset, events are
# delivered inside the process that wrote them (the embedded run: one web process).  No event store:
# a client that reconnects reloads its view (polling stays the fallback), so no database writes per event.
PUSH_REDIS_URL = env.str("PUSH_REDIS_URL", default="").strip()
if PUSH_REDIS_URL:
    from urllib.parse import urlparse as _urlparse

    _push = _urlparse(PUSH_REDIS_URL)
    if _push.scheme not in ("redis", "rediss") or not _push.hostname:
        raise ImproperlyConfigured(f"PUSH_REDIS_URL={PUSH_REDIS_URL!r} is not a redis:// URL")
    EVENTSTREAM_REDIS = {"host": _push.hostname, "port": _push.port or 6379,
                         "db": int((_push.path or "/0").lstrip("/") or 0), "ssl": _push.scheme == "rediss"}
    if _push.password:
        EVENTSTREAM_REDIS["password"] = _push.password
EVENTSTREAM_CHANNELMANAGER_CLASS = "tables.api.events.ChannelManager"
# Seconds between the dashboard's fallback polls while the push stream is connected (and when not).
PUSH_FALLBACK_POLL_SECONDS = int(_number("PUSH_FALLBACK_POLL_SECONDS", "60", low=5, high=3600))

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="audit@casino.local")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# The folders of the embedded defaults (the SQLite file, the filesystem broker, media, reports) are
# made when the app starts (tables.apps.TablesConfig.ready), not when this module is imported.
LOCAL_DIRS = [VAR_DIR, MEDIA_ROOT, REPORTS_ROOT, STATIC_ROOT]
if CELERY_BROKER_URL.startswith("filesystem://"):
    LOCAL_DIRS += [_BROKER_DIR / sub for sub in ("in", "processed", "control")]
