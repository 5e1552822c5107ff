"""A web process that keeps its database connection (``CONN_MAX_AGE``, set
by ``mtdash/wsgi.py``) checks it at the start of each request, so the first
request after a database restart gets a new connection instead of an error."""

import psycopg
import pytest
from django.conf import settings
from django.db import close_old_connections, connection

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate_backend(pid: int) -> None:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_kept_connection_killed_by_the_server_is_replaced_at_the_next_request():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no server to restart")
    configured = settings.DATABASES["default"]
    connection.settings_dict["CONN_MAX_AGE"] = 60  # as under gunicorn
    connection.settings_dict["CONN_HEALTH_CHECKS"] = configured["CONN_HEALTH_CHECKS"]
    try:
        close_old_connections()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        _terminate_backend(pid)
        close_old_connections()  # what Django does as each request starts
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] != pid
    finally:
        connection.settings_dict["CONN_MAX_AGE"] = 0
        connection.close()
