"""The browser's import pages, linked from the test set page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from mtdash.evaluation.models import ExternalMetric
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.models import Judgment

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


@pytest.fixture(autouse=True)
def artifacts(settings, tmp_path):
    """Pending files in a folder of the test's own."""
    settings.MTDASH_ARTIFACT_DIR = tmp_path / "artifacts"
    return settings.MTDASH_ARTIFACT_DIR


def preview_url(client, toy, content: str, name: str = "j.csv") -> str:
    """Step 1: the file; returns the preview page's address."""
    response = client.post(
        reverse("judgments_import", args=[toy.pk]), {"file": upload(name, content)}
    )
    assert response.status_code == 302, response.content.decode()
    return response["Location"]


def test_judgments_import_previews_then_stores_on_confirmation(
    client, owner, toy, artifacts
):
    client.force_login(owner)
    assert client.get(reverse("judgments_import", args=[toy.pk])).status_code == 200
    url = preview_url(client, toy, JUDGMENTS)
    html = client.get(url).content.decode()
    assert Judgment.objects.count() == 0  # nothing stored by the preview
    assert "<strong>3 judgments</strong> would be stored." in html
    assert '<tr><th scope="row">segment</th><td>column segment</td></tr>' in html
    assert '<tr><th scope="row">judge</th><td>column judge' in html
    assert "<li>3 data rows read; 3 judgments to store</li>" in html
    assert '<td>sys-a</td><td class="num">3</td><td>matched</td>' in html
    assert (
        '<td class="num">2</td><td class="num">1</td><td class="num">1</td>'
        "<td>sys-a</td><td>j1</td><td>adequacy</td>" in html
    )
    assert len(list(artifacts.rglob("*"))) == 2  # the folder and the file

    response = client.post(url, {"action": "import", "previewed": "auto|line"})
    html = response.content.decode()
    assert "3 judgments imported" in html
    assert '<td>adequacy</td><td>sys-a</td><td class="num">2</td>' in html
    assert '<td>fluency</td><td>sys-a</td><td class="num">1</td>' in html
    assert Judgment.objects.count() == 3
    assert [p for p in artifacts.rglob("*") if p.is_file()] == []
    assert client.get(url).status_code == 404  # imported once, then forgotten


def test_an_unknown_system_shows_in_the_preview_and_nothing_is_stored(
    client, owner, toy
):
    client.force_login(owner)
    url = preview_url(client, toy, JUDGMENTS + "1,sys-b,j1,adequacy,4\n")
    html = client.get(url).content.decode()
    assert '<td>sys-b</td><td class="num">1</td><td><strong>no output' in html
    assert (
        "j.csv, line 5: unknown system &#x27;sys-b&#x27;: the test set has outputs "
        "of sys-a" in html
    )
    assert 'id="preview-import"' not in html
    client.post(url, {"action": "import", "previewed": "auto|line"})
    assert Judgment.objects.count() == 0


def test_an_unreadable_file_is_refused_at_once(client, owner, toy):
    client.force_login(owner)
    url = reverse("judgments_import", args=[toy.pk])
    bad = JUDGMENTS + "3,sys-a,j1,adequacy,good\n"
    response = client.post(url, {"file": upload("j.csv", bad)})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was stored." in html
    assert "j.csv, line 5: value &#x27;good&#x27; is not a number" in html
    assert Judgment.objects.count() == 0


def test_import_after_changing_an_option_shows_the_new_preview_first(
    client, owner, toy
):
    client.force_login(owner)
    url = preview_url(client, toy, JUDGMENTS)
    response = client.post(
        url, {"action": "import", "human_rows": "skip", "previewed": "auto|line"}
    )
    assert 'value="skip|line"' in response.content.decode()
    assert Judgment.objects.count() == 0
    client.post(
        url, {"action": "import", "human_rows": "skip", "previewed": "skip|line"}
    )
    assert Judgment.objects.count() == 3


def test_cancel_forgets_the_file(client, owner, toy, artifacts):
    client.force_login(owner)
    url = preview_url(client, toy, JUDGMENTS)
    response = client.post(url, {"action": "cancel"})
    assert response.status_code == 302
    assert response["Location"] == reverse("judgments_import", args=[toy.pk])
    assert [p for p in artifacts.rglob("*") if p.is_file()] == []
    assert client.get(url).status_code == 404


def test_only_the_uploader_sees_a_pending_file(client, owner, member, toy):
    client.force_login(owner)
    url = preview_url(client, toy, JUDGMENTS)
    client.force_login(member)  # same team, another session
    assert client.get(url).status_code == 404
    assert (
        client.post(url, {"action": "import", "previewed": "auto|line"}).status_code
        == 404
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


def test_files_left_waiting_over_a_day_are_swept(client, owner, toy, artifacts):
    from datetime import timedelta

    from django.utils import timezone

    from mtdash.judgments.imports import pending

    client.force_login(owner)
    preview_url(client, toy, JUDGMENTS)
    (waiting,) = [p for p in artifacts.rglob("*") if p.is_file()]
    assert pending.sweep() == 0  # not a day old yet
    assert pending.sweep(timezone.now() + timedelta(days=1, seconds=1)) == 1
    assert not waiting.exists()


def test_the_preview_escapes_what_the_file_says(client, owner, toy):
    client.force_login(owner)
    content = (
        "segment,system,judge,value,<i>x</i>\n1,<b>sys</b>,<script>j</script>,4,y\n"
    )
    html = client.get(preview_url(client, toy, content)).content.decode()
    assert "&lt;b&gt;sys&lt;/b&gt;" in html and "<b>sys</b>" not in html
    assert "&lt;script&gt;j&lt;/script&gt;" in html and "<script>j" not in html
