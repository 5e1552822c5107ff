"""The leaderboard of a test set scored with many metrics, as a browser shows it."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from scoring import get_metric
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPECS = [
    "bleu", "chrf++", "gtm", "meteor", "nist", "rouge-l", "rouge-s:d=9", "ter", "wer",
    "wnm", "red",
]  # fmt: skip
SYSTEMS = {
    "online-B (constrained)": 1.0,
    "transformer_big+BT": 0.93,
    "baseline-rnn": 0.71,
    "rule-based": 0.48,
}


def fill(test_set, owner):
    for system, quality in SYSTEMS.items():
        job = create_system_output(
            test_set, owner, system, ["a", "b", "c"], queue=False
        )
        for spec in SPECS:
            metric = get_metric(spec)
            top = 12.0 if metric.scale == float("inf") else metric.scale
            value = top * (quality if metric.higher_is_better else 1.2 - quality) / 1.7
            CorpusScore.objects.create(
                output=job.output,
                metric=spec,
                score=value,
                signature=metric.signature(nrefs=2),
            )
    create_system_output(test_set, owner, "still-queued", ["a", "b", "c"], queue=False)


def test_many_metrics_fit_labelled_in_the_leaderboard(
    browser, live_server, owner, test_set
):
    fill(test_set, owner)
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    table = wait.until(EC.presence_of_element_located((By.ID, "leaderboard")))
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#leaderboard-chart .main-svg")
        )
    )
    # Looked at by people, not asserted (tests/browser/support.py).
    shots = screenshot_dir()
    browser.save_screenshot(str(shots / "leaderboard-page.png"))

    headers = table.find_elements(By.CSS_SELECTOR, "thead th")
    texts = [header.text for header in headers]
    assert texts[:2] == ["Rank", "System"]
    assert texts[2].startswith("bleu") and "↑" in texts[2] and "0–100" in texts[2]
    assert any(text.startswith("ter") and "↓" in text for text in texts)
    assert any(text.startswith("nist") and "≥ 0" in text for text in texts)
    # The page does not grow sideways: the table scrolls inside its box.
    page_width = browser.execute_script("return document.documentElement.scrollWidth")
    window_width = browser.execute_script("return window.innerWidth")
    assert page_width <= window_width
    # Numbers line up on the right; names are whole, on one line.
    first = table.find_element(By.CSS_SELECTOR, "tbody tr td.num")
    assert first.value_of_css_property("text-align") == "right"
    names = table.find_elements(By.CSS_SELECTOR, "tbody th.system")
    assert [name.text for name in names][0] == "online-B (constrained)"
    assert len({name.size["height"] for name in names}) == 1

    # Scrolled to its last column, the table still shows which system is which.
    box = browser.find_element(By.CSS_SELECTOR, ".table-scroll")
    browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
    assert browser.execute_script("return arguments[0].scrollLeft", box) > 0
    status = table.find_element(By.CSS_SELECTOR, "thead th.status-column")
    assert status.is_displayed()
    name = names[0]
    assert name.location["x"] - box.location["x"] < 100  # stuck to the left
    top = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return document.elementFromPoint(r.left + 5, r.top + 5) === arguments[0];",
        name,
    )
    assert top, "the system name is hidden under the scrolled cells"
    browser.save_screenshot(str(shots / "leaderboard-scrolled.png"))
    chart = browser.find_element(By.ID, "leaderboard-chart")
    browser.execute_script("arguments[0].scrollIntoView()", chart)
    browser.save_screenshot(str(shots / "leaderboard-chart.png"))
