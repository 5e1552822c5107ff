"""ORANGE pages: login required, other teams get 404, CSRF on every POST."""

import pytest
from django.test import Client
from django.urls import reverse

from mtdash.orange.jobs.lifecycle import create_orange_job
from mtdash.orange.models import NBestList, OrangeJob
from tests.conftest import PASSWORD
from tests.web.helpers import text_file
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    nbest_fixture,
)


@pytest.fixture
def job(nbest, owner):
    return create_orange_job(nbest, owner, ["bleu"], queue=False)


def urls(test_set, nbest, job):
    return [
        reverse("orange_test_set", args=[test_set.pk]),
        reverse("nbest_new", args=[test_set.pk]),
        reverse("nbest_detail", args=[nbest.pk]),
        reverse("orange_job_detail", args=[job.pk]),
        reverse("orange_job_status", args=[job.pk]),
        reverse("orange_job_export", args=[job.pk, "csv"]),
    ]


def test_it_sends_anonymous_users_to_the_login_page(client, test_set, nbest, job):
    for url in [reverse("orange_home"), *urls(test_set, nbest, job)]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_anonymous_users_cannot_upload_or_start_jobs(client, test_set, nbest):
    client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "x", "nbest_file": text_file("x.nbest", TOY_NBEST)},
    )
    client.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {"metrics": ["bleu"], "curve_step": 1, "n_bootstrap": 0, "seed": 1},
    )
    assert NBestList.objects.count() == 1
    assert not OrangeJob.objects.exists()


def test_outsiders_get_404_for_another_teams_orange_pages(
    client,
    outsider,
    test_set,
    nbest,
    job,
):
    client.login(username=outsider.username, password=PASSWORD)
    for url in urls(test_set, nbest, job):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("orange_job_retry", args=[job.pk])).status_code == 404
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "intruder", "nbest_file": text_file("x.nbest", TOY_NBEST)},
    )
    assert response.status_code == 404
    assert not NBestList.objects.filter(name="intruder").exists()


def test_outsiders_do_not_see_another_teams_jobs_listed(client, outsider, job):
    client.login(username=outsider.username, password=PASSWORD)
    page = client.get(reverse("orange_home")).content.decode()
    assert job.nbest.name not in page


def test_team_members_see_the_team_orange_pages(client, member, test_set, nbest, job):
    client.login(username=member.username, password=PASSWORD)
    for url in urls(test_set, nbest, job)[:5]:
        assert client.get(url).status_code == 200, url
    assert nbest.name in client.get(reverse("orange_home")).content.decode()


def test_the_test_set_page_links_to_orange(client, member, test_set):
    client.login(username=member.username, password=PASSWORD)
    page = client.get(test_set.get_absolute_url()).content.decode()
    assert f'href="{reverse("orange_test_set", args=[test_set.pk])}"' in page


def test_posts_without_a_csrf_token_are_refused(owner, test_set, nbest):
    client = Client(enforce_csrf_checks=True)
    client.login(username=owner.username, password=PASSWORD)
    response = client.post(
        reverse("nbest_new", args=[test_set.pk]),
        {"name": "no token", "nbest_file": text_file("x.nbest", TOY_NBEST)},
    )
    assert response.status_code == 403
    response = client.post(
        reverse("nbest_detail", args=[nbest.pk]),
        {"metrics": ["bleu"], "curve_step": 1, "n_bootstrap": 0, "seed": 1},
    )
    assert response.status_code == 403
    assert NBestList.objects.count() == 1
    assert not OrangeJob.objects.exists()
