"""The task path of an error-span import: the API's import queues the test
set's comparison job after its commit, a real Celery worker runs it, and the
leaderboard JSON then has the ``mqm`` human column with its intervals."""

from __future__ import annotations

import time

import pytest

from mtdash.evaluation.models import ComparisonJob
from tests.web.helpers import text_file
from tests.web.judgments.span_world import MQM_SYSTEMS, annotated_outputs, mqm_tsv

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_an_mqm_import_becomes_a_human_column_through_the_worker(
    api, test_set, owner, celery_worker_process
):
    annotated_outputs(test_set, owner)
    response = api.post(
        f"/api/v1/test-sets/{test_set.pk}/error-spans/",
        {"file": text_file("mqm.tsv", mqm_tsv())},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert ComparisonJob.objects.filter(test_set=test_set).exists()

    deadline = time.monotonic() + 120
    while True:
        board = api.get(f"/api/v1/test-sets/{test_set.pk}/leaderboard").json()
        human = {row["system"]: row["human"].get("mqm") for row in board["systems"]}
        if all(human.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.2)

    assert set(human) == set(MQM_SYSTEMS)
    for system, expected in MQM_SYSTEMS.items():
        mqm = human[system]
        assert mqm is not None, f"no mqm column for {system} after 120 s"
        assert mqm["mean"] == pytest.approx(expected, abs=1e-9)
        assert mqm["ci_low"] <= mqm["mean"] <= mqm["ci_high"]
    assert board["human_significance"]["mqm"]["sources"] == "mqm.tsv"
