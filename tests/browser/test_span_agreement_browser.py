"""The span-level meta-evaluation as a person runs it in Chromium, with a
real Celery worker: on an annotated test set's metric-evaluation page the
"Error spans" form queues the job, the page follows its progress and
reloads itself with the table once the worker is done; the variant switch
and a metric's per-system rows. Full-page screenshot in
``var/screenshots/``."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.judgments.models import ErrorSpanEvaluation
from tests.browser.support import full_page, log_in, screenshot_dir
from tests.web.judgments.span_agreement_support import JUDGE, annotate
from tests.web.judgments.span_world import METRIC

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown_rows(browser) -> dict[str, list[str]]:
    """metric -> the P, R, F1 values of the section's main table."""
    table = browser.find_element(By.ID, "span-agreement-table")
    return {
        row.get_attribute("data-metric"): [
            value.text for value in row.find_elements(By.CSS_SELECTOR, ".value")
        ]
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    }


def test_the_error_spans_section_runs_and_shows_its_table(
    browser, live_server, owner, test_set, celery_worker_process
):
    annotate(test_set, owner)
    wait = log_in(browser, live_server, owner, timeout=60)
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/correlations/#error-spans")
    wait.until(EC.visibility_of_element_located((By.ID, "span-none")))
    resamples = browser.find_element(By.ID, "span_bootstrap")
    resamples.clear()
    resamples.send_keys("300")
    browser.find_element(By.ID, "span-run").click()
    # The page polls the job and reloads once the worker is done.
    WebDriverWait(browser, 120).until(
        EC.presence_of_element_located((By.ID, "span-agreement-table"))
    )
    job = ErrorSpanEvaluation.objects.get()
    assert (job.status, job.n_samples) == ("succeeded", 300)
    rows = shown_rows(browser)
    assert list(rows) == [JUDGE, METRIC]
    for metric, values in rows.items():
        (result,) = [
            r
            for m in job.result["metrics"]
            if m["metric"] == metric
            for r in m["results"]
            if (r["variant"], r["average"]) == ("mpp", "micro")
        ]
        assert values == [
            f"{result['overall'][name]:.3f}" for name in ("precision", "recall", "f1")
        ]
    settings = browser.find_element(By.ID, "span-settings-used").text
    assert "300 bootstrap resamples" in settings

    browser.find_element(By.ID, "span-variant-w25").click()
    wait.until(EC.url_contains("span_variant=w25"))
    table = browser.find_element(By.ID, "span-agreement-table")
    assert table.get_attribute("data-variant") == "w25"
    details = browser.find_element(
        By.CSS_SELECTOR, f'details.span-systems[data-metric="{JUDGE}"]'
    )
    details.find_element(By.TAG_NAME, "summary").click()
    systems = details.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [row.get_attribute("data-system") for row in systems] == [
        "alpha",
        "beta",
        "gamma",
    ]
    assert all(row.is_displayed() for row in systems)
    section = browser.find_element(By.ID, "error-spans")
    browser.execute_script("arguments[0].scrollIntoView();", section)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= browser.execute_script("return window.innerWidth")
    full_page(browser, "error-spans-agreement.png")
    section.screenshot(str(screenshot_dir() / "error-spans-agreement-section.png"))
