"""The WMT meta-evaluation as a person runs it in Chromium, with a real
Celery worker: on a judged test set's metric-evaluation page, the settings
form queues the job and the page shows the WMT table (cells shaded by rank
cluster, ε under acc_eq) once the worker is done; across test sets, two
test sets chosen with weights give the overall table beside each test
set's. Full-page screenshots go to ``var/screenshots/``."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from tests.browser.support import full_page, log_in
from tests.web.judgments.meta_evaluation_support import another_test_set, judge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

METRICS = {"bleu", "chrf", "ter", "comet"}


def wait_for(browser, url: str, element_id: str, seconds: float = 120):
    """Reload ``url`` until the worker's result shows ``element_id``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        browser.get(url)
        found = browser.find_elements(By.ID, element_id)
        if found:
            return found[0]
        failed = browser.find_elements(By.CSS_SELECTOR, ".meta-error")
        assert not failed, failed[0].text
        time.sleep(1)
    raise AssertionError(f"#{element_id} never appeared on {url}")


def rows_of(table) -> dict[str, list]:
    """{metric: its cells} of a WMT table, read in one pass."""
    return {
        row.get_attribute("data-metric"): row.find_elements(By.CSS_SELECTOR, "td")
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    }


def test_the_wmt_section_then_the_table_across_test_sets(
    browser, live_server, owner, team, test_set, celery_worker_process
):
    judge(test_set, owner)
    second = another_test_set(team, owner)
    wait = log_in(browser, live_server, owner, timeout=60)

    page = f"{live_server.url}/test-sets/{test_set.pk}/correlations/"
    browser.get(f"{page}#meta-evaluation")
    wait.until(EC.visibility_of_element_located((By.ID, "meta-none")))
    permutations = browser.find_element(By.ID, "id_permutations")
    permutations.clear()
    permutations.send_keys("300")
    browser.find_element(By.ID, "meta-run").click()
    table = wait_for(browser, page, "meta-table")
    rows = rows_of(table)
    assert set(rows) == METRICS
    top = [
        cell
        for cells in rows.values()
        for cell in cells
        if cell.get_attribute("data-cluster") == "1"
    ]
    assert top and all("shade-" in cell.get_attribute("class") for cell in top)
    assert "ε =" in table.text  # acc_eq's calibrated tie threshold
    settings = browser.find_element(By.ID, "meta-settings-used").text
    assert "300 permutations" in settings
    full_page(browser, "meta-evaluation-section.png")

    browser.get(f"{live_server.url}/meta-evaluations/")
    for chosen in (test_set, second):
        browser.find_element(By.ID, f"meta-choose-{chosen.pk}").click()
    Select(browser.find_element(By.ID, "id_criterion")).select_by_value("adequacy")
    permutations = browser.find_element(By.ID, "id_permutations")
    permutations.clear()
    permutations.send_keys("200")
    browser.find_element(By.ID, "meta-across-run").click()
    wait.until(EC.url_matches(r"/meta-evaluations/\d+/$"))
    overall = wait_for(browser, browser.current_url, "meta-overall-table")
    assert set(rows_of(overall)) == METRICS
    for chosen in (test_set, second):
        block = browser.find_element(By.ID, f"meta-test-set-{chosen.pk}")
        assert chosen.name in block.text
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= browser.execute_script("return window.innerWidth")
    full_page(browser, "meta-evaluation-across.png")
