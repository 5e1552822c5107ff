"""Tokens: made by the command or the account page, shown once, stored as a
hash, refused once revoked; no token is a 401 in the errors JSON."""

from __future__ import annotations

import hashlib

import pytest
from django.core.management import CommandError
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from mtdash.api.models import ApiToken
from tests.conftest import PASSWORD
from tests.web.api.conftest import client_with, create_token

URL = "/api/v1/test-sets/"


def test_the_command_prints_the_key_and_nothing_else(owner):
    out = create_token(owner.username, "--name", "nightly")
    key = out.strip()
    assert out == key + "\n" and " " not in key and key.startswith("mtd_")
    token = ApiToken.objects.get()
    assert (token.user, token.name, token.prefix) == (owner, "nightly", key[:12])
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(ApiToken.objects.values_list())  # only the hash is kept


def test_the_command_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        create_token("nobody")


def test_a_request_without_a_token_is_a_401_in_the_errors_json(db):
    response = APIClient().get(URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == {
        "errors": [
            {
                "file": None,
                "line": None,
                "message": "Authentication credentials were not provided.",
            }
        ]
    }


def test_a_wrong_key_is_refused(db):
    response = client_with("mtd_not-a-key").get(URL)
    assert response.status_code == 401
    assert response.json()["errors"][0]["message"] == "Invalid or revoked token."


def test_a_revoked_token_is_refused(owner):
    key = create_token(owner.username).strip()
    client = client_with(key)
    assert client.get(URL).status_code == 200
    assert ApiToken.objects.get().revoke()
    response = client.get(URL)
    assert response.status_code == 401
    assert response.json()["errors"][0]["message"] == "Invalid or revoked token."


def test_a_token_of_a_deactivated_user_is_refused(owner):
    client = client_with(create_token(owner.username).strip())
    owner.is_active = False
    owner.save()
    assert client.get(URL).status_code == 401


def test_using_a_token_records_when(owner):
    client = client_with(create_token(owner.username).strip())
    assert ApiToken.objects.get().last_used_at is None
    client.get(URL)
    assert ApiToken.objects.get().last_used_at is not None


def test_the_browser_session_works_with_csrf_enforced(owner):
    client = APIClient(enforce_csrf_checks=True)
    client.login(username=owner.username, password=PASSWORD)
    assert client.get(URL).status_code == 200
    response = client.post(URL, {"name": "x"})
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]


def test_requests_beyond_the_rate_are_throttled(owner, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/minute"})
    client = client_with(create_token(owner.username).strip())
    statuses = [client.get(URL).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert "throttled" in client.get(URL).json()["errors"][0]["message"]


def test_the_account_page_creates_a_token_and_shows_its_key_once(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    response = client.post("/account/tokens/", {"name": "laptop"})
    assert response.status_code == 200
    key = response.context["new_key"]
    assert key in response.content.decode()
    assert response["Cache-Control"] == "no-store"
    assert client_with(key).get(URL).status_code == 200
    page = client.get("/account/tokens/").content.decode()
    assert key not in page and key[:12] in page and "laptop" in page


def test_the_account_page_revokes_after_confirmation(client, owner):
    key = create_token(owner.username).strip()
    token = ApiToken.objects.get()
    client.login(username=owner.username, password=PASSWORD)
    url = f"/account/tokens/{token.pk}/revoke/"
    confirm = client.get(url)
    assert b"Revoke this token?" in confirm.content
    assert client_with(key).get(URL).status_code == 200  # asking revokes nothing
    response = client.post(url)
    assert response["Location"] == "/account/tokens/"
    assert client_with(key).get(URL).status_code == 401


def test_nobody_revokes_another_users_token(client, owner, outsider):
    create_token(owner.username)
    token = ApiToken.objects.get()
    client.login(username=outsider.username, password=PASSWORD)
    assert client.post(f"/account/tokens/{token.pk}/revoke/").status_code == 404
    assert not ApiToken.objects.get().is_revoked


def test_the_account_page_needs_a_login(client, db):
    response = client.get("/account/tokens/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_header_links_to_the_tokens_page(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    assert b'href="/account/tokens/"' in client.get("/").content


def test_an_administrator_revokes_a_token_in_the_admin(
    client, owner, django_user_model
):
    key = create_token(owner.username).strip()
    token = ApiToken.objects.get()
    admin_user = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client.force_login(admin_user)
    page = client.get("/admin/api/apitoken/").content.decode()
    assert token.prefix in page and key not in page
    client.post(
        "/admin/api/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert client_with(key).get(URL).status_code == 401
