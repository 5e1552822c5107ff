"""A person imports human judgments on the import page; the worker computes
the correlations; the metric-evaluation page shows the table, and a click
on a cell draws its scatter plot with the systems named. Full-page
screenshots go to ``MTDASH_SCREENSHOT_DIR`` (default ``var/screenshots/``)."""

from __future__ import annotations

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import full_page, log_in
from tests.web.judgments.test_correlations_support import (
    OUTPUTS,
    comet_tsv,
    judgments_csv,
    scored_outputs,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for_table(browser, url: str, seconds: float = 90):
    """Reload until the worker has stored the table."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        browser.get(url)
        if browser.find_elements(By.ID, "correlation-table"):
            return browser.find_element(By.ID, "correlation-table")
        time.sleep(1)
    raise AssertionError("the correlation table never appeared")


def test_import_judgments_then_correlations_then_a_scatter_plot(
    browser, live_server, owner, test_set, celery_worker_process, tmp_path
):
    from mtdash.evaluation.external_scores.imports import import_external_scores

    scored_outputs(test_set, owner)
    import_external_scores(
        test_set, owner, "comet", "wmt22-comet-da", True, comet_tsv(), "comet.tsv"
    )
    judgments = tmp_path / "judgments.csv"
    judgments.write_bytes(judgments_csv())
    wait = log_in(browser, live_server, owner, timeout=60)
    page_url = f"{live_server.url}/test-sets/{test_set.pk}/correlations/"

    # Before any judgment the page says how to get some.
    browser.get(page_url)
    notice = wait.until(
        EC.visibility_of_element_located((By.ID, "correlations-no-judgments"))
    )
    notice.find_element(By.LINK_TEXT, "Import judgments").click()

    # The existing import page.
    browser.find_element(By.ID, "id_file").send_keys(str(judgments))
    browser.find_element(By.CSS_SELECTOR, "#judgments-form button").click()
    wait.until(EC.element_to_be_clickable((By.ID, "preview-import"))).click()
    result = wait.until(EC.visibility_of_element_located((By.ID, "import-result")))
    assert "adequacy" in result.text and "fluency" in result.text

    table = wait_for_table(browser, page_url)
    headers = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    assert headers[0] == "Metric"
    assert any(h.startswith("adequacy") for h in headers)
    metrics = [th.text for th in table.find_elements(By.CSS_SELECTOR, "tbody th")]
    assert sorted(m.lstrip("−") for m in metrics) == ["bleu", "chrf", "comet", "ter"]
    best = table.find_elements(By.CSS_SELECTOR, "td.cell.best")
    assert len(best) == 2  # one per criterion
    full_page(browser, "correlations-table.png")

    # A click on the COMET x adequacy cell draws its scatter plot.
    browser.find_element(
        By.CSS_SELECTOR,
        'button.cell-button[data-metric="comet"][data-criterion="adequacy"]',
    ).click()
    panel = wait.until(EC.visibility_of_element_located((By.ID, "scatter-panel")))
    wait.until(
        lambda driver: driver.find_elements(By.CSS_SELECTOR, "#scatter-chart .main-svg")
    )
    wait.until(
        lambda driver: "points" in driver.find_element(By.ID, "scatter-note").text
    )
    labels = {
        element.text
        for element in panel.find_elements(By.CSS_SELECTOR, "#scatter-chart .textpoint")
    }
    assert labels == set(OUTPUTS)  # every system named, "<b>odd</b>" as typed
    assert panel.find_elements(By.CSS_SELECTOR, "#scatter-chart .js-line")  # the fit
    link = browser.find_element(By.ID, "scatter-disagreements").get_attribute("href")
    assert "metric=comet" in link and "criterion=adequacy" in link
    full_page(browser, "correlations-scatter-system.png")

    # Sentence level, Kendall: another table, a scatter of every judged sentence.
    browser.find_element(By.ID, "level-sentence").click()
    browser.find_element(By.ID, "method-kendall").click()
    table = wait.until(EC.presence_of_element_located((By.ID, "correlation-table")))
    assert table.get_attribute("data-level") == "sentence"
    assert table.get_attribute("data-method") == "kendall"
    table.find_element(
        By.CSS_SELECTOR,
        'button.cell-button[data-metric="ter"][data-criterion="fluency"]',
    ).click()
    wait.until(
        lambda driver: "12 points" in driver.find_element(By.ID, "scatter-note").text
    )
    # TER is an error rate: the note says the table correlates its negation.
    assert "error rate" in browser.find_element(By.ID, "scatter-note").text
    full_page(browser, "correlations-scatter-sentence.png")
