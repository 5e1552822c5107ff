"""A person imports human judgments and an external metric's scores on a
test set's pages and sees the external column on the leaderboard."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_import_judgments_and_comet_scores_then_see_the_column(
    browser, live_server, owner, test_set, tmp_path
):
    for name in ("alpha", "beta"):
        create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
    judgments = tmp_path / "judgments.csv"
    judgments.write_text(
        "segment,system,judge,criterion,value\n"
        "1,alpha,j1,adequacy,4\n2,alpha,j1,adequacy,5\n1,beta,j1,adequacy,2\n"
    )
    comet = tmp_path / "comet.tsv"
    comet.write_text(
        "".join(
            f"{s}\t{i}\t{v}\n"
            for s, v in (("alpha", 0.8), ("beta", 0.5))
            for i in (1, 2, 3)
        )
    )
    shots = os.environ.get("MTDASH_SCREENSHOT_DIR") or str(tmp_path)
    wait = WebDriverWait(browser, 30)

    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    wait.until(EC.element_to_be_clickable((By.ID, "judgments-link"))).click()
    browser.find_element(By.ID, "id_file").send_keys(str(judgments))
    browser.find_element(By.CSS_SELECTOR, "#judgments-form button").click()
    result = wait.until(EC.visibility_of_element_located((By.ID, "import-result")))
    assert "3" in result.text and "adequacy" in result.text
    browser.save_screenshot(os.path.join(shots, "judgments-imported.png"))

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    wait.until(EC.element_to_be_clickable((By.ID, "external-scores-link"))).click()
    browser.find_element(By.ID, "id_metric").send_keys("comet-22")
    browser.find_element(By.ID, "id_description").send_keys("Unbabel/wmt22-comet-da")
    browser.find_element(By.ID, "id_file").send_keys(str(comet))
    browser.find_element(By.CSS_SELECTOR, "#external-scores-form button").click()
    means = wait.until(EC.visibility_of_element_located((By.ID, "import-means")))
    assert "alpha" in means.text and "beta" in means.text
    browser.save_screenshot(os.path.join(shots, "external-imported.png"))

    browser.find_element(By.PARTIAL_LINK_TEXT, "See the leaderboard").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "small.external")))
    assert "comet-22" in browser.page_source
    browser.save_screenshot(os.path.join(shots, "leaderboard-external.png"))
