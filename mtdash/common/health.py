"""``/healthz``: what a load balancer or a container health check asks.

It answers 200 only when this web process can reach the database and the
broker, so a proxy stops sending requests to a server that would answer
every upload with an error. No login: it says nothing but "ok" or which
dependency is down.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

# Short: a health check that hangs is worse than one that says "down".
BROKER_TIMEOUT_SECONDS = 2.0


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # noqa: BLE001 - any failure means "down"
        return False


def _broker_ok() -> bool:
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_connect_timeout=BROKER_TIMEOUT_SECONDS,
        socket_timeout=BROKER_TIMEOUT_SECONDS,
    )
    try:
        return bool(client.ping())
    except Exception:  # noqa: BLE001 - any failure means "down"
        return False
    finally:
        client.close()


@never_cache
@require_GET
def healthz(request):
    checks = {"database": _database_ok(), "broker": _broker_ok()}
    healthy = all(checks.values())
    body = {"status": "ok" if healthy else "down"}
    body.update({name: "ok" if up else "down" for name, up in checks.items()})
    return JsonResponse(body, status=200 if healthy else 503)
