"""Who may use the manage pages, and that only their POST changes anything."""

import pytest
from django.test import Client

from tests.conftest import PASSWORD
from tests.web.evaluation.test_manage_support import (
    add_scored_output,
    manage_urls,
    snapshot,
)

POST_DATA = {"hidden": "1", "name": "toy fr-en"}


@pytest.fixture
def world(test_set, owner):
    output = add_scored_output(test_set, owner, "good")
    return test_set, output


def all_urls(world):
    test_set, output = world
    return manage_urls(test_set, output)


def test_an_outsider_gets_404_on_every_page_and_changes_nothing(
    client, outsider, world
):
    client.login(username=outsider.username, password=PASSWORD)
    before = snapshot()
    for url in all_urls(world):
        assert client.get(url).status_code == 404, url
        assert client.post(url, POST_DATA).status_code == 404, url
    assert snapshot() == before


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    before = snapshot()
    for url in all_urls(world):
        for response in (client.get(url), client.post(url, POST_DATA)):
            assert response.status_code == 302, url
            assert response["Location"].startswith("/accounts/login/"), url
    assert snapshot() == before


def test_a_member_sees_every_confirmation_page_and_a_get_changes_nothing(
    client, member, world
):
    client.login(username=member.username, password=PASSWORD)
    before = snapshot()
    for url in all_urls(world):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b'method="post"' in response.content, url
    assert snapshot() == before


def test_a_post_without_the_csrf_token_is_refused(member, world):
    client = Client(enforce_csrf_checks=True)
    client.login(username=member.username, password=PASSWORD)
    before = snapshot()
    for url in all_urls(world):
        assert client.post(url, POST_DATA).status_code == 403, url
    assert snapshot() == before


def test_a_post_with_the_csrf_token_goes_through(member, world):
    client = Client(enforce_csrf_checks=True)
    client.login(username=member.username, password=PASSWORD)
    test_set, output = world
    page = client.get(manage_urls(test_set, output)[2])  # output_hide
    token = page.cookies["csrftoken"].value
    response = client.post(
        manage_urls(test_set, output)[2],
        {"hidden": "1", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    output.refresh_from_db()
    assert output.hidden


def test_other_methods_are_not_allowed(client, member, world):
    client.login(username=member.username, password=PASSWORD)
    for url in all_urls(world):
        assert client.put(url).status_code == 405, url
