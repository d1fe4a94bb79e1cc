"""Settings for the Yahtzee site: one file, driven by environment variables.

Local defaults are the embedded deployment: SQLite (WAL, IMMEDIATE transactions)
and the in-memory channel layer, one daphne process. ``DATABASE_URL`` switches to
PostgreSQL and ``REDIS_URL`` to the Redis channel layer for several processes.
"""

import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from yahtzee_site.channel_layers import redis_channel_layer

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_rate(name: str, default: str) -> str:
    """A rate for django-ratelimit, ``count/period``: ``10/5m``, ``300/m``, ``1000/h``."""
    value = os.environ.get(name, default).strip()
    if not re.fullmatch(r"[0-9]+/[0-9]*[smhd]", value):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a rate: write count/period, e.g. 10/5m or 300/m."
        )
    return value


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def env_duration(name: str, default: str) -> timedelta:
    """A length of time: a number and a unit, ``90s``, ``30m``, ``24h``, ``2d``."""
    value = os.environ.get(name, default).strip()
    match = re.fullmatch(r"([0-9]+)([smhd])", value)
    if match is None:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a length of time: write a number and s, m, h or d, e.g. 24h."
        )
    return timedelta(seconds=int(match[1]) * DURATION_UNITS[match[2]])


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG=0.")
    SECRET_KEY = "django-insecure-local-development-only-key-for-yahtzee-tables"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "games",
    "yahtzee_site",  # its system checks (yahtzee_site/checks.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "yahtzee_site.headers.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After LocaleMiddleware and authentication: an account's own language wins.
    "games.languages.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.limits.PostLimitMiddleware",
]

ROOT_URLCONF = "yahtzee_site.urls"
ASGI_APPLICATION = "yahtzee_site.asgi.application"
WSGI_APPLICATION = None

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
                "django.template.context_processors.i18n",
                "games.views.context.inbox_badge",
            ],
        },
    },
]

SQLITE_PATH = os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}", conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=20000;"
            ),
        }
    )
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("SQLITE_TEST_PATH")}
    # A table's own requests and the sockets share one thread (yahtzee_site/request_handler.py):
    # it keeps its connection. Every other request's thread closes its own when it ends.
    DATABASES["default"]["CONN_MAX_AGE"] = None
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    # A pool of open connections, shared by the requests and sockets of this process.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 2, "max_size": 20}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "yahtzee_site.channel_layers.ThrottledInMemoryChannelLayer",
            "CONFIG": {"capacity": 1500, "expiry": 30},
        }
    }

# Sessions are read on every request: keep them in the cache, written through to the
# database. One process uses its own memory; several share Redis.
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {
        "default": {
            # django-redis keeps one connection pool per process, shared by the cache
            # objects of every request (Django's own Redis cache opens one per request
            # under ASGI: ticket #35651), and here one client too (shared_redis_client.py).
            "BACKEND": "yahtzee_site.shared_redis_client.SharedClientRedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    # Room for every visitor's session (the default of 300 entries would evict the sessions
    # of a few busy tables and send each of their requests to the database).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# English, Telugu and Uzbek (Latin script). The language is the person's choice (the menu on
# every page: stored on the account, or in the language cookie for guests), else the
# browser's Accept-Language, else English. URLs carry no language prefix.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("te", "Telugu"), ("uz", "Uzbek")]
# The project's own catalogs come first: they complete and correct Django's.
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "games.languages.csrf_failure"
# Our own date formats where Django has none for a language (Telugu).
FORMAT_MODULE_PATH = ["yahtzee_site.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SECURE = not DEBUG
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "yahtzee_site.static_files.HashedStaticFilesStorage"
        )
    },
}

# Content Security Policy (django-csp): scripts, styles, sockets and images from this site
# only; no inline script or style, no eval (htmx is told so in templates/base.html), no
# plug-ins, no <base>, forms post here, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],  # the page's own websocket (ws:/wss: of this host)
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Browser features no page here uses (yahtzee_site/headers.py).
PERMISSIONS_POLICY = {
    "accelerometer": [],
    "autoplay": [],
    "camera": [],
    "display-capture": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
    "clipboard-write": ["self"],  # "Copy link"
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# One console handler for every record, with the level and the logger's name on each line.
# A request refused for the client's fault (too many fields, a Host not allowed, …) is one
# WARNING line, never a traceback (yahtzee_site/client_error_logs.py); a 500 keeps its
# traceback at ERROR. Django's records go there too, not to its own console and e-mail
# handlers, which would see them before the filter (and print each twice with DEBUG on).
log_level = os.environ.get("DJANGO_LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_errors": {"()": "yahtzee_site.client_error_logs.ClientErrorsAsWarnings"},
    },
    "formatters": {"line": {"format": "{levelname} {name}: {message}", "style": "{"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["client_errors"],
            "formatter": "line",
        },
    },
    "loggers": {"django": {"handlers": [], "level": log_level}},
    "root": {"handlers": ["console"], "level": log_level},
}

# Limits on abuse (games/limits.py), counted per client in the default cache (so across
# processes at scale): a client over one gets 429 and when to retry. Rates are count/period.
# Failed log-ins (site and admin) per address and username, and per address; per username
# from anywhere, which refuses only addresses that failed on it (never the owner elsewhere).
LIMIT_LOGIN_FAILURES = env_rate("LIMIT_LOGIN_FAILURES", "10/5m")
LIMIT_LOGIN_FAILURES_PER_IP = env_rate("LIMIT_LOGIN_FAILURES_PER_IP", "30/5m")
LIMIT_LOGIN_FAILURES_PER_USERNAME = env_rate("LIMIT_LOGIN_FAILURES_PER_USERNAME", "100/h")
# Refused sign-ups per address and username, and per address.
LIMIT_SIGNUP_FAILURES = env_rate("LIMIT_SIGNUP_FAILURES", "10/5m")
LIMIT_SIGNUP_FAILURES_PER_IP = env_rate("LIMIT_SIGNUP_FAILURES_PER_IP", "30/5m")
# A wrong password on the account's forms (change, deletion) and refused new passwords on
# a reset link, per address and account, and per address.
LIMIT_PASSWORD_FAILURES = env_rate("LIMIT_PASSWORD_FAILURES", "10/5m")
LIMIT_PASSWORD_FAILURES_PER_IP = env_rate("LIMIT_PASSWORD_FAILURES_PER_IP", "30/5m")
# Password reset requests per address, and per e-mail address asked for.
LIMIT_PASSWORD_RESETS_PER_IP = env_rate("LIMIT_PASSWORD_RESETS_PER_IP", "10/h")
LIMIT_PASSWORD_RESETS_PER_EMAIL = env_rate("LIMIT_PASSWORD_RESETS_PER_EMAIL", "3/h")
LIMIT_TABLES_PER_SESSION = env_rate("LIMIT_TABLES_PER_SESSION", "5/m")
LIMIT_TABLES_PER_IP = env_rate("LIMIT_TABLES_PER_IP", "10/m")
LIMIT_POSTS_PER_SESSION = env_rate("LIMIT_POSTS_PER_SESSION", "300/m")
# Friend requests and invitations to tables one account sends (games/limits.py).
LIMIT_FRIEND_REQUESTS = env_rate("LIMIT_FRIEND_REQUESTS", "20/h")
LIMIT_INVITATIONS = env_rate("LIMIT_INVITATIONS", "30/h")
# Table talk: messages per person per table (games/views/chat.py), whatever the address.
CHAT_MESSAGES = env_rate("CHAT_MESSAGES", "5/10s")
# How many proxies in front of the site append to X-Forwarded-For (nginx with
# $proxy_add_x_forwarded_for: 1); 0 counts clients by REMOTE_ADDR.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# Addresses or networks never limited (the load benchmark runs with 127.0.0.1).
LIMITS_EXEMPT_IPS = env_list("LIMITS_EXEMPT_IPS", "")

# Messages a page may send over its socket (it only ever asks for a resync): a burst at
# once, then so many per second.
WS_MESSAGES_PER_SECOND = float(os.environ.get("WS_MESSAGES_PER_SECOND", "5"))
WS_MESSAGE_BURST = int(os.environ.get("WS_MESSAGE_BURST", "10"))
# Open game pages (websockets) per process: per visitor (session, and network address), and
# per table. 0 turns a limit off (the load benchmark: hundreds of pages from one address).
WS_MAX_SOCKETS_PER_CLIENT = int(os.environ.get("WS_MAX_SOCKETS_PER_CLIENT", "8"))
WS_MAX_SOCKETS_PER_ROOM = int(os.environ.get("WS_MAX_SOCKETS_PER_ROOM", "200"))
# How often each server process marks its open game pages alive (0: never, as in tests).
PRESENCE_HEARTBEAT_SECONDS = int(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "15"))
# Presence pushes per room and process: at most one per this many seconds (0: each at once).
PRESENCE_PUSH_SECONDS = float(os.environ.get("PRESENCE_PUSH_SECONDS", "1.0"))

# Leaving rated games (games/services/leaving.py): an account that left, or was away to the
# end of, this many of its last 10 rated games may not sit down at a rated table for the
# pause that follows the last of those games' end. Casual tables stay open to it.
RATED_LEAVES = int(os.environ.get("RATED_LEAVES", "3"))
RATED_LEAVE_PAUSE = env_duration("RATED_LEAVE_PAUSE", "24h")

# "Play now" (games/services/play_now.py): after this many seconds in the queue without a
# match, the waiting page offers a game against the computer instead.
PLAY_NOW_WAIT_SECONDS = int(os.environ.get("PLAY_NOW_WAIT_SECONDS", "30"))

# Where the optimal-play tables are stored (built by `manage.py solve`, or on first use).
STRATEGY_CACHE_DIR = Path(os.environ.get("STRATEGY_CACHE_DIR", BASE_DIR / "var" / "strategy"))
# Seconds a computer player takes over each action (0 plays instantly, as in tests).
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "1.0"))
# How often each process looks in the database for due automatic work (games/jobs/).
JOBS_TICK_SECONDS = float(os.environ.get("JOBS_TICK_SECONDS", "0.5"))
# Loading the ASGI application starts that look (and the heartbeat) at once, so a restarted
# process nobody visits still acts on what is due; else its first request or socket does.
# Off while pytest runs (it sets PYTEST_VERSION): tests import the application without a
# server and do the due work themselves (jobs.sweep).
JOBS_START_WITH_APPLICATION = env_bool(
    "JOBS_START_WITH_APPLICATION", "PYTEST_VERSION" not in os.environ
)

# E-mail (daily games' "your turn" messages): printed to the console unless an SMTP host
# is given. See the configuration table in docs/deploy.md.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# Web Push (docs/deploy.md, "Notifications"): the VAPID key pair (`manage.py webpush_keys`
# prints a new one) and the address push services may write to; without keys push is not
# offered. The site calls only push services on these hosts ("*.name": any name under it;
# "name:port": that port, else 443 only).
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_SUBJECT = os.environ.get("WEBPUSH_SUBJECT", "mailto:yahtzee@localhost")
WEBPUSH_ENDPOINT_HOSTS = env_list(
    "WEBPUSH_ENDPOINT_HOSTS",
    "fcm.googleapis.com,android.googleapis.com,updates.push.services.mozilla.com,"
    "*.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,"
    "*.push.apple.com",
)
WEBPUSH_TIMEOUT_SECONDS = float(os.environ.get("WEBPUSH_TIMEOUT_SECONDS", "10"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# An SMTP server that stops answering gives up well within the background work's lease on the
# game (games/jobs/, 60 s), so the mail is tried again once, not sent twice.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Yahtzee <yahtzee@localhost>")
