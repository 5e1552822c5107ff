"""A team member fills in a missing metric, hides an output, renames a
system and deletes an output and a test set, each through its
confirmation page, as a browser shows them."""

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import System, SystemOutput, TestSet
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD
from tests.web.evaluation.test_manage_support import add_scored_output

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "transformer-big + back-translation + fine-tuned on news (ensemble of 4)"


def log_in(browser, live_server, user):
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(user.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    WebDriverWait(browser, 30).until(
        EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set"))
    )


def messages_text(browser) -> str:
    return browser.find_element(By.CLASS_NAME, "messages").text


def test_a_member_manages_a_test_set_through_confirmation_pages(
    browser, live_server, owner, member, test_set, tmp_path
):
    good = add_scored_output(test_set, owner, "good", metrics=("bleu", "chrf"))
    fair = add_scored_output(test_set, owner, "fair")
    add_scored_output(test_set, owner, LONG_NAME)
    shots = screenshot_dir()
    wait = WebDriverWait(browser, 30)
    log_in(browser, live_server, member)
    base = live_server.url

    browser.get(f"{base}/test-sets/{test_set.pk}/fill-missing/")
    plan = wait.until(EC.presence_of_element_located((By.ID, "fill-missing-plan")))
    assert "fair" in plan.text and "chrf" in plan.text and "good" not in plan.text
    browser.save_screenshot(str(shots / "manage_fill_missing.png"))
    browser.find_element(By.ID, "manage-submit").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "messages")))
    assert "Queued 2 scoring jobs." in messages_text(browser)

    browser.get(f"{base}/outputs/{fair.pk}/hide/")
    browser.save_screenshot(str(shots / "manage_hide.png"))
    browser.find_element(By.ID, "manage-submit").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "messages")))
    assert "is hidden now" in messages_text(browser)
    assert SystemOutput.objects.get(pk=fair.pk).hidden

    browser.get(f"{base}/systems/{good.system_id}/rename/?test_set={test_set.pk}")
    field = browser.find_element(By.ID, "id_name")
    field.clear()
    field.send_keys("fair")
    browser.find_element(By.ID, "manage-submit").click()
    error = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".error")))
    assert "already has a system named “fair”" in error.text
    browser.save_screenshot(str(shots / "manage_rename.png"))
    field = browser.find_element(By.ID, "id_name")
    field.clear()
    field.send_keys("good v2")
    browser.find_element(By.ID, "manage-submit").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "messages")))
    assert System.objects.get(pk=good.system_id).name == "good v2"

    long_output = SystemOutput.objects.get(system__name=LONG_NAME)
    browser.get(f"{base}/outputs/{long_output.pk}/delete/")
    summary = browser.find_element(By.ID, "deletion-summary").text
    # 1 or 2 scores: the real worker may already have run the filling-in job.
    assert re.search(r"This deletes 1 output, [12] scores?, 2 jobs", summary), summary
    page_width = browser.execute_script("return document.documentElement.scrollWidth")
    assert page_width <= browser.execute_script("return window.innerWidth")
    browser.save_screenshot(str(shots / "manage_output_delete.png"))
    browser.find_element(By.ID, "manage-submit").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "messages")))
    assert not SystemOutput.objects.filter(pk=long_output.pk).exists()

    browser.get(f"{base}/test-sets/{test_set.pk}/delete/")
    summary = browser.find_element(By.ID, "deletion-summary").text
    # 3 or 4 scores: "fair" keeps its filled-in chrF if the worker ran that job.
    assert re.search(r"3 segments, 2 references, 2 outputs, [34] scores", summary), (
        summary
    )
    browser.find_element(By.ID, "id_name").send_keys("toy fr-en")
    browser.save_screenshot(str(shots / "manage_confirm.png"))
    browser.find_element(By.ID, "id_name").send_keys(" (typo)")
    browser.find_element(By.ID, "manage-submit").click()
    error = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".error")))
    assert "nothing was deleted" in error.text
    assert TestSet.objects.filter(pk=test_set.pk).exists()
    field = browser.find_element(By.ID, "id_name")
    field.clear()
    field.send_keys("toy fr-en")
    browser.find_element(By.ID, "manage-submit").click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "messages")))
    assert "Deleted test set “toy fr-en”" in messages_text(browser)
    assert not TestSet.objects.filter(pk=test_set.pk).exists()
