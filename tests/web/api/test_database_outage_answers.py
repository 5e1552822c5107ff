"""Where in a request the database may fail, and the API's answer each time:
JSON 503 with ``Retry-After`` (mtdash.api.outage). The same with a real
gunicorn and a real outage is ``tests/integration/test_api_database_outage.py``;
here the failure is placed: the token lookup, throttling, the view, a
middleware around the view."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from rest_framework.test import APIClient

from mtdash.api.models import ApiToken
from mtdash.api.outage import RETRY_AFTER_SECONDS
from tests.web.api.conftest import client_with, create_token

LIST = "/api/v1/test-sets/"
OUTAGE = {
    "errors": [
        {
            "file": None,
            "line": None,
            "message": "the database is unavailable; "
            f"try again in {RETRY_AFTER_SECONDS} s",
        }
    ]
}


def refused(*args, **kwargs):
    raise OperationalError('connection to server at "db" failed: Connection refused')


def closed(*args, **kwargs):
    raise InterfaceError("connection already closed")


def assert_outage_answer(response) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert response.json() == OUTAGE


@pytest.fixture
def api(owner) -> APIClient:
    client = client_with(create_token(owner.username).strip())
    client.raise_request_exception = False  # answer as a server would
    return client


def test_an_outage_in_the_token_lookup_answers_503(api, monkeypatch):
    monkeypatch.setattr(ApiToken.objects, "active", refused)
    assert_outage_answer(api.get(LIST))


def test_an_outage_in_throttling_answers_503(api, monkeypatch):
    monkeypatch.setattr(
        "rest_framework.throttling.UserRateThrottle.allow_request", refused
    )
    assert_outage_answer(api.get(LIST))


def test_an_outage_in_the_view_answers_503(api, monkeypatch, test_set):
    monkeypatch.setattr("mtdash.api.views.testsets.test_sets_of", closed)
    assert_outage_answer(api.get(LIST))


def test_a_browser_asking_for_html_gets_the_json_503_too(api, monkeypatch):
    monkeypatch.setattr("mtdash.api.views.testsets.test_sets_of", refused)
    assert_outage_answer(api.get(LIST, HTTP_ACCEPT="text/html"))


class DatabaseAwayAfterTheView:
    """A middleware whose work after the view needs the database (as a
    session saved after the response does) while the database is away."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        self.get_response(request)
        refused()


@pytest.fixture
def failing_middleware(settings):
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE[:3],  # security, WhiteNoise, sessions
        f"{__name__}.DatabaseAwayAfterTheView",
        *settings.MIDDLEWARE[3:],
    ]


def test_an_outage_in_a_middleware_answers_503(api, failing_middleware):
    assert_outage_answer(api.get(LIST))


def test_a_page_outside_the_api_keeps_djangos_500_page(client, failing_middleware):
    client.raise_request_exception = False
    response = client.get("/accounts/login/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_any_other_server_error_of_the_api_is_json_500(api, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("mtdash.api.views.testsets.test_sets_of", broken)
    response = api.get(LIST)
    assert response.status_code == 500
    assert response.json() == {
        "errors": [{"file": None, "line": None, "message": "server error"}]
    }
