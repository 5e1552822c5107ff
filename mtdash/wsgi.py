"""WSGI entry point (gunicorn mtdash.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")
# Web processes keep their database connection between requests: opening one
# per request (SQLite's connect and Django's set-up of it; PostgreSQL's
# handshake) cost 2.2 ms of CPU per request, half of a leaderboard request's
# budget (README, "Load test"). Only here: Celery workers and commands read
# settings without this module. A broken connection is dropped after the
# request that met it (the API outage test runs with 60 s too).
os.environ.setdefault("MTDASH_DB_CONN_MAX_AGE", "60")
application = get_wsgi_application()

# Before any request: views imported, templates compiled (in gunicorn's
# master with preload_app, mtdash/gunicorn_conf.py).
from mtdash.common.web_warmup import warm_up  # noqa: E402 (needs Django set up)

warm_up()
