import pytest
from django.urls import reverse

from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD
from tests.web.helpers import build_test_set_form, text_file


@pytest.fixture
def job(test_set, owner):
    return create_system_output(test_set, owner, "sys1", ["a", "b", "c"], queue=False)


@pytest.mark.parametrize(
    "name, args",
    [("home", []), ("test_set_new", [])],
)
def test_it_sends_anonymous_users_to_the_login_page(client, db, name, args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_anonymous_users_cannot_upload_a_test_set(client, team):
    response = client.post(reverse("test_set_new"), build_test_set_form(team))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not TestSet.objects.exists()


def test_anonymous_users_cannot_upload_a_system_output(client, test_set):
    url = reverse("output_new", args=[test_set.pk])
    response = client.post(
        url, {"system_name": "x", "hypothesis_file": text_file("h", "a\nb\nc\n")}
    )
    assert response.status_code == 302
    assert not ScoringJob.objects.exists()


def test_anonymous_users_cannot_see_a_job(client, job):
    response = client.get(reverse("job_status", args=[job.pk]))
    assert response.status_code == 302


@pytest.mark.parametrize(
    "view",
    ["test_set_detail", "output_new"],
)
def test_outsiders_get_404_for_another_teams_test_set(client, outsider, test_set, view):
    client.login(username=outsider.username, password=PASSWORD)
    assert client.get(reverse(view, args=[test_set.pk])).status_code == 404


def test_outsiders_get_404_for_another_teams_job(client, outsider, job):
    client.login(username=outsider.username, password=PASSWORD)
    assert client.get(reverse("job_detail", args=[job.pk])).status_code == 404
    assert client.get(reverse("job_status", args=[job.pk])).status_code == 404


def test_outsiders_do_not_see_another_teams_test_sets_listed(
    client, outsider, test_set
):
    client.login(username=outsider.username, password=PASSWORD)
    assert test_set.name not in client.get(reverse("home")).content.decode()


def test_team_members_see_the_team_test_sets(client, member, test_set):
    client.login(username=member.username, password=PASSWORD)
    assert test_set.name in client.get(reverse("home")).content.decode()
    assert client.get(test_set.get_absolute_url()).status_code == 200


def test_posts_without_a_csrf_token_are_refused(owner, team):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(reverse("test_set_new"), build_test_set_form(team))
    assert response.status_code == 403
    assert not TestSet.objects.exists()
