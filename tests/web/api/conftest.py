"""The API tests' world: the shared users and test set (tests/conftest.py),
a token for each made by ``manage.py create_api_token``, and nothing sent to
Celery (queued job ids are recorded instead)."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.web.helpers import text_file


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    cache.clear()  # throttling counts requests per user in the cache
    yield
    cache.clear()


@pytest.fixture
def queued(monkeypatch) -> list:
    """Job ids (scoring) and chunk-id lists (ORANGE) sent after commit."""
    sent = []
    monkeypatch.setattr(
        "mtdash.evaluation.services.scoring_jobs.queue_scoring_job", sent.append
    )
    monkeypatch.setattr(
        "mtdash.orange.jobs.lifecycle.queue_chunks",
        lambda ids: sent.append(list(ids)),
    )
    return sent


def create_token(username: str, *args: str) -> str:
    out = io.StringIO()
    call_command("create_api_token", username, *args, stdout=out)
    return out.getvalue()


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def api(owner, queued) -> APIClient:
    return client_with(create_token(owner.username).strip())


@pytest.fixture
def outsider_api(outsider, queued) -> APIClient:
    return client_with(create_token(outsider.username).strip())


def test_set_upload(**overrides) -> dict:
    data = {
        "name": "api toy",
        "source_language": "fr",
        "target_language": "en",
        "source": text_file("src.fr", "un\ndeux\ntrois\n"),
        "reference": [
            text_file("ref.A.en", "one\ntwo\nthree\n"),
            text_file("ref.B.en", "a one\na two\na three\n"),
        ],
        "reference_label": ["A", "B"],
    }
    data.update(overrides)
    return data


test_set_upload.__test__ = False
