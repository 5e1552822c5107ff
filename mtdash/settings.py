"""Django settings for mtdash, read from environment variables (12-factor).

Every variable is documented in the README; a malformed value stops start-up
with a message naming it (see ``mtdash.env``).
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from mtdash.env import (
    artifact_storage,
    env_bool,
    env_int,
    env_list,
    env_proxy_header,
    env_str,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("MTDASH_DATA_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("MTDASH_DEBUG", False)
SECRET_KEY = secret_key("MTDASH_SECRET_KEY", DATA_DIR / "secret_key")
ALLOWED_HOSTS = env_list("MTDASH_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("MTDASH_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "mtdash.teams",
    "mtdash.evaluation",
    "mtdash.orange",
    "mtdash.judgments",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served locally (no CDN)
    "mtdash.api",
    "mtdash.bench",
    "mtdash.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The strict Content-Security-Policy on every response, static files too.
    "mtdash.common.content_security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "mtdash.urls"
WSGI_APPLICATION = "mtdash.wsgi.application"

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

# SQLite in DATA_DIR by default; DATABASE_URL selects PostgreSQL on a team server.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'mtdash.sqlite3'}"),
        conn_max_age=env_int("MTDASH_DB_CONN_MAX_AGE", 0),
        # Web processes keep their connection (mtdash/wsgi.py): after a
        # database restart the first request would meet a dead one.
        conn_health_checks=True,
    )
}
_TEST_DB_SUFFIX = env_str("MTDASH_TEST_DB_SUFFIX", "") or str(os.getpid())
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The Celery worker is another process: the test database must be a file it
    # can open, not SQLite's private in-memory default. A generous timeout lets
    # the web server and the workers take turns writing; IMMEDIATE transactions
    # take the write lock up front, so a writer waits for that timeout instead
    # of failing at once with "database is locked" when it would have to
    # upgrade a read lock while another process writes.
    DATABASES["default"]["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    # One file per test run (the run's process id unless MTDASH_TEST_DB_SUFFIX
    # names it): two runs at once on one machine must not share, and delete,
    # each other's database. Workers started by the tests get its path in
    # DATABASE_URL.
    DATABASES["default"]["TEST"] = {
        "NAME": str(DATA_DIR / f"test-mtdash-{_TEST_DB_SUFFIX}.sqlite3")
    }
else:
    # Several test runs on one PostgreSQL server: each its own test database.
    DATABASES["default"]["TEST"] = {
        "NAME": f"test_{DATABASES['default']['NAME']}_{_TEST_DB_SUFFIX}"
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Login throttling (django-axes, mtdash.common.login_throttling): after
# MTDASH_LOGIN_FAILURE_LIMIT failed logins for one username from one address,
# or MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT from one address whatever the
# username, further attempts from there are refused for
# MTDASH_LOGIN_COOLOFF_MINUTES. Never per username alone: anyone could lock a
# named user out.
AUTHENTICATION_BACKENDS = [
    "mtdash.common.login_throttling.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("MTDASH_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(
    minutes=env_int("MTDASH_LOGIN_COOLOFF_MINUTES", 15, minimum=1)
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT = env_int(
    "MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT", 20, minimum=1
)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "mtdash.common.login_throttling.lockout_response"
AXES_CLIENT_IP_CALLABLE = "mtdash.common.login_throttling.client_ip"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# The REST API (/api/v1/, mtdash.api): per-user tokens ("Authorization: Token
# <key>") or the browser session (CSRF enforced); every error as
# {"errors": [{"file", "line", "message"}]}; each user may make
# MTDASH_API_RATE_LIMIT requests ("<n>/second|minute|hour|day").
MTDASH_API_RATE_LIMIT = env_str("MTDASH_API_RATE_LIMIT", "600/minute")
if not re.fullmatch(r"[1-9][0-9]*/(second|minute|hour|day)", MTDASH_API_RATE_LIMIT):
    raise ImproperlyConfigured(
        f"MTDASH_API_RATE_LIMIT={MTDASH_API_RATE_LIMIT!r}: write it as a number "
        "of requests per second, minute, hour or day, e.g. 600/minute"
    )
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "mtdash.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["mtdash.api.permissions.IsTeamMember"],
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"user": MTDASH_API_RATE_LIMIT},
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "mtdash.api.errors.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "mtdash API",
    "DESCRIPTION": "Machine translation evaluation: test sets, system outputs, "
    "scoring and ORANGE jobs, leaderboards. Authenticate with "
    "`Authorization: Token <key>` (create a key on /account/tokens/).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Schema warnings are checked by tests/web/api/test_schema.py, per app; the
    # deploy check would otherwise fail a production start-up on a docs gap.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
}

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns when it is missing
# collectstatic (bin/run, the Docker image) writes every file a second time
# under a name with its content's hash, plus a gzip copy; pages link the
# hashed names, which WhiteNoise serves compressed to browsers that accept it
# and lets them cache for ten years (a changed file gets a new name). Without
# DEBUG the pages need that manifest: a server started without collectstatic
# answers 500 ("Missing staticfiles manifest entry"). With MTDASH_DEBUG the
# files keep their names and are read from static/ as they are edited
# (WhiteNoise's own default: finders and autorefresh only under DEBUG).
# Files a browser asks for at the site's root (/favicon.ico).
WHITENOISE_ROOT = BASE_DIR / "static" / "root"

# Uploads: anything bigger than this is refused before it is read.
MTDASH_MAX_UPLOAD_BYTES = env_int("MTDASH_MAX_UPLOAD_MB", 50, minimum=1) * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MTDASH_MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# n-best lists have their own, larger limit (uncompressed bytes; a gzip upload
# is measured decompressed): a paper-size 1024-best list is a few hundred MB.
MTDASH_MAX_NBEST_BYTES = env_int("MTDASH_MAX_NBEST_MB", 1024, minimum=1) * 1024 * 1024
# A test set has at most MTDASH_MAX_REFERENCES reference files (the form says
# so); Django's own cap on files per request stays well above that plus the
# source and document-id files, so a few too many get that message, not a
# bare "Bad Request (400)".
MTDASH_MAX_REFERENCES = env_int("MTDASH_MAX_REFERENCES", 20, minimum=2)
DATA_UPLOAD_MAX_NUMBER_FILES = env_int(
    "MTDASH_MAX_UPLOAD_FILES", max(100, 2 * MTDASH_MAX_REFERENCES + 2), minimum=4
)
if DATA_UPLOAD_MAX_NUMBER_FILES < MTDASH_MAX_REFERENCES + 2:
    raise ImproperlyConfigured(
        f"MTDASH_MAX_UPLOAD_FILES={DATA_UPLOAD_MAX_NUMBER_FILES} must be at least "
        f"MTDASH_MAX_REFERENCES + 2 = {MTDASH_MAX_REFERENCES + 2} (source and "
        "document ids)."
    )

# METEOR 1.5's English paraphrase table (paraphrase-en.gz, fetched by bin/run
# into $MTDASH_DATA_DIR/meteor/): with it the dashboard's English METEOR is
# METEOR 1.5 (exact, stem, synonym, paraphrase), without it ``para:off``.
# Loading it takes each worker process about 20 s and 1.6 GB, once.
MTDASH_METEOR_PARAPHRASE_TABLE = env_str("MTDASH_METEOR_PARAPHRASE_TABLE", "")

# Files too big for database rows (n-best lists, partial ORANGE results),
# read and written only through the storage ``storages["artifacts"]``. The web
# server and every worker must see the same artifacts: a directory on one
# machine or a shared volume (MTDASH_ARTIFACT_STORAGE=filesystem, the
# default, under MTDASH_ARTIFACT_DIR), or an S3-compatible bucket
# (MTDASH_ARTIFACT_STORAGE=s3 with MTDASH_S3_BUCKET, MTDASH_S3_ENDPOINT_URL,
# MTDASH_S3_REGION; see mtdash.env.artifact_storage).
# A parallel test run (pytest-xdist) gives each of its processes its own
# database, where ids repeat: the artifacts named by those ids get a
# directory per process too (the workers its tests start inherit the
# variable), or one process's job 3 would read or delete another's files.
_TEST_PROCESS = env_str("PYTEST_XDIST_WORKER", "")
MTDASH_ARTIFACT_DIR = Path(
    env_str(
        "MTDASH_ARTIFACT_DIR",
        str(DATA_DIR / "artifacts" / f"test-{_TEST_PROCESS}")
        if _TEST_PROCESS
        else str(DATA_DIR / "artifacts"),
    )
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names and gzip copies, made by collectstatic (see STATIC_ROOT).
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
    "artifacts": artifact_storage("MTDASH_ARTIFACT_STORAGE"),
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE = env_bool("MTDASH_SECURE_COOKIES", False)
X_FRAME_OPTIONS = "DENY"

# HTTPS (all off by default: `bin/run` serves plain HTTP on loopback). Behind
# a reverse proxy that terminates TLS, MTDASH_SECURE_PROXY_SSL_HEADER names
# the header it sets (X-Forwarded-Proto) and MTDASH_PROXY_COUNT how many
# proxies append to X-Forwarded-For; never set them without such a proxy, or
# clients could claim HTTPS and any address.
SECURE_SSL_REDIRECT = env_bool("MTDASH_SSL_REDIRECT", False)
# Health checks come over plain HTTP from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = env_proxy_header("MTDASH_SECURE_PROXY_SSL_HEADER")
MTDASH_PROXY_COUNT = env_int("MTDASH_PROXY_COUNT", 0)
SECURE_HSTS_SECONDS = env_int("MTDASH_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("MTDASH_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("MTDASH_HSTS_PRELOAD", False)

# Celery: Redis as broker; results live in the database (ScoringJob), so no
# result backend is needed.
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("MTDASH_TASK_SOFT_TIME_LIMIT", 3600, minimum=1)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Work that matters first (issue 23 item 5): three queues, most urgent first.
# A worker started without -Q reads every queue of CELERY_TASK_QUEUES, and
# with the "priority" order kombu's Redis transport asks BRPOP for them in
# this order, so a free slot always takes a waiting scoring job before an
# analysis and an analysis before an ORANGE chunk (kombu's default,
# round-robin, would run a chunk between two scoring jobs). With one message
# reserved per slot, acknowledged after the run (above), a busy slot holds
# no message back. The sweeper runs in beat (CELERY_BEAT_SCHEDULER); a
# worker that is sent it anyway (another scheduler) takes it first.
MTDASH_JOB_QUEUES = ("scoring", "analysis", "orange")
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in MTDASH_JOB_QUEUES
)
CELERY_TASK_DEFAULT_QUEUE = "scoring"
CELERY_BROKER_TRANSPORT_OPTIONS = {"queue_order_strategy": "priority"}
CELERY_TASK_ROUTES = {
    "mtdash.evaluation.tasks.score_output": {"queue": "scoring"},
    "mtdash.common.tasks.sweep_jobs": {"queue": "scoring"},
    "mtdash.evaluation.tasks.compare_outputs": {"queue": "analysis"},
    "mtdash.evaluation.tasks.measure_readability": {"queue": "analysis"},
    "mtdash.judgments.tasks.run_meta_evaluation": {"queue": "analysis"},
    "mtdash.judgments.tasks.run_error_span_evaluation": {"queue": "analysis"},
    "mtdash.orange.validation_tasks.validate_nbest_list": {"queue": "analysis"},
    "mtdash.orange.tasks.rank_orange_chunk": {"queue": "orange"},
}

# Background jobs (mtdash.common.jobs): a worker holds a row under a lease it
# renews every third of MTDASH_JOB_LEASE_SECONDS; a row whose lease expired is
# taken over, and after MTDASH_JOB_MAX_ATTEMPTS workers stopped on it, failed.
# Celery beat runs the sweeper every MTDASH_SWEEP_SECONDS, in its own process
# (mtdash.common.beat_scheduler: never behind busy workers): it sends rows
# with an expired lease again, and queued rows older than the grace period
# whose message is gone from Redis.
MTDASH_JOB_LEASE_SECONDS = env_int("MTDASH_JOB_LEASE_SECONDS", 60, minimum=1)
MTDASH_JOB_MAX_ATTEMPTS = env_int("MTDASH_JOB_MAX_ATTEMPTS", 3, minimum=1)
MTDASH_JOB_QUEUED_GRACE_SECONDS = env_int("MTDASH_JOB_QUEUED_GRACE_SECONDS", 120)
MTDASH_SWEEP_SECONDS = env_int("MTDASH_SWEEP_SECONDS", 30, minimum=1)
# Tests only: on its first attempt, each scoring metric and ORANGE chunk waits
# this long first, so a worker can be killed in the middle of a job.
MTDASH_JOB_TEST_DELAY_SECONDS = env_int("MTDASH_JOB_TEST_DELAY_SECONDS", 0)
# Numba's on-disk cache of the compiled batch kernels, in a directory the
# app may write (the package's own __pycache__ may not be, e.g. in the Docker
# image): a task compiles the kernels it calls once, and later tasks and
# starts load them from here (workers compile nothing as they start; see
# mtdash.celery). Numba reads the variable when it is first imported, which
# is after the settings in every process (bin/run and docker-compose also
# export it).
NUMBA_CACHE_DIR = env_str("NUMBA_CACHE_DIR", str(DATA_DIR / "numba-cache"))
os.environ.setdefault("NUMBA_CACHE_DIR", NUMBA_CACHE_DIR)

# Leaderboard statistics (mtdash.evaluation.leaderboard.comparisons), computed by
# a worker whenever scores change: bootstrap intervals from
# MTDASH_COMPARISON_SAMPLES resamples, approximate randomisation with
# MTDASH_COMPARISON_TRIALS trials, both seeded with MTDASH_COMPARISON_SEED
# (default: sacreBLEU's 12345, so the p-values equal sacrebleu --paired-bs).
MTDASH_COMPARISON_SEED = env_int("MTDASH_COMPARISON_SEED", 12345)
MTDASH_COMPARISON_SAMPLES = env_int("MTDASH_COMPARISON_SAMPLES", 1000, minimum=1)
MTDASH_COMPARISON_TRIALS = env_int("MTDASH_COMPARISON_TRIALS", 10000)
MTDASH_COMPARISON_ALPHA = 0.05
CELERY_BEAT_SCHEDULE = {
    "sweep-jobs": {
        "task": "mtdash.common.tasks.sweep_jobs",
        "schedule": float(MTDASH_SWEEP_SECONDS),
        "options": {"expires": MTDASH_SWEEP_SECONDS},
    }
}
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULER = "mtdash.common.beat_scheduler:SweepingScheduler"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("MTDASH_LOG_LEVEL", "INFO")},
}
