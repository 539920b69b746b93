"""Settings for the Doppelkopf tournament system, read from the environment.

Every variable is documented in the manual (docs/configuration.md). Without any of them set, the site
runs on a SQLite file under ``var/`` and runs Celery tasks in-process, which is what ``make run``
and the tests use.
"""

import json
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)


def _secret_key() -> str:
    """The key from SECRET_KEY; local (DEBUG) runs generate one once and keep it under var/."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment (production), or set DEBUG=true "
            "for a local run, which keeps a generated key under var/."
        )
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The address the phones in the hall open (QR codes, printed and shown links): e.g.
# http://192.168.1.20:8000/ when `make run HOST=0.0.0.0` serves a venue's network. Empty: the
# address each request arrived on (tournaments/site.py). Mails name SITE_URL only, never a
# request's address (tournaments/mails.py): a production site that sends mail must set it.
SITE_URL = os.environ.get("SITE_URL", "")
if SITE_URL and ALLOWED_HOSTS != ["*"]:
    # The site's own address is always one it answers to.
    ALLOWED_HOSTS.append(urlsplit(SITE_URL).hostname or "")

INSTALLED_APPS = [
    # Django's administration, whose site asks a second factor of the accounts that need one
    # (config/second_factor/site.py).
    "config.second_factor.apps.AdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    # The second factor: codes of an authenticator app (TOTP) and backup codes (django-otp).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "config.second_factor",
    "tournaments",
    "rankings",
    "registration",
    "scoring",
    "adjudication",
    "teams",
    "printing",
    "backup",
    "demo",
]

MIDDLEWARE = [
    # Work a request sets off (mails) runs after its response is sent
    # (tournaments/after_response.py).
    "tournaments.after_response.AfterResponseMiddleware",
    # The table versions a request raised are in the cache before its answer leaves
    # (tournaments/caching.py): their answers are read after the page is made.
    "tournaments.caching.VersionsSettledMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY), on static files too.
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An ETag for every page and API answer that sets none itself, and a 304 when it matches.
    "django.middleware.http.ConditionalGetMiddleware",
    # "private, no-store" on every answer for a login or through a key (config/privacy.py);
    # inside WhiteNoise, so that the static files stay cached for everyone.
    "config.privacy.PrivatePagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
            ],
        },
    },
]

# Database -----------------------------------------------------------------------------------
# Default: a SQLite file under var/. WAL lets readers go on while one writer writes; IMMEDIATE
# makes every transaction take the write lock when it begins, so two writers queue on
# busy_timeout instead of failing with "database is locked" when a read lock is upgraded.
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000"
        ),
    }
else:
    # A new connection is dear for its first statements: PostgreSQL forks a process for it,
    # whose caches of the tables and indexes start empty, and plans each of its queries until
    # they are prepared (below). Renewed every minute, a web thread's connection at a quiet
    # table's pace (a save a few seconds apart) made half its saves on a fresh one: a save
    # waited 6.9 ms for the database where it waited 1.8 on a connection kept for the run
    # (issue 45). Ten minutes keep that a rare first request's.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "600"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # PostgreSQL plans a query anew on every call unless it is prepared, and the day's queries
    # join many tables (a seat's lookup by its key seven): a hand's save's statements took
    # 0.5-0.9 ms each in the server, 0.15 prepared (issue 45). With the parameters bound in
    # the server, psycopg prepares a query the connection has run DATABASE_PREPARE_THRESHOLD
    # times (psycopg's own default, 5); "off" plans every call anew, as a pooler in
    # transaction mode that cannot keep prepared statements needs.
    _prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5").strip().lower()
    if _prepare != "off":
        if not _prepare.isdigit():
            raise ImproperlyConfigured(
                f"DATABASE_PREPARE_THRESHOLD must be a whole number or off, not {_prepare!r}."
            )
        DATABASES["default"]["OPTIONS"] = {
            **DATABASES["default"].get("OPTIONS", {}),
            "server_side_binding": True,
            "prepare_threshold": int(_prepare),
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:home"
LOGOUT_REDIRECT_URL = "tournaments:home"

# Languages: German first, English second -----------------------------------------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times as each language's readers write them (24.11.2026, 14:05), config/formats/.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

# Static files and uploads --------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = "media/"  # never served directly: downloads go through views that check access


def _storage_options() -> dict:
    text = os.environ.get("FILE_STORAGE_OPTIONS", "").strip()
    try:
        options = json.loads(text) if text else {}
    except ValueError as error:
        raise ImproperlyConfigured(f"FILE_STORAGE_OPTIONS is not JSON: {error}.") from error
    if not isinstance(options, dict):
        raise ImproperlyConfigured("FILE_STORAGE_OPTIONS must be a JSON object.")
    return options


# Uploaded and generated files (the signed sheets' photos and scans, printouts) go through the
# storage API: by default files under MEDIA_ROOT; FILE_STORAGE names any other storage class,
# e.g. an object store that several web servers share, with its options as JSON.
STORAGES = {
    "default": {
        "BACKEND": os.environ.get("FILE_STORAGE", "").strip()
        or "django.core.files.storage.FileSystemStorage",
        "OPTIONS": _storage_options(),
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Redis: the cache and the Celery broker -----------------------------------------------------
# Two jobs with opposite needs: a full cache may drop what it holds (everything in it is made
# again from the database), a full broker must never drop a queued task. docker-compose.yml
# gives each a Redis of its own: the cache's with a memory limit and LRU eviction, the broker's
# with `noeviction`. CELERY_BROKER_URL unset: the broker is REDIS_URL's Redis too (fine without
# a memory limit). Neither set: tasks run in-process and the cache is in memory.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "") or REDIS_URL
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # No broker: tasks run in-process, at once, in the request that queues them.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's backend, each connection pool's client made once (config/redis_cache.py).
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "doko",
            # A cache that does not answer must not hold a page up: readers fall back to the
            # database (tournaments.caching.cache_get).
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The standings and ranking lists are cached under their version, so an entry is never stale;
# it only expires to make room.
STANDINGS_CACHE_SECONDS = 24 * 60 * 60
# Each web process keeps a tournament's own fields (name, standings version, what is public) in
# its memory this long for the public pages that phones refresh: other processes show a change
# at most this much later. 0: always ask the cache.
TOURNAMENT_HEAD_LOCAL_SECONDS = float(os.environ.get("TOURNAMENT_HEAD_LOCAL_SECONDS", "2"))
# Each process's own memory in front of the cache (tournaments.caching.memory), for what is
# cached under its version and so never goes stale (the standings pages and API answers) and the
# tournaments' own fields: the least recently used is forgotten past this size.
LOCAL_CACHE_BYTES = int(os.environ.get("LOCAL_CACHE_MB", "32")) * 1024 * 1024
# The desk's list of a round's sheets (scoring.views.desk) is cached under the round's version, which
# every change to them raises (tournaments.caching.round_version), and kept this long at most:
# for a change that raises none (one made in the administration, or while the cache was down)
# and, without Redis, for the other web processes, whose caches a change does not reach.
DESK_CACHE_SECONDS = int(os.environ.get("DESK_CACHE_SECONDS", "60"))
# A member of the desk keeps its page open all round. Who may read a round's desk is looked up
# (his session, his account, his roles) at most once this long per session and web process, and
# a round's version asked of the cache at most once this long: a logout or a role taken away
# reaches the other web processes, and a change the desk shows reaches the other processes' desk
# pages, at most this much later (the process that made it at once). 0: every request.
DESK_READER_SECONDS = float(os.environ.get("DESK_READER_SECONDS", "2"))
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged only when it has finished, and a task whose worker died is handed to
# another worker: together with idempotent tasks, a killed worker loses no job.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# While the broker is down, sending a task must give up quickly: the confirm (or the click) that
# sends it waits, and then does the work in-process (services.standings_schedule,
# printing.jobs.job_enqueue). Celery's default retries three times (0.6 s against a refused connection)
# and redis-py waits for the operating system to give up connecting (minutes, for an address
# that does not answer). Two quick retries still ride out a connection that broke since the last
# send; tests/test_faults.py measures the confirm with Redis stopped.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1}
CELERY_TIMEZONE = TIME_ZONE
# The recovery of lost work (printing.services.work_recover): print jobs and standings
# rebuilds whose worker died or whose message was lost are queued again. Celery beat (the
# `beat` service of docker-compose.yml) runs it every RECOVER_EVERY_SECONDS; `manage.py recover`
# runs it by hand or from cron. A job is lost once it has made no progress for
# RECOVER_JOBS_MINUTES (longer than its longest step); a rebuild once it was wanted
# RECOVER_STANDINGS_SECONDS ago and not done (longer than a rebuild waits in the queue).
RECOVER_EVERY_SECONDS = float(os.environ.get("RECOVER_EVERY_SECONDS", "60"))
RECOVER_JOBS_MINUTES = float(os.environ.get("RECOVER_JOBS_MINUTES", "10"))
RECOVER_STANDINGS_SECONDS = float(os.environ.get("RECOVER_STANDINGS_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    "recover": {"task": "printing.recover", "schedule": RECOVER_EVERY_SECONDS},
}

# API -----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: a client with a bad token gets 401 with WWW-Authenticate, not 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON that no field can hold (a lone surrogate, NUL, an integer beyond 64 bits) is a 400
    # by field where it is parsed (api_base/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "api_base.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "api_base.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    # Proxies in front of the app that append to X-Forwarded-For: 0 trusts only the socket's
    # address, so a client cannot pick the address its requests are counted under.
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
}
# Rate limits of the public rules endpoints (limits/throttles.py): per client, and per address
# for all the clients behind it together (a venue's Wi-Fi).
PUBLIC_API_RATE_CLIENT = os.environ.get("PUBLIC_API_RATE_CLIENT", "240/min")
PUBLIC_API_RATE_ADDRESS = os.environ.get("PUBLIC_API_RATE_ADDRESS", "6000/min")
# Registrations sent on the public registration page and its API (registration/registration_limits.py):
# few per client (its signed cookie), many per address, so that a club registering its members
# from one shared connection gets through.
REGISTRATION_RATE_CLIENT = os.environ.get("REGISTRATION_RATE_CLIENT", "10/hour")
REGISTRATION_RATE_ADDRESS = os.environ.get("REGISTRATION_RATE_ADDRESS", "60/hour")
# Failed logins (login page, the administration's, POST /api/v1/auth/token; limits/logins.py).
# Only wrong passwords and codes are counted (a request without a password counts against
# nobody), by user name, never by address alone. A device that signed in as a name before (its
# signed cookie, limits/devices.py) is counted on its own and locked out of that name after
# LOGIN_RATE_DEVICE failures; nothing else refuses it. Every other device is slowed, never
# locked: once the name failed LOGIN_RATE_USERNAME times from anywhere or
# LOGIN_RATE_USERNAME_ADDRESS times from one address, one try a minute per name and address.
# Successful logins are not counted.
LOGIN_RATE_DEVICE = os.environ.get("LOGIN_RATE_DEVICE", "10/15min")
LOGIN_RATE_USERNAME_ADDRESS = os.environ.get("LOGIN_RATE_USERNAME_ADDRESS", "10/15min")
LOGIN_RATE_USERNAME = os.environ.get("LOGIN_RATE_USERNAME", "10/15min")
LOGIN_RATE_SLOWED = os.environ.get("LOGIN_RATE_SLOWED", "1/min")
# The second factor (config/second_factor/): any account may set up an authenticator app; the
# administration's accounts (staff and superusers) must when this is on, before anything else.
# On in production, off in the DEBUG demo of `make run`.
OTP_REQUIRED_FOR_ADMINS = env_bool("OTP_REQUIRED_FOR_ADMINS", default=not DEBUG)
# The name the authenticator app shows beside the account: the site's host, when known.
OTP_TOTP_ISSUER = urlsplit(SITE_URL).hostname or "Doppelkopf"
# Wrong codes count as failed logins (limits/logins.py), with its answers (429, Retry-After) and
# its rule that a device that signed in before is never kept out by others' failures;
# django-otp's own back-off per account, which would refuse even the owner's right code without
# saying so, is off.
OTP_TOTP_THROTTLE_FACTOR = 0
OTP_STATIC_THROTTLE_FACTOR = 0
# The administration shows no secret of anyone's authenticator, nor his backup codes.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
# Requests for a password-reset mail (config/accounts.py), per e-mail address (no inbox is
# flooded) and per client address.
PASSWORD_RESET_RATE_EMAIL = os.environ.get("PASSWORD_RESET_RATE_EMAIL", "5/h")
PASSWORD_RESET_RATE_ADDRESS = os.environ.get("PASSWORD_RESET_RATE_ADDRESS", "20/h")
# Requests through the seats' private links (scoresheet pages /s/<key>/ and the API's X-Seat-Key,
# scoring/links.py): writes and live checks per valid link, and made-up keys per address (they
# never count against a valid link).
SEAT_LINK_RATE = os.environ.get("SEAT_LINK_RATE", "120/min")
SEAT_LINK_RATE_UNKNOWN = os.environ.get("SEAT_LINK_RATE_UNKNOWN", "300/min")
# Made-up keys per address through the players' personal links (/p/<key>/ and the API's
# X-Player-Key, registration/personal_keys.py); valid keys are never counted.
PERSONAL_LINK_RATE_UNKNOWN = os.environ.get("PERSONAL_LINK_RATE_UNKNOWN", "300/min")
PUBLIC_API_MAX_BODY = 64 * 1024  # bytes; a 30-hand scoresheet is about 5 KB
SPECTACULAR_SETTINGS = {
    "TITLE": "Doppelkopf tournament API",
    "DESCRIPTION": (
        "Tournaments played by the Tournament Rules (TSR) of the German Doppelkopf "
        "Association (DDV). Reading is public; writing needs a session or a token "
        "(POST /api/v1/auth/token)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "doko.rules.value.Game",
        "NormalOrSoloEnum": [("normal", "normal"), ("solo", "solo")],
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "RegistrationStateEnum": "registration.models.Registration.State",
        "RegistrationResultEnum": [(s, s) for s in ("registered", "waiting")],
        "TiebreakChainEnum": "tournaments.models.Tiebreaks",
        "TiebreaksEnum": [(t, t) for t in ("placings", "best_round", "start_number")],
    },
}

# E-mail: invitations of new staff and password resets ---------------------------------------
# Without EMAIL_HOST, mails are written to the server's output (the console backend) and the
# staff page says that the invitation link is to be passed on by hand; with it, sent by SMTP.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or "587")
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    # A mail server that does not answer must not hold the organiser's page for long.
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "webmaster@localhost"

# Security ------------------------------------------------------------------------------------
# Every cookie the site sets (session, CSRF, messages, language, the scoresheet's way of entry,
# the rate limits' client id) is HttpOnly (no script reads one) and SameSite=Lax, and Secure
# (sent over HTTPS only) when SECURE_COOKIES is on: by default when DEBUG is false.
SECURE_COOKIES = False if DEBUG else env_bool("SECURE_COOKIES", default=True)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    # Only once every subdomain serves HTTPS, and only if the domain is to be preloaded.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
    SECURE_CONTENT_TYPE_NOSNIFF = True

# Content-Security-Policy (django-csp) on every response: scripts, styles, fonts and what the
# pages fetch come from this site only, never inline (no <script> bodies, no onclick=, no
# style=, no eval: htmx is configured for it in templates/base.html). Images may also be data:
# URLs, which Bootstrap's stylesheet uses for its icons (the menu button, select arrows, close
# buttons, check marks); the QR codes are inline SVG and need none. Workers (the entry pages'
# service worker) come from here too. No plugins, no <base>, forms post only here, and no other
# site may frame a page (as X-Frame-Options: DENY).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        # The entry pages' service worker (/sw.js, static/js/sw.js), from the site only.
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# The seats' private keys never reach a log (config/logs.py): the filter masks them in what
# Django's server writes (the request lines of `manage.py runserver`), in Django's warnings about
# refused requests (django.request, e.g. "Not Found: /s/…/"; django.security.csrf), and in all
# that reaches the console. gunicorn's access log masks them too (docker/gunicorn.conf.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"seat_keys": {"()": "config.logs.SeatKeyFilter"}},
    "formatters": {
        # Django's own format for its server's request lines.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["seat_keys"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["seat_keys"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # As Django configures it, with the filter; the filters of the loggers below mask a
        # record before any handler sees it (also one added elsewhere, e.g. mail to ADMINS).
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["seat_keys"],
        },
        "django.request": {"filters": ["seat_keys"]},
        "django.security.csrf": {"filters": ["seat_keys"]},
    },
}
