"""A queued job's status JSON, polled by its page every few seconds, reads
both counts of each kind of job in one query (issue 24 item 7: the status
request cost 10.6 ms of CPU; three queries per kind were most of it)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from mtdash.common.queueing import worker_models
from mtdash.evaluation.services.uploads import create_system_output

pytestmark = pytest.mark.django_db

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]


def test_a_queued_jobs_status_costs_one_query_per_kind_of_job(
    client, owner, test_set, django_assert_max_num_queries
):
    job = create_system_output(test_set, owner, "sys-a", HYPOTHESES, queue=False)
    client.force_login(owner)
    url = reverse("job_status", args=[job.pk])
    kinds = len(worker_models())
    assert kinds >= 5  # scoring, comparisons, readability, ORANGE...
    # Session, user, the job; its first waiting row; one per kind; the
    # running rows of the kinds that have any (none here).
    with django_assert_max_num_queries(4 + kinds):
        answer = client.get(url)
    assert answer.status_code == 200
    assert answer.json()["queue"]["ahead"] >= 0
