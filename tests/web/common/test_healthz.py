"""``/healthz`` answers 200 only when the database and the broker answer."""

import pytest
from django.test import override_settings

from tests.support import services

pytestmark = pytest.mark.django_db


def test_healthy_when_the_database_and_a_real_redis_answer(client, redis_url):
    with override_settings(CELERY_BROKER_URL=redis_url):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_down_when_the_broker_does_not_answer(client):
    # A port nobody listens on: connection refused at once.
    url = f"redis://127.0.0.1:{services.free_port()}/0"
    with override_settings(CELERY_BROKER_URL=url):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "down", "database": "ok", "broker": "down"}


def test_plain_http_is_not_redirected_when_ssl_redirect_is_on(client, redis_url):
    with override_settings(CELERY_BROKER_URL=redis_url, SECURE_SSL_REDIRECT=True):
        assert client.get("/healthz").status_code == 200
        assert client.get("/accounts/login/").status_code == 301


def test_only_get(client):
    assert client.post("/healthz").status_code == 405
