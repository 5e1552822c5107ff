"""A person uploads an n-best list, runs ORANGE, sees the table and the curve chart."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    remove_artifacts_afterwards_fixture,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_user_uploads_an_nbest_list_runs_orange_and_sees_table_and_curve(
    browser,
    live_server,
    owner,
    test_set,
    celery_worker_process,
    tmp_path,
    remove_artifacts_afterwards,
):
    wait = WebDriverWait(browser, 90)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    browser.find_element(By.ID, "orange-link").click()
    wait.until(
        EC.element_to_be_clickable((By.LINK_TEXT, "Upload an n-best list"))
    ).click()

    nbest_path = tmp_path / "toy.nbest"
    nbest_path.write_text(TOY_NBEST, encoding="utf-8")
    browser.find_element(By.ID, "id_nbest_file").send_keys(str(nbest_path))
    browser.find_element(By.ID, "id_name").send_keys("toy 3-best")
    browser.find_element(By.CSS_SELECTOR, "#nbest-form button[type=submit]").click()

    summary = wait.until(EC.presence_of_element_located((By.ID, "nbest-summary")))
    assert "3 sentences · 8 candidates · 2–3 per sentence" in summary.text
    browser.find_element(
        By.CSS_SELECTOR, "input[name=metrics][value='rouge-l']"
    ).click()
    browser.find_element(By.ID, "id_more_metrics").send_keys("rouge-s:d=4")
    step = browser.find_element(By.ID, "id_curve_step")
    step.clear()
    step.send_keys("1")
    browser.find_element(By.CSS_SELECTOR, "#orange-form button[type=submit]").click()

    # The job page follows the workers, then reloads with the results.
    table = wait.until(EC.presence_of_element_located((By.ID, "orange-table")))
    assert "Succeeded" in browser.find_element(By.ID, "orange-job-status").text
    metrics = [
        row.get_attribute("data-metric")
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    assert metrics == ["bleu", "rouge-l", "rouge-s:d=4"]
    assert len(table.find_elements(By.CSS_SELECTOR, "tbody tr.best")) >= 1
    assert "best" in table.find_element(By.CSS_SELECTOR, "tr.best .badge").text

    # Plotly has drawn one line per metric.
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#orange-curve .main-svg"))
    )
    legend = browser.find_elements(By.CSS_SELECTOR, "#orange-curve .legend .traces")
    assert len(legend) == 3
    assert (
        len(
            browser.find_elements(By.CSS_SELECTOR, "#orange-curve .scatterlayer .trace")
        )
        == 3
    )

    # The review list shows candidates as text, never as markup.
    browser.find_element(By.PARTIAL_LINK_TEXT, "rouge-s:d=4 (").click()
    review = wait.until(EC.presence_of_element_located((By.ID, "above-reference")))
    assert 'hello everyone <script>alert("x")</script>' in review.text

    browser.get(browser.current_url.split("?")[0])
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#orange-curve .main-svg"))
    )
    size = browser.get_window_size()
    try:
        height = browser.execute_script("return document.body.scrollHeight")
        browser.set_window_size(1280, min(max(height + 40, 1000), 4000))
        browser.save_screenshot(str(tmp_path / "orange_result.png"))
    finally:
        browser.set_window_size(size["width"], size["height"])
