"""A researcher's walk through the dashboard, in headless Chromium, with a
real Celery worker: upload a WMT21 ru-en test set with two references and
two systems, then the leaderboard with intervals and clusters, the p-value
matrix, a system page, one sentence, the two systems side by side and the
references page.

Every page is saved as a full-page screenshot under ``var/screenshots/``
(``MTDASH_SCREENSHOT_DIR`` overrides it): CI keeps them as artifacts, and
the README shows two of them.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.browser.support import click_fresh, full_page
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import DATA_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIR = DATA_DIR / "wmt21" / "ru-en"
SEGMENTS = 60
SYSTEMS = ("Facebook-AI", "Online-Y")


def cut(tmp_path: Path, source: Path) -> str:
    """The first SEGMENTS lines of a WMT file, as a user would upload them."""
    lines = source.read_text(encoding="utf-8").splitlines()[:SEGMENTS]
    target = tmp_path / source.name
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(target)


def log_in(browser, live_server, owner, wait) -> None:
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))


def upload_test_set(browser, wait, tmp_path) -> None:
    browser.find_element(By.LINK_TEXT, "Upload a test set").click()
    browser.find_element(By.ID, "id_name").send_keys("newstest2021 ru-en (first 60)")
    Select(browser.find_element(By.ID, "id_source_language")).select_by_value("ru")
    Select(browser.find_element(By.ID, "id_target_language")).select_by_value("en")
    browser.find_element(By.ID, "id_source_file").send_keys(
        cut(tmp_path, PAIR / "src.ru")
    )
    browser.find_element(By.ID, "id_reference_file_1").send_keys(
        cut(tmp_path, PAIR / "ref.A.en")
    )
    browser.find_element(By.ID, "add-reference").click()
    browser.find_element(By.ID, "id_reference_file_2").send_keys(
        cut(tmp_path, PAIR / "ref.B.en")
    )
    browser.find_element(By.CSS_SELECTOR, "#test-set-form button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a system output")))


def upload_output(browser, wait, tmp_path, system: str) -> None:
    browser.find_element(By.LINK_TEXT, "Upload a system output").click()
    browser.find_element(By.ID, "id_hypothesis_file").send_keys(
        cut(tmp_path, PAIR / "sys" / f"{system}.en")
    )
    browser.find_element(By.ID, "id_system_name").send_keys(system)
    browser.find_element(By.CSS_SELECTOR, "#output-form button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "job-scores")))
    assert "Succeeded" in browser.find_element(By.ID, "job-status").text
    browser.find_element(By.ID, "leaderboard-link").click()


def wait_for_intervals(browser, wait) -> None:
    """The comparison job runs after the scoring jobs: reload until the
    leaderboard shows every interval."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        table = wait.until(EC.presence_of_element_located((By.ID, "leaderboard")))
        intervals = table.find_elements(By.CSS_SELECTOR, "td.score-cell small.interval")
        if intervals and not any(
            "pending" in i.get_attribute("class") for i in intervals
        ):
            return
        time.sleep(1.0)
        browser.refresh()
    raise AssertionError("the leaderboard never showed its intervals")


def test_upload_then_leaderboard_system_sentence_compare_and_references(
    browser, live_server, owner, celery_worker_process, tmp_path
):
    wait = WebDriverWait(browser, 90)
    log_in(browser, live_server, owner, wait)
    upload_test_set(browser, wait, tmp_path)
    for system in SYSTEMS:
        upload_output(browser, wait, tmp_path, system)
    wait_for_intervals(browser, wait)

    # Leaderboard: intervals, rank ranges, the dot plot drawn by Plotly.
    table = browser.find_element(By.ID, "leaderboard")
    ranks = [
        cell.text for cell in table.find_elements(By.CSS_SELECTOR, "tbody td.rank")
    ]
    assert len(ranks) == 2 and ranks[0] in ("1", "1–2")
    assert (
        "bootstrap interval" in browser.find_element(By.ID, "leaderboard-method").text
    )
    for chart in ("leaderboard-chart", "rank-chart", "precision-chart"):
        wait.until(
            EC.presence_of_element_located((By.CSS_SELECTOR, f"#{chart} .main-svg"))
        )
    full_page(browser, "01-leaderboard.png")

    browser.find_element(By.ID, "pvalues-link").click()
    matrix = wait.until(EC.presence_of_element_located((By.ID, "pvalue-matrix")))
    assert all(system in matrix.text for system in SYSTEMS)
    full_page(browser, "02-p-values.png")
    browser.back()

    # The first system's page, then one of its sentences.
    wait.until(EC.presence_of_element_located((By.ID, "leaderboard")))
    click_fresh(wait, "#leaderboard tbody a.system-name")
    sentences = wait.until(EC.presence_of_element_located((By.ID, "sentence-table")))
    assert "95%" in browser.find_element(By.ID, "corpus-scores").text
    full_page(browser, "03-system.png")
    sentences.find_element(By.CSS_SELECTOR, "tbody a").click()
    hypothesis = wait.until(EC.presence_of_element_located((By.ID, "hypothesis")))
    assert hypothesis.find_elements(By.CSS_SELECTOR, "span[class*=match]")
    assert browser.find_element(By.ID, "reference-2").text
    full_page(browser, "04-sentence.png")

    # The two systems side by side.
    browser.get(browser.current_url.split("/outputs/")[0] + "/")
    browser.find_element(By.LINK_TEXT, "newstest2021 ru-en (first 60)").click()
    browser.find_element(By.ID, "compare-link").click()
    Select(browser.find_element(By.ID, "compare-a")).select_by_visible_text(SYSTEMS[0])
    Select(browser.find_element(By.ID, "compare-b")).select_by_visible_text(SYSTEMS[1])
    browser.find_element(By.ID, "compare-submit").click()
    significance = wait.until(
        EC.presence_of_element_located((By.ID, "significance-table"))
    )
    assert "bleu" in significance.text
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#compare-scatter .main-svg"))
    )
    full_page(browser, "05-compare.png")

    # The references, each against the other.
    browser.find_element(By.LINK_TEXT, "newstest2021 ru-en (first 60)").click()
    wait.until(EC.presence_of_element_located((By.ID, "references-link"))).click()
    page = wait.until(EC.presence_of_element_located((By.TAG_NAME, "main")))
    assert "A" in page.text and "B" in page.text
    full_page(browser, "06-references.png")
