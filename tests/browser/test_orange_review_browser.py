"""A reviewer draws a sample of candidates ranked above the references on the
ORANGE job page, marks every item with the keyboard, and reads the share of
genuine metric errors on the report page. Full-page screenshots of the three
pages go to ``MTDASH_SCREENSHOT_DIR`` (default ``var/screenshots/``)."""

import time

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.models import OrangeReviewMark
from scoring.orange import OrangeOptions
from tests.browser.support import full_page, gone, log_in, screenshot_dir
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    demo_world_fixture,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Keys pressed, one per item, and the verdict each must store.
KEYS = ["w", "g", "2", "u", "1", "3"]
VERDICTS = ["worse", "good", "worse", "unsure", "good", "unsure"]


def part(browser, css: str, name: str) -> None:
    """A screenshot of one element (retried: Plotly may redraw the node)."""
    for attempt in range(3):
        try:
            element = browser.find_element(By.CSS_SELECTOR, css)
            browser.execute_script("arguments[0].scrollIntoView();", element)
            time.sleep(0.3)
            element.screenshot(str(screenshot_dir() / name))
            return
        except WebDriverException:
            if attempt == 2:
                raise


def test_a_keyboard_review_session_ends_in_the_error_share(
    browser, live_server, owner, demo_world
):
    _, nbest = demo_world
    options = OrangeOptions(curve_step=1, n_bootstrap=200, seed=1)
    job = run_orange_job_now(
        create_orange_job(
            nbest,
            owner,
            ["bleus", "bleus:n=3", "rouge-s:d=4", "wer", "per"],
            options,
            queue=False,
        )
    )
    wait = log_in(browser, live_server, owner)
    browser.set_window_size(1280, 900)
    browser.get(f"{live_server.url}{job.get_absolute_url()}?metric=wer")
    wait.until(EC.presence_of_element_located((By.ID, "orange-table")))
    labels = [
        row.get_attribute("data-label")
        for row in browser.find_elements(By.CSS_SELECTOR, "#orange-table tbody tr")
    ]
    assert labels == ["bleus:n=4", "bleus:n=3", "rouge-s:d=4", "wer", "per"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#orange-table tr.best")) == 1
    full_page(browser, "orange-job-paired-test.png")
    for css, name in [
        ("#orange-table", "orange-job-table.png"),
        ("#orange-curve", "orange-job-curve.png"),
        ("#above-reference article", "orange-job-above-reference.png"),
        ("#reviews", "orange-job-reviews.png"),
    ]:
        part(browser, css, name)

    Select(browser.find_element(By.ID, "id_metric")).select_by_value("wer")
    size = browser.find_element(By.ID, "id_size")
    size.clear()
    size.send_keys(str(len(KEYS)))
    browser.find_element(By.CSS_SELECTOR, "#review-new button[type=submit]").click()

    for number, key in enumerate(KEYS, start=1):
        item = wait.until(EC.presence_of_element_located((By.ID, "review-item")))
        assert item.get_attribute("data-position") == str(number)
        if number == 1:
            full_page(browser, "orange-review-item.png")
        ActionChains(browser).send_keys(key).perform()
        wait.until(gone(item))
    done = wait.until(EC.presence_of_element_located((By.ID, "review-done")))
    assert f"All {len(KEYS)} items marked" in done.text

    review = job.reviews.get()
    stored = dict(
        OrangeReviewMark.objects.filter(item__review=review).values_list(
            "item__position", "verdict"
        )
    )
    assert [stored[i] for i in range(len(KEYS))] == VERDICTS

    browser.find_element(By.LINK_TEXT, "See the report").click()
    share = wait.until(EC.presence_of_element_located((By.ID, "error-share-value")))
    worse, good = VERDICTS.count("worse"), VERDICTS.count("good")
    assert share.text == f"{100 * worse / (worse + good):.1f}%"
    reviewer = browser.find_element(By.CSS_SELECTOR, "#reviewer-table tbody tr")
    assert reviewer.get_attribute("data-reviewer") == owner.username
    verdict = browser.find_element(By.ID, "criterion-verdict").text
    assert "confidently applied" in verdict
    full_page(browser, "orange-review-report.png")
