"""A person opens an ORANGE job whose chunk's worker died, sees why it is
stuck, and runs the unfinished chunks again; a finished job's page stays plain."""

import os
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.celery import app as celery_app
from mtdash.orange import views as orange_views
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_chunk
from mtdash.orange.models import OrangeChunk, OrangeJob
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEAD_WORKER = "celery@worker-7.gpu-cluster.example.org:4242"


def log_in(browser, live_server, user) -> WebDriverWait:
    wait = WebDriverWait(browser, 30)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(user.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    return wait


def screenshots(tmp_path) -> str:
    return str(screenshot_dir())


def boxes_overlap(a, b) -> bool:
    return not (
        a.location["x"] + a.size["width"] <= b.location["x"]
        or b.location["x"] + b.size["width"] <= a.location["x"]
        or a.location["y"] + a.size["height"] <= b.location["y"]
        or b.location["y"] + b.size["height"] <= a.location["y"]
    )


def stuck_job(nbest, owner):
    """A job of three chunks: the first done, the second held by a worker
    that stopped renewing its lease, the third queued."""
    job = create_orange_job(nbest, owner, ["bleu"], queue=False, max_sentences=1)
    first, stuck, waiting = job.chunks.order_by("index")
    run_orange_chunk(first.pk)
    OrangeChunk.objects.filter(pk=stuck.pk).claim()
    OrangeChunk.objects.filter(pk=stuck.pk).update(
        claimed_by=DEAD_WORKER, lease_expires_at=timezone.now() - timedelta(minutes=7)
    )
    return job, stuck, waiting


def test_a_user_runs_the_unfinished_chunks_of_a_stuck_job_again(
    browser, live_server, owner, nbest, monkeypatch, tmp_path
):
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: sent.append((name, args[0]))
    )
    job, stuck, waiting = stuck_job(nbest, owner)

    wait = log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}{job.get_absolute_url()}")

    facts = wait.until(EC.visibility_of_element_located((By.ID, "orange-job-facts")))
    warning = browser.find_element(By.ID, "orange-job-stuck")
    assert "stopped renewing its lease" in warning.text
    assert browser.find_element(By.ID, "orange-chunks-done").text == "1 / 3"
    assert browser.find_element(By.ID, "orange-chunks-running").text == "1 (1 stopped)"
    assert browser.find_element(By.ID, "orange-chunks-queued").text == "1"
    row = browser.find_element(By.CSS_SELECTOR, "#orange-running-chunks tr.stuck")
    assert DEAD_WORKER in row.text and "stopped" in row.text
    button = browser.find_element(By.ID, "orange-retry")
    assert button.text == "Run the unfinished chunks again"
    hint = browser.find_element(By.CSS_SELECTOR, ".job-actions .hint")
    # The button and its hint side by side on one line; nothing overlaps.
    assert button.location["x"] + button.size["width"] < hint.location["x"]
    assert abs(button.location["y"] - hint.location["y"]) < button.size["height"]
    table = browser.find_element(By.ID, "orange-running-chunks")
    for a, b in [(facts, button), (facts, table), (table, button), (warning, facts)]:
        assert not boxes_overlap(a, b)
    # Every fact has a visible label above its value, two rows at most.
    labels = facts.find_elements(By.TAG_NAME, "dt")
    assert all(label.text for label in labels) and len(labels) == 10
    assert facts.size["height"] < 140
    browser.save_screenshot(os.path.join(screenshots(tmp_path), "orange-stuck.png"))
    # On a narrow window the running chunks' table (a long worker name) still
    # fits inside the card instead of spilling out of it.
    size = browser.get_window_size()
    browser.set_window_size(720, 1000)
    try:
        card = browser.find_element(By.ID, "orange-job")
        right = table.location["x"] + table.size["width"]
        assert right <= card.location["x"] + card.size["width"]
        browser.save_screenshot(
            os.path.join(screenshots(tmp_path), "orange-stuck-narrow.png")
        )
    finally:
        browser.set_window_size(size["width"], size["height"])

    button.click()
    wait.until(EC.text_to_be_present_in_element((By.CLASS_NAME, "messages"), "Queued"))
    assert (
        "Queued 2 chunks again." in browser.find_element(By.CLASS_NAME, "messages").text
    )
    assert browser.find_elements(By.ID, "orange-retry") == []
    assert browser.find_elements(By.ID, "orange-job-stuck") == []
    assert sent == [
        (OrangeChunk.task_name, stuck.pk),
        (OrangeChunk.task_name, waiting.pk),
    ]
    # The page polls its status (after 0.5 s, then every second) and reloads
    # only when what it shows changed: it must not reload in a loop.
    browser.execute_script("window.notReloaded = true;")
    time.sleep(2.5)
    assert browser.execute_script("return window.notReloaded === true;")
    assert browser.find_element(By.ID, "orange-job-status").text == "Running"
    browser.save_screenshot(os.path.join(screenshots(tmp_path), "orange-retried.png"))

    for _, pk in sent:
        run_orange_chunk(pk)
    assert OrangeJob.objects.get(pk=job.pk).status == OrangeJob.Status.SUCCEEDED
    # Now the poller sees the job finished and reloads with the results.
    wait.until(EC.presence_of_element_located((By.ID, "orange-table")))


def test_the_pages_poll_leaves_a_sent_retry_to_answer(
    browser, live_server, owner, nbest, monkeypatch
):
    """The retry changes what the page shows (no chunk stuck) before its
    answer arrives; the page's poll, which reloads on such a change, must not
    reload over the request meanwhile: the person would never see what the
    click did (CI once timed out waiting for its message)."""
    monkeypatch.setattr(celery_app, "send_task", lambda name, args: None)
    job, _, _ = stuck_job(nbest, owner)
    retry = orange_views.retry_orange_job

    def answered_slowly(job):
        done = retry(job)  # committed: the page's next poll sees it
        time.sleep(2.5)  # two or three polls meanwhile
        return done

    monkeypatch.setattr(orange_views, "retry_orange_job", answered_slowly)
    wait = log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}{job.get_absolute_url()}")
    wait.until(EC.visibility_of_element_located((By.ID, "orange-job-stuck")))
    browser.find_element(By.ID, "orange-retry").click()
    wait.until(
        EC.text_to_be_present_in_element(
            (By.CLASS_NAME, "messages"), "Queued 2 chunks again."
        )
    )


def test_a_succeeded_jobs_page_shows_its_facts_without_clutter(
    browser, live_server, owner, nbest, tmp_path
):
    job = create_orange_job(nbest, owner, ["bleu", "wer"], queue=False, max_sentences=1)
    for pk in job.chunks.values_list("pk", flat=True):
        run_orange_chunk(pk)

    wait = log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}{job.get_absolute_url()}")

    facts = wait.until(EC.visibility_of_element_located((By.ID, "orange-job-facts")))
    wait.until(EC.presence_of_element_located((By.ID, "orange-table")))
    assert browser.find_element(By.ID, "orange-chunks-done").text == "3 / 3"
    assert browser.find_elements(By.ID, "orange-retry") == []
    assert browser.find_elements(By.ID, "orange-running-chunks") == []
    assert browser.find_elements(By.ID, "orange-job-stuck") == []
    labels = [label.text for label in facts.find_elements(By.TAG_NAME, "dt")]
    assert labels == [
        "CHUNKS DONE",
        "CHUNK ATTEMPTS",
        "MERGE ATTEMPTS",
        "CREATED",
        "STARTED",
        "FINISHED",
        "ELAPSED",
    ]
    assert facts.size["height"] < 140
    browser.save_screenshot(os.path.join(screenshots(tmp_path), "orange-succeeded.png"))
