"""Failed logins are throttled (django-axes): per (username, address) pair,
and per address over every username with a higher limit, so that nobody can
lock a named user out from elsewhere (issue 24 item 8)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from mtdash.common.login_throttling import client_ip
from tests.conftest import PASSWORD

URL = reverse("login")


def attempt(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        URL, {"username": username, "password": password}, REMOTE_ADDR=address
    )


def fail(client, username: str, times: int, address: str = "10.0.0.1") -> None:
    for _ in range(times):
        response = attempt(client, username, "wrong password", address)
        # The login page again with its error; the failure that reaches the
        # limit is already answered with the lock-out page.
        assert response.status_code in (200, 429)


def test_five_failed_logins_lock_out_even_the_right_password(client, owner, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    fail(client, owner.username, 4)
    assert attempt(client, owner.username, "wrong again").status_code == 429

    response = attempt(client, owner.username, PASSWORD)

    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed logins" in page
    assert "After 5 failed attempts" in page and "for 15 minutes" in page
    assert "_auth_user_id" not in client.session


def test_four_failed_logins_still_let_the_right_password_in(client, owner):
    fail(client, owner.username, 4)
    response = attempt(client, owner.username, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(owner.pk)


def test_a_successful_login_starts_the_count_again(client, owner):
    fail(client, owner.username, 4)
    assert attempt(client, owner.username, PASSWORD).status_code == 302
    client.logout()
    fail(client, owner.username, 4)
    assert attempt(client, owner.username, PASSWORD).status_code == 302


def test_failed_logins_for_a_user_from_one_address_do_not_lock_them_out_elsewhere(
    client, owner
):
    # Anyone can send wrong passwords for a name they know; that locks the
    # pair (this user, that address), not the user.
    fail(client, owner.username, 10, address="10.0.1.1")
    assert attempt(client, owner.username, PASSWORD, "10.0.1.1").status_code == 429

    response = attempt(client, owner.username, PASSWORD, "10.0.2.1")

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(owner.pk)


def test_one_username_guessed_from_many_addresses_locks_each_pair_only(client, owner):
    for number in range(5):
        fail(client, owner.username, 4, address=f"10.0.1.{number}")
    assert attempt(client, owner.username, PASSWORD, "10.0.2.1").status_code == 302


def test_guessing_many_usernames_from_one_address_is_locked(
    client, owner, member, settings
):
    assert settings.MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT == 20
    for number in range(20):
        fail(client, f"nobody{number}", 1, address="10.0.3.1")
    locked = attempt(client, member.username, PASSWORD, "10.0.3.1")
    assert locked.status_code == 429
    assert "or 20 from this address" in locked.content.decode()
    # Another address and another user are not affected.
    assert attempt(client, member.username, PASSWORD, "10.0.3.2").status_code == 302


def test_failures_below_the_address_limit_leave_the_address_open(client, member):
    # An office behind one address: five colleagues' typos lock nobody else.
    for number in range(5):
        fail(client, f"colleague{number}", 1, address="10.0.3.5")
    assert attempt(client, member.username, PASSWORD, "10.0.3.5").status_code == 302


def test_the_address_limit_follows_its_setting(client, member, settings):
    settings.MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT = 3
    for number in range(3):
        fail(client, f"nobody{number}", 1, address="10.0.3.7")
    assert attempt(client, member.username, PASSWORD, "10.0.3.7").status_code == 429


def test_a_client_cannot_pick_its_address_with_x_forwarded_for(client, owner):
    for number in range(20):
        response = client.post(
            URL,
            {"username": f"nobody{number}", "password": "x"},
            REMOTE_ADDR="10.0.4.1",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{number}",
        )
        assert response.status_code in (200, 429)
    locked = attempt(client, owner.username, PASSWORD, "10.0.4.1")
    assert locked.status_code == 429


@pytest.mark.parametrize(
    ("count", "forwarded", "address"),
    [
        (0, "198.51.100.7", "10.0.0.9"),
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # 6.6.6.6: client-written
        (2, "6.6.6.6, 198.51.100.7, 10.0.0.5", "198.51.100.7"),
        (2, "198.51.100.7", "10.0.0.9"),  # fewer entries than proxies
    ],
)
def test_behind_trusted_proxies_the_address_is_the_one_they_saw(
    settings, count, forwarded, address
):
    settings.MTDASH_PROXY_COUNT = count
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR=forwarded
    )
    assert client_ip(request) == address


def test_the_test_client_and_management_code_still_authenticate_without_a_request(
    client, owner
):
    assert client.login(username=owner.username, password=PASSWORD)
