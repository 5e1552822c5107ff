"""Django settings for mtdash, read from environment variables (12-factor).

Every variable is documented in the README; a malformed value stops start-up
with a message naming it (see ``mtdash.env``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from mtdash.env import env_bool, env_int, env_list, env_str, secret_key

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
    "mtdash.teams",
    "mtdash.evaluation",
    "mtdash.orange",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The Celery worker is another process: the test database must be a file it
    # can open, not SQLite's private in-memory default. A generous timeout lets
    # the web server and the workers take turns writing; IMMEDIATE transactions
    # take the write lock up front, so a writer waits for that timeout instead
    # of failing at once with "database is locked" when it would have to
    # upgrade a read lock while another process writes.
    DATABASES["default"]["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test-mtdash.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns when it is missing
# Serve static files from the app directories in development and tests, so a
# fresh checkout works without collectstatic.
WHITENOISE_USE_FINDERS = True

# Uploads: anything bigger than this is refused before it is read.
MTDASH_MAX_UPLOAD_BYTES = env_int("MTDASH_MAX_UPLOAD_MB", 50, minimum=1) * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MTDASH_MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FILES = env_int("MTDASH_MAX_UPLOAD_FILES", 20, minimum=2)

# Files too big for database rows (n-best lists, partial ORANGE results). The
# web server and every worker must see the same directory (a shared volume).
MTDASH_ARTIFACT_DIR = Path(env_str("MTDASH_ARTIFACT_DIR", str(DATA_DIR / "artifacts")))

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE = env_bool("MTDASH_SECURE_COOKIES", False)
X_FRAME_OPTIONS = "DENY"

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("MTDASH_LOG_LEVEL", "INFO")},
}
