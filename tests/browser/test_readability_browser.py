"""The readability pages in headless Chromium: a test set's page while a
worker counts it (a progress bar), which shows the figures by itself once
the job has run, with the chart drawn; then from it the cross-test-set page, where ticking the other
two text types of the paper's experiment gives Table 5's improvement and
both before/after charts. Full-page screenshots go to
``MTDASH_SCREENSHOT_DIR`` (or ``var/screenshots/``)."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from mtdash.evaluation.readability import jobs as readability_jobs
from mtdash.evaluation.services.uploads import TestSetData, create_test_set
from tests.browser.support import full_page, gone, log_in
from tests.web.evaluation.readability_support import count_readability
from tests.web.evaluation.test_readability_stability import make_paper_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_researcher_reads_a_test_sets_readability_then_compares_text_types(
    browser, live_server, team, owner, monkeypatch
):
    # The test plays the worker (count_readability): a session worker started
    # by another test must not count before the page has shown the job queued.
    monkeypatch.setattr(readability_jobs, "send_job_tasks", lambda *args: None)
    white_paper, news, emails = make_paper_world(team, owner)
    italian = TestSetData(
        "newstest it-en",
        "it",
        "en",
        "news",
        "",
        ["Il gatto è sul tappeto.", "Piove."],
        {"A": ["The cat sits on the mat.", "It rains."]},
    )
    italian = create_test_set(team, owner, italian)
    wait = log_in(browser, live_server, owner, timeout=60)

    # Before any worker has run: the job and its progress, no figures.
    browser.get(f"{live_server.url}/test-sets/{white_paper.pk}/readability/")
    pending = wait.until(EC.presence_of_element_located((By.ID, "readability-pending")))
    assert "A worker is counting" in pending.text and "Queued" in pending.text
    full_page(browser, "readability_pending.png")
    assert count_readability() == 4  # the worker's turn: every upload's job
    # The page follows the job and shows the figures without a click.
    wait.until(gone(pending))
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#readability-chart .main-svg")
        )
    )
    source = browser.find_element(By.ID, "text-source")
    assert "French syllable rules" in source.text
    assert "2.000" in source.text  # ASW of the whitepaper, as Table 3
    bars = browser.find_elements(By.CSS_SELECTOR, "#readability-chart .point")
    assert len(bars) == 6  # 2 texts x 3 panels
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    full_page(browser, "readability_test_set.png")

    browser.get(f"{live_server.url}/test-sets/{italian.pk}/readability/")
    row = wait.until(EC.presence_of_element_located((By.ID, "text-source")))
    assert "No syllable rules for Italian (it)" in row.text
    full_page(browser, "readability_unsupported_language.png")

    browser.get(f"{live_server.url}/test-sets/{white_paper.pk}/readability/")
    browser.find_element(By.ID, "readability-across-link").click()
    wait.until(EC.presence_of_element_located((By.ID, "stability-form")))
    assert browser.find_element(By.ID, f"choose-{white_paper.pk}").is_selected()
    for test_set in (news, emails):
        browser.find_element(By.ID, f"choose-{test_set.pk}").click()
    browser.find_element(By.ID, "stability-submit").click()
    wait.until(EC.presence_of_element_located((By.ID, "text-types-table")))
    # The reference defaults to the news test set; choose it explicitly too.
    Select(browser.find_element(By.ID, "id_reference")).select_by_value(str(news.pk))
    before = browser.find_element(By.ID, "text-types-table")
    browser.find_element(By.ID, "stability-submit").click()
    wait.until(gone(before))  # the new page, not the old one's chart
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#stability-chart-wnm .main-svg")
        )
    )
    assert browser.find_element(By.ID, "improvement-bleu").text == "× 3.299"
    assert browser.find_element(By.ID, "improvement-wnm").text == "× 2.253"
    reference_row = browser.find_element(By.CSS_SELECTOR, "tr.reference-type")
    assert "darpa news" in reference_row.text
    lines = browser.find_elements(By.CSS_SELECTOR, "#stability-chart-bleu .trace")
    assert len(lines) == 8  # 4 systems, raw and normalised
    full_page(browser, "readability_across.png")
