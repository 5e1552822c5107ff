"""The references page as a browser shows it: tables, the closest-reference
chart drawn by Plotly, and the outlier list with the bad reference marked."""

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import SystemOutput
from mtdash.evaluation.references.diagnostics import refresh
from mtdash.evaluation.services.uploads import create_system_output
from tests.browser.support import full_page, log_in, screenshot_dir
from tests.conftest import PASSWORD
from tests.web.evaluation.test_reference_diagnostics import (
    BAD_C,
    GOOD_A,
    GOOD_B,
    SYSTEMS,
    make_test_set,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_references_page_shows_the_bad_reference(
    browser, live_server, team, owner, tmp_path
):
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": GOOD_B, "C": BAD_C})
    for name, hypotheses in SYSTEMS.items():
        create_system_output(test_set, owner, name, hypotheses, queue=False)
    create_system_output(
        test_set,
        owner,
        "a very long system name: transformer-big + back-translation (ensemble of 4)",
        GOOD_B,
        queue=False,
    )
    refresh(test_set, list(SystemOutput.objects.values_list("pk", flat=True)))

    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/references/")
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#closest-chart .main-svg"))
    )
    # The markup in reference C is shown as text, never run.
    assert not EC.alert_is_present()(browser)
    outlier = browser.find_element(By.CSS_SELECTOR, "#outlier-list li.outlier")
    assert "Sentence 3" in outlier.text and "reference C" in outlier.text
    marked = outlier.find_element(By.CSS_SELECTOR, "tr.is-outlier")
    assert "<script>alert('x')</script>" in marked.text
    headers = [
        th.text for th in browser.find_elements(By.CSS_SELECTOR, "#held-out-chrf th")
    ]
    assert headers[:3] == ["Reference", "Scored against", "Reference's score"]
    bars = browser.find_elements(By.CSS_SELECTOR, "#closest-chart .point")
    assert len(bars) >= 3
    page_width = browser.execute_script("return document.documentElement.scrollWidth")
    assert page_width <= browser.execute_script("return window.innerWidth")

    shots = screenshot_dir()
    shots.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1280, 2400)
    browser.save_screenshot(str(shots / "references_page.png"))
    # Every system on the reduced sets, long names cut with the full name on hover.
    matrix = browser.find_elements(By.CSS_SELECTOR, "details.systems-matrix")[1]
    matrix.find_element(By.TAG_NAME, "summary").click()
    names = matrix.find_elements(By.CSS_SELECTOR, "th.system-name")
    assert len(names) == 3
    long_name = next(n for n in names if n.get_attribute("title").startswith("a very"))
    assert long_name.find_element(By.TAG_NAME, "span").size["width"] <= 290
    browser.execute_script("arguments[0].scrollIntoView()", matrix)
    browser.save_screenshot(str(shots / "references_page_systems.png"))
    browser.set_window_size(1280, 1000)


def test_a_reference_entered_as_a_system_is_ranked_as_human(
    browser, live_server, team, owner, celery_worker_process
):
    test_set = make_test_set(team, owner, {"A": GOOD_A, "B": GOOD_B, "C": BAD_C})
    for name, hypotheses in SYSTEMS.items():  # scored by the worker
        create_system_output(test_set, owner, name, hypotheses, metrics=["bleu"])
    wait = log_in(browser, live_server, owner, timeout=60)
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/references/#as-systems")
    section = wait.until(EC.visibility_of_element_located((By.ID, "as-systems")))
    forms = section.find_elements(By.CSS_SELECTOR, "form.inline-form")
    assert len(forms) == 3  # one per reference
    browser.execute_script("arguments[0].scrollIntoView()", section)
    browser.save_screenshot(str(screenshot_dir() / "references-as-systems.png"))
    name = forms[1].find_element(By.NAME, "system_name")
    assert name.get_attribute("value") == "ref-B"
    name.clear()
    name.send_keys("Human <B>")
    forms[1].find_element(By.TAG_NAME, "button").click()
    # The job page, then the leaderboard once the worker has scored it.
    wait.until(EC.url_matches(r"/jobs/\d+/$"))
    leaderboard = f"{live_server.url}/test-sets/{test_set.pk}/"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        browser.get(leaderboard)
        marked = browser.find_elements(By.CSS_SELECTOR, ".human-translation")
        done = browser.find_elements(By.CSS_SELECTOR, ".status-succeeded")
        if marked and len(done) == 3 and "interval pending" not in browser.page_source:
            break
        time.sleep(1)
    row = marked[0].find_element(By.XPATH, "ancestor::tr")
    assert "Human <B>" in row.text  # escaped, shown as typed
    assert not browser.find_elements(By.CSS_SELECTOR, ".other-signature")
    cells = browser.find_elements(By.CSS_SELECTOR, "td.score-cell .value")
    assert len(cells) == 3 and "–" not in [cell.text for cell in cells]
    full_page(browser, "leaderboard-human-translation.png")
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/references/#as-systems")
    section = browser.find_element(By.ID, "as-systems")
    assert "Human <B>" in section.text
    assert len(section.find_elements(By.CSS_SELECTOR, "form.inline-form")) == 2
