"""The leaderboard refreshes itself when its pending statistics arrive: a
page opened while the comparison job waits shows "interval pending"; the
test then completes the job (as a worker would) and the page, never
reloaded by the test, shows the intervals and clusters."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.leaderboard import comparison_queue
from mtdash.evaluation.leaderboard.comparisons import run_comparison_job
from mtdash.evaluation.models import ComparisonJob
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.browser.support import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUTPUTS = {
    "good": ["the cat is on the mat", "it is raining", "hello everyone"],
    "poor": ["cat", "rain", "greetings"],
}


def test_the_leaderboard_shows_its_intervals_once_the_statistics_arrive(
    browser, live_server, owner, test_set, monkeypatch
):
    # The test plays the worker: a session worker started by another test
    # must not take the comparison job before the page has shown it pending.
    monkeypatch.setattr(comparison_queue, "send_job_tasks", lambda *args: None)
    for name, hypotheses in OUTPUTS.items():
        job = create_system_output(test_set, owner, name, hypotheses, queue=False)
        run_scoring_job(job.pk)
    (waiting,) = ComparisonJob.objects.filter(test_set=test_set, status="queued")
    log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    table = WebDriverWait(browser, 30).until(
        EC.presence_of_element_located((By.ID, "leaderboard"))
    )
    assert table.find_elements(By.CSS_SELECTOR, "small.interval.pending")
    # A mark that a reload of the page would drop.
    browser.execute_script("window.beforeTheStatistics = true;")

    run_comparison_job(waiting.pk)

    def intervals_shown(driver) -> bool:
        # Read in one script: the page reloads itself, so elements found by
        # one call may be gone by the next.
        return driver.execute_script(
            "const cells = document.querySelectorAll('#leaderboard small.interval');"
            "return cells.length > 0 && "
            "![...cells].some(cell => cell.classList.contains('pending'));"
        )

    WebDriverWait(browser, 30).until(intervals_shown)
    assert browser.execute_script("return window.beforeTheStatistics") is None
    assert (
        "bootstrap interval" in browser.find_element(By.ID, "leaderboard-method").text
    )
