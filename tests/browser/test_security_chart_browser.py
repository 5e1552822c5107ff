"""A system name written as HTML shows as plain text in the leaderboard chart."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from scoring import __version__
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINK = '<a href="https://evil.example/">click me</a>'
BOLD = "<b>AT&T</b>"


def test_a_link_in_a_system_name_is_shown_as_text_not_a_link_in_the_chart(
    browser, live_server, owner, test_set, tmp_path
):
    for name, score in ((LINK, 30.0), (BOLD, 20.0), ("plain", 10.0)):
        job = create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
        CorpusScore.objects.create(
            output=job.output,
            metric="bleu",
            score=score,
            signature=f"bleu|nrefs:2|version:{__version__}",
        )
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    chart = wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#leaderboard-chart"))
    )
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#leaderboard-chart .ytick text")
        )
    )
    browser.save_screenshot(str(tmp_path / "hostile-chart.png"))

    ticks = [
        element.get_attribute("textContent")
        for element in chart.find_elements(By.CSS_SELECTOR, ".ytick text")
    ]
    assert set(ticks) == {LINK, BOLD, "plain"}
    # Plotly makes <a href> in a label an SVG link and <b> bold: neither here.
    assert chart.find_elements(By.CSS_SELECTOR, "a") == []
    assert not browser.execute_script(
        "return document.querySelector('#leaderboard-chart [href*=\"evil\"]')"
    )
    assert chart.find_elements(By.CSS_SELECTOR, ".ytick text tspan") == []
