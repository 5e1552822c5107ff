"""A reader switches the correction for multiple comparisons on the
leaderboard and follows it to the p-value matrix; the human column shows
its interval and rank."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import full_page, log_in
from tests.web.evaluation.test_leaderboard_corrections import compared  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_correction_switch_reaches_the_pvalue_matrix(
    browser,
    live_server,
    owner,
    compared,  # noqa: F811
):
    wait = log_in(browser, live_server, owner, timeout=60)
    browser.get(f"{live_server.url}{compared.get_absolute_url()}?metric=chrf")
    method = wait.until(EC.presence_of_element_located((By.ID, "leaderboard-method")))
    assert "two-sided 95% percentile bootstrap interval" in method.text
    assert "Holm-adjusted p < 0.05 over all 6 pairs" in method.text
    human = browser.find_elements(By.CSS_SELECTOR, "td.human .human-interval")
    assert len(human) == 4 and all(cell.text.startswith("[") for cell in human)
    assert "rank" in browser.find_element(By.CSS_SELECTOR, "td.human").text
    full_page(browser, "leaderboard-corrections-holm.png")
    switch = browser.find_element(By.ID, "correction-switch")
    switch.find_element(By.LINK_TEXT, "Bonferroni").click()
    wait.until(
        EC.text_to_be_present_in_element(
            (By.ID, "leaderboard-correction"), "Bonferroni-adjusted"
        )
    )
    browser.find_element(By.ID, "pvalues-link").click()
    hint = wait.until(EC.presence_of_element_located((By.ID, "pvalue-method")))
    assert "Two-sided p-value" in hint.text
    assert "Bonferroni-adjusted over all 6 pairs" in hint.text
    full_page(browser, "pvalues-corrections-bonferroni.png")
