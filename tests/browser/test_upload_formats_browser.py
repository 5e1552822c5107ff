"""A person uploads a test set with two references labelled per row (the
"Add another reference" button) and then two system outputs at once, names
edited in the fields the page adds per file; screenshots of both forms are
saved to $MTDASH_SCREENSHOT_DIR (default ``var/screenshots/``)."""

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from mtdash.evaluation.models import ScoringJob, TestSet
from tests.browser.support import screenshot_dir, screenshots_wanted
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCES = ["le chat est sur le tapis", "il pleut aujourd'hui", "bonjour à tous"]
REFS_A = ["the cat is on the mat", "it is raining today", "hello everyone"]
REFS_B = ["there is a cat on the mat", "today it rains", "hello to all"]
SYSTEM_1 = ["the cat is on a mat", "it rains today", "hello everybody"]
SYSTEM_2 = ["le chat est sur le tapis", "il pleut aujourd'hui", "hello"]  # a copy


def write(directory: Path, name: str, lines: list[str]) -> str:
    path = directory / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def screenshot(browser, tmp_path: Path, name: str) -> None:
    if not screenshots_wanted():
        return
    directory = screenshot_dir()
    directory.mkdir(parents=True, exist_ok=True)
    height = browser.execute_script("return document.body.scrollHeight")
    browser.set_window_size(1280, max(1000, height + 100))
    browser.save_screenshot(str(directory / name))
    browser.set_window_size(1280, 1000)


def test_two_labelled_references_then_two_outputs_at_once(
    browser, live_server, owner, team, celery_worker_process, tmp_path
):
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload test set")))
    browser.get(f"{live_server.url}/test-sets/new/")

    browser.find_element(By.ID, "id_name").send_keys("two refs")
    Select(browser.find_element(By.ID, "id_source_language")).select_by_value("fr")
    Select(browser.find_element(By.ID, "id_target_language")).select_by_value("en")
    browser.find_element(By.ID, "id_source_file").send_keys(
        write(tmp_path, "src.fr", SOURCES)
    )
    browser.find_element(By.ID, "id_reference_file_1").send_keys(
        write(tmp_path, "ref-first.en", REFS_A)
    )
    browser.find_element(By.ID, "id_reference_label_1").send_keys("translator-1")
    browser.find_element(By.ID, "add-reference").click()
    browser.find_element(By.ID, "id_reference_file_2").send_keys(
        write(tmp_path, "ref-second.en", REFS_B)
    )
    browser.find_element(By.ID, "id_reference_label_2").send_keys("translator-2")
    label = browser.find_element(By.CSS_SELECTOR, "label[for=id_reference_label_2]")
    assert label.text == "Label of reference 2"
    screenshot(browser, tmp_path, "test_set_form.png")
    browser.find_element(By.CSS_SELECTOR, "#test-set-form button[type=submit]").click()

    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a system output")))
    test_set = TestSet.objects.get(name="two refs")
    assert list(test_set.reference_sets.values_list("label", flat=True)) == [
        "translator-1",
        "translator-2",
    ]
    assert test_set.reference_streams() == [REFS_A, REFS_B]

    browser.find_element(By.LINK_TEXT, "Upload a system output").click()
    files = [
        write(tmp_path, "system-one.en", SYSTEM_1),
        write(tmp_path, "system-two.en", SYSTEM_2),
    ]
    browser.find_element(By.ID, "id_hypothesis_file").send_keys("\n".join(files))
    first = wait.until(EC.visibility_of_element_located((By.ID, "id_system_name_1")))
    second = browser.find_element(By.ID, "id_system_name_2")
    assert [first.get_attribute("value"), second.get_attribute("value")] == [
        "system-one",
        "system-two",
    ]
    assert not browser.find_element(By.ID, "id_system_name").is_displayed()
    first.clear()
    first.send_keys("edited-one")
    ticked = [
        box.get_attribute("value")
        for box in browser.find_elements(By.CSS_SELECTOR, "input[name=metrics]")
        if box.is_selected()
    ]
    assert sorted(ticked) == ["bleu", "chrf", "meteor", "ter"]  # English defaults
    screenshot(browser, tmp_path, "output_form.png")
    browser.find_element(By.CSS_SELECTOR, "#output-form button[type=submit]").click()

    messages = wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".messages"))
    )
    assert "Queued 2 scoring jobs." in messages.text
    warning = browser.find_element(By.CSS_SELECTOR, ".messages .message-warning")
    assert "“system-two” is identical to the source on 2 of 3 segments" in warning.text
    screenshot(browser, tmp_path, "after_upload.png")
    names = set(test_set.outputs.values_list("system__name", flat=True))
    assert names == {"edited-one", "system-two"}
    assert ScoringJob.objects.filter(output__test_set=test_set).count() == 2
