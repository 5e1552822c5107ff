"""The system page and a sentence page as a browser shows them (WMT21 ru-en,
the first segments, two systems scored with three metrics)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import DATA_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAIR = DATA_DIR / "wmt21" / "ru-en"
SEGMENTS = 120
METRICS = ["bleu", "chrf", "ter"]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:SEGMENTS]


@pytest.fixture
def scored_output(team, owner, settings):
    settings.MTDASH_COMPARISON_SAMPLES = 200
    settings.MTDASH_COMPARISON_TRIALS = 200
    if not (PAIR / "src.ru").exists():
        pytest.skip(f"WMT21 ru-en data not found under {PAIR}")
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2021 ru-en (first 120)",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=lines(PAIR / "src.ru"),
            references={"A": lines(PAIR / "ref.A.en"), "B": lines(PAIR / "ref.B.en")},
        ),
    )
    outputs = []
    for system in ("Facebook-AI", "Online-Y"):
        job = create_system_output(
            test_set,
            owner,
            system,
            lines(PAIR / "sys" / f"{system}.en"),
            metrics=METRICS,
            queue=False,
        )
        run_scoring_job(job.pk)
        outputs.append(job.output)
    compare_test_set(test_set)
    return outputs[0]


def full_page(browser, path: Path) -> None:
    height = browser.execute_script(
        "return Math.min(document.documentElement.scrollHeight, 6000)"
    )
    browser.set_window_size(1400, max(height, 900))
    time.sleep(0.4)  # responsive charts redraw at the new width
    browser.save_screenshot(str(path))
    browser.set_window_size(1280, 1000)


def test_system_page_and_sentence_page(
    browser, live_server, owner, scored_output, tmp_path
):
    shots = screenshot_dir()
    shots.mkdir(parents=True, exist_ok=True)
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))

    browser.get(f"{live_server.url}/outputs/{scored_output.pk}/")
    table = wait.until(EC.presence_of_element_located((By.ID, "sentence-table")))
    for chart in ("histogram", "length", "score-buckets", "word-accuracy"):
        wait.until(
            EC.presence_of_element_located(
                (By.CSS_SELECTOR, f"#chart-{chart} .main-svg")
            )
        )
    scores = browser.find_element(By.CSS_SELECTOR, "table.corpus-scores")
    assert "interval pending" not in scores.text
    assert len(table.find_elements(By.CSS_SELECTOR, "tbody tr")) == 50
    # The page does not grow sideways.
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    full_page(browser, shots / "system_page.png")
    analyses = browser.find_element(By.ID, "analyses")
    browser.execute_script("arguments[0].scrollIntoView()", analyses)
    analyses.screenshot(str(shots / "system_page_analyses.png"))

    # Another metric redraws the analyses (the select submits by itself).
    Select(browser.find_element(By.ID, "analysis-metric")).select_by_value("chrf")
    wait.until(EC.url_contains("metric=chrf"))
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#chart-length .main-svg"))
    )
    # Sorting by TER, worst (highest) first after a second click.
    browser.find_element(By.CSS_SELECTOR, 'a[title="sort by sentence ter"]').click()
    browser.find_element(By.CSS_SELECTOR, 'a[title="sort by sentence ter"]').click()
    wait.until(EC.url_contains("sort=-ter"))
    header = browser.find_element(By.CSS_SELECTOR, "th.sorted")
    assert header.get_attribute("aria-sort") == "descending"

    browser.find_element(By.CSS_SELECTOR, "#sentence-table tbody td.number a").click()
    wait.until(EC.presence_of_element_located((By.ID, "match-legend")))
    marked = browser.find_elements(By.CSS_SELECTOR, "#hypothesis span[class^=match-]")
    assert marked and any(span.get_attribute("class") != "match-0" for span in marked)
    assert browser.find_element(By.ID, "reference-2").is_displayed()
    full_page(browser, shots / "sentence_page.png")

    # The training word counts page, linked from the analyses.
    browser.get(f"{live_server.url}/outputs/{scored_output.pk}/")
    browser.find_element(By.LINK_TEXT, "Upload training word counts").click()
    wait.until(EC.presence_of_element_located((By.ID, "word-counts-form")))
    full_page(browser, shots / "word_counts_page.png")
