"""A person logs in, uploads a test set and an output, waits, sees the chart."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCES = ["le chat est sur le tapis", "il pleut aujourd'hui", "bonjour à tous"]
REFS_A = ["the cat is on the mat", "it is raining today", "hello everyone"]
REFS_B = ["there is a cat on the mat", "today it rains", "hello to all"]
HYPOTHESES = ["the cat is on a mat", "it rains today", "hello everybody <b>!</b>"]


def write(directory, name, lines):
    path = directory / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_a_user_uploads_and_sees_the_leaderboard_with_its_chart(
    browser, live_server, owner, team, celery_worker_process, tmp_path
):
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(
        EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set"))
    ).click()

    browser.find_element(By.ID, "id_name").send_keys("browser toy")
    Select(browser.find_element(By.ID, "id_source_language")).select_by_value("fr")
    Select(browser.find_element(By.ID, "id_target_language")).select_by_value("en")
    browser.find_element(By.ID, "id_source_file").send_keys(
        write(tmp_path, "src.fr", SOURCES)
    )
    browser.find_element(By.ID, "id_reference_file_1").send_keys(
        write(tmp_path, "ref.A.en", REFS_A)
    )
    browser.find_element(By.ID, "add-reference").click()
    browser.find_element(By.ID, "id_reference_file_2").send_keys(
        write(tmp_path, "ref.B.en", REFS_B)
    )
    browser.find_element(By.CSS_SELECTOR, "#test-set-form button[type=submit]").click()

    wait.until(
        EC.presence_of_element_located((By.LINK_TEXT, "Upload a system output"))
    ).click()
    browser.find_element(By.ID, "id_hypothesis_file").send_keys(
        write(tmp_path, "hyp.en", HYPOTHESES)
    )
    browser.find_element(By.ID, "id_system_name").send_keys("my-system")
    browser.find_element(By.CSS_SELECTOR, "#output-form button[type=submit]").click()

    # The job page polls until the worker is done, then shows the score.
    wait.until(EC.presence_of_element_located((By.ID, "job-scores")))
    assert "Succeeded" in browser.find_element(By.ID, "job-status").text
    browser.find_element(By.ID, "leaderboard-link").click()

    table = wait.until(EC.presence_of_element_located((By.ID, "leaderboard")))
    assert "my-system" in table.text
    # Plotly has drawn the bar chart (an SVG inside the chart container).
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#leaderboard-chart .main-svg")
        )
    )
    bar_labels = browser.find_elements(
        By.CSS_SELECTOR, "#leaderboard-chart .ytick text"
    )
    assert [label.text for label in bar_labels] == ["my-system"]
    browser.save_screenshot(str(tmp_path / "leaderboard.png"))
