"""Uploading a training corpus's word counts: validation, storage, use."""

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import TestSetAnalysis, WordCounts
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.evaluation.systems import word_counts
from tests.conftest import PASSWORD
from tests.web.helpers import text_file


def upload(client, user, test_set, content, name="train.tsv"):
    client.login(username=user.username, password=PASSWORD)
    return client.post(
        reverse("word_counts_new", args=[test_set.pk]),
        {"name": "", "counts_file": text_file(name, content)},
    )


def test_it_reads_word_tab_count_lines():
    parsed = word_counts.read_word_counts(b"the\t10\n\ncat\t0\n")
    assert parsed.ok and parsed.counts == {"the": 10, "cat": 0}


@pytest.mark.parametrize(
    "content, message",
    [
        (
            b"the\t1\ncat 2\n",
            "train.tsv, line 2: expected word<TAB>count, found no tab",
        ),
        (b"the\tmany\n", "line 1: the count 'many' of 'the' is not a whole number"),
        (b"the\t-3\n", "line 1: the count '-3'"),
        (b"a\t1\tx\n", "line 1: expected word<TAB>count, found 3 tab-separated fields"),
        (b"a\t1\nb\t2\na\t3\n", "line 3: 'a' is counted twice (first on line 1)"),
        (b"ok\t1\n\xff\t2\n", "train.tsv, line 2: not UTF-8 text"),
        (b"\n\n", "no word counts"),
    ],
)
def test_it_rejects_a_bad_line_naming_it(content, message):
    parsed = word_counts.read_word_counts(content, "train.tsv")
    assert not parsed.ok
    assert any(message in error for error in parsed.errors), parsed.errors


def test_it_reports_at_most_ten_problems_and_how_many_more():
    parsed = word_counts.read_word_counts(b"bad\n" * 25)
    assert len(parsed.errors) == 11
    assert "15 more lines with problems" in parsed.errors[-1]


def test_a_member_uploads_and_the_worker_buckets_with_them(client, member, test_set):
    job = create_system_output(
        test_set, member, "sys", ["the cat", "it rains", "hello"], queue=False
    )
    run_scoring_job(job.pk)
    response = upload(client, member, test_set, "the\t5000\ncat\t7\n")
    assert response.status_code == 302
    stored = WordCounts.objects.get(test_set=test_set)
    assert (stored.name, stored.counts) == ("train.tsv", {"the": 5000, "cat": 7})
    compare_test_set(test_set)
    data = TestSetAnalysis.objects.get(kind=f"output:{job.output.pk}").data
    entry = next(e for e in data["word_accuracy"] if e["key"] == f"counts:{stored.pk}")
    assert entry["name"] == "train.tsv"
    # "the" (5000) is the only output word at >= 1000, "cat" (7) in [5,10).
    assert entry["output_words"][entry["labels"].index(">=1000")] == 2  # 2 refs
    assert entry["output_words"][entry["labels"].index("[5,10)")] == 2
    page = client.get(
        reverse("output_detail", args=[job.output.pk]),
        {"frequencies": f"counts:{stored.pk}"},
    ).content.decode()
    assert "word frequency in train.tsv" in page


def test_a_bad_file_stores_nothing_and_names_the_line(client, owner, test_set):
    response = upload(client, owner, test_set, "the\t1\nthe\t2\n")
    assert response.status_code == 200
    assert "line 2: &#x27;the&#x27; is counted twice" in response.content.decode()
    assert not WordCounts.objects.exists()


def test_a_file_over_the_limit_is_refused(client, owner, test_set, monkeypatch):
    monkeypatch.setattr("mtdash.evaluation.systems.word_counts_upload.MAX_BYTES", 10)
    response = upload(client, owner, test_set, "the\t123456789\n")
    assert "the limit is" in response.content.decode()
    assert not WordCounts.objects.exists()


def test_another_team_gets_404(client, outsider, test_set):
    assert upload(client, outsider, test_set, "a\t1\n").status_code == 404
    assert not WordCounts.objects.exists()
