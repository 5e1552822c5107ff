"""The browser's import pages, linked from the test set page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import ExternalMetric, Judgment

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
JUDGMENTS = (
    "segment,system,judge,criterion,value\n1,sys-a,j1,adequacy,4\n"
    "2,sys-a,j1,adequacy,5\n2,sys-a,j2,fluency,3\n"
)
SCORES = "sys-a\t1\t0.5\nsys-a\t2\t0.25\nsys-a\t3\t0.75\n"


@pytest.fixture
def toy(test_set, owner):
    create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    return test_set


def upload(name: str, content: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content.encode(), content_type="text/plain")


def test_the_test_set_page_links_both_imports(client, owner, toy):
    client.force_login(owner)
    html = client.get(reverse("test_set_detail", args=[toy.pk])).content.decode()
    assert reverse("judgments_import", args=[toy.pk]) in html
    assert reverse("external_scores_import", args=[toy.pk]) in html


def test_judgments_import_shows_the_counts(client, owner, toy):
    client.force_login(owner)
    url = reverse("judgments_import", args=[toy.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"file": upload("j.csv", JUDGMENTS)})
    html = response.content.decode()
    assert response.status_code == 200
    assert "3 judgments imported" in html
    assert '<td>adequacy</td><td>sys-a</td><td class="num">2</td>' in html
    assert '<td>fluency</td><td>sys-a</td><td class="num">1</td>' in html
    assert Judgment.objects.count() == 3


def test_judgments_import_shows_the_problem_and_stores_nothing(client, owner, toy):
    client.force_login(owner)
    url = reverse("judgments_import", args=[toy.pk])
    bad = JUDGMENTS + "1,sys-b,j1,adequacy,4\n"
    html = client.post(url, {"file": upload("j.csv", bad)}).content.decode()
    assert "Nothing was stored." in html
    assert (
        "j.csv, line 5: unknown system &#x27;sys-b&#x27;: the test set has outputs "
        "of sys-a" in html
    )
    assert Judgment.objects.count() == 0


def test_external_scores_import_shows_the_means_and_field_problems(client, owner, toy):
    client.force_login(owner)
    url = reverse("external_scores_import", args=[toy.pk])
    form = {"metric": "ter", "description": "tercom", "file": upload("t.tsv", SCORES)}
    html = client.post(url, form).content.decode()
    assert "the name of mtdash&#x27;s own metric" in html
    assert ExternalMetric.objects.count() == 0
    form = {
        "metric": "comet-22",
        "description": "wmt22-comet-da",
        "file": upload("c.tsv", SCORES),
    }
    html = client.post(url, form).content.decode()
    assert "3 segment scores of comet-22 imported" in html
    assert '<td>sys-a</td><td class="num">0.5000</td>' in html
    assert ExternalMetric.objects.get().higher_is_better is True


@pytest.mark.parametrize("name", ["judgments_import", "external_scores_import"])
def test_the_pages_need_a_login_and_hide_other_teams(client, outsider, toy, name):
    url = reverse(name, args=[toy.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.post(url, {"file": upload("j.csv", JUDGMENTS)}).status_code == 404
    assert Judgment.objects.count() == 0
