"""A person opens a failed scoring job, sees its details and runs it again."""

import os
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.celery import app as celery_app
from mtdash.evaluation.models import ScoringJob
from mtdash.evaluation.services.uploads import create_system_output
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_user_runs_a_failed_job_again_from_its_page(
    browser, live_server, owner, test_set, monkeypatch, tmp_path
):
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args: sent.append((name, args[0]))
    )
    job = create_system_output(
        test_set, owner, "a-system-with-a-long-name", ["a", "b", "c"], queue=False
    )
    rows = ScoringJob.objects.filter(pk=job.pk)
    rows.claim()
    rows.fail("bleu: the worker ran out of memory while scoring sentence 2")

    wait = WebDriverWait(browser, 30)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    browser.get(f"{live_server.url}/jobs/{job.pk}/")

    facts = wait.until(EC.visibility_of_element_located((By.ID, "job-facts")))
    assert browser.find_element(By.ID, "job-attempts").text == "1"
    assert "ran out of memory" in browser.find_element(By.ID, "job-error").text
    button = browser.find_element(By.ID, "job-retry")
    link = browser.find_element(By.ID, "leaderboard-link")
    # Side by side, not touching: the button and the link do not overlap.
    assert button.location["x"] + button.size["width"] < link.location["x"]
    assert facts.size["height"] < 200
    shots = str(screenshot_dir())
    browser.save_screenshot(os.path.join(shots, "failed-job.png"))

    button.click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "job-status"), "Queued"))
    # The queued page polls its status (first after 0.5 s, then every second);
    # what the poller writes must read the same as what the server rendered.
    time.sleep(2)
    assert browser.find_element(By.ID, "job-status").text == "Queued"
    assert "Queued the job again." in browser.page_source
    assert browser.find_elements(By.ID, "job-retry") == []
    assert sent == [(ScoringJob.task_name, job.pk)]
    browser.save_screenshot(os.path.join(shots, "queued-job.png"))
