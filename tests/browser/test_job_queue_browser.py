"""A queued job's page keeps its place in the queue up to date as it polls:
when the job before it is taken by a worker, the page says it is next and
names that worker, without a reload."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from tests.browser.support import log_in
from tests.web.common.test_job_queue import quiet_queue_but_scoring

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]
WORKER = "gpu-box-7:4242"


def test_the_queue_box_follows_the_queue_while_the_job_waits(
    browser, live_server, owner, test_set
):
    first, second = (
        create_system_output(test_set, owner, name, HYPOTHESES, queue=False)
        for name in ("first", "second")
    )
    quiet_queue_but_scoring()
    log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}{second.get_absolute_url()}")
    box = browser.find_element(By.ID, "job-queue")
    assert box.text.startswith("Waiting for a worker: 1 task queued before it")
    assert "nothing running" in box.text
    browser.execute_script("window.notReloaded = true;")

    now = timezone.now()
    ScoringJob.objects.filter(pk=first.pk).update(
        status=ScoringJob.Status.RUNNING,
        claimed_by=WORKER,
        started_at=now,
        lease_expires_at=now + timedelta(minutes=5),
    )

    WebDriverWait(browser, 15).until(
        lambda driver: "next in the queue; 1 running" in box.text
    )
    assert f"scoring job on {WORKER} since" in box.text
    assert browser.execute_script("return window.notReloaded") is True
