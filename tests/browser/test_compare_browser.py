"""Two outputs side by side, as a browser shows them."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFERENCE_A = [
    "the committee approved the new budget on Tuesday .",
    "heavy rain is expected in the north this weekend .",
    "the minister said that talks would continue next week .",
    "prices rose by three percent in the last quarter .",
    "the museum will reopen to visitors in the spring .",
]
REFERENCE_B = [
    "on Tuesday the committee passed the new budget .",
    "strong rain is forecast for the north at the weekend .",
    "talks will go on next week , the minister said .",
    "in the last quarter prices went up by three percent .",
    "in spring the museum will open again to visitors .",
]
BASELINE = [
    "the committee has approved a new budget Tuesday .",
    "heavy rains are expected in north this weekend .",
    "minister said the talks continue the next week .",
    "prices have risen three percent last quarter .",
    "the museum reopens for visitors in spring .",
]
IMPROVED = [
    "the committee approved the new budget on Tuesday .",
    "heavy rain is expected in the north at the weekend .",
    "the minister said talks would go on next week .",
    "prices rose by three per cent in the last quarter .",
    "museum will open again to the visitors in spring .",
]


def make_world(team, owner):
    n = 8  # 40 sentences: two pages of them
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest toy de-en",
            source_language="de",
            target_language="en",
            text_type="news",
            description="",
            sources=[f"Quellsatz {i + 1} ." for i in range(5 * n)],
            references={"A": REFERENCE_A * n, "B": REFERENCE_B * n},
        ),
    )
    outputs = {}
    for name, hypotheses in (
        ("baseline-rnn", BASELINE * n),
        ("transformer_big+BT <b>v2</b>", IMPROVED * n),
    ):
        job = create_system_output(
            test_set,
            owner,
            name,
            hypotheses,
            metrics=["bleu", "chrf", "ter"],
            queue=False,
        )
        run_scoring_job(job.pk)
        outputs[name] = job.output
    compare_test_set(
        test_set,
        options=ComparisonSettings(
            seed=12345, n_samples=200, n_trials=500, confidence=0.95, alpha=0.05
        ),
    )
    return test_set, outputs


def test_the_compare_page_shows_both_outputs_side_by_side(
    browser, live_server, team, owner, tmp_path
):
    test_set, outputs = make_world(team, owner)
    a, b = outputs["baseline-rnn"], outputs["transformer_big+BT <b>v2</b>"]
    wait = WebDriverWait(browser, 60)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))

    # The form picks the two outputs.
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/compare/")
    browser.find_element(By.CSS_SELECTOR, f'#compare-a option[value="{a.pk}"]').click()
    browser.find_element(By.CSS_SELECTOR, f'#compare-b option[value="{b.pk}"]').click()
    browser.find_element(By.ID, "compare-submit").click()

    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#compare-scatter .main-svg"))
    )
    # The n-gram tables arrive after the page, from their own request.
    wait.until(EC.presence_of_element_located((By.ID, "ngram-order-4")))
    names = browser.find_element(By.ID, "pair-names").text
    assert "transformer_big+BT <b>v2</b>" in names  # shown as typed, not as HTML

    rows = browser.find_elements(By.CSS_SELECTOR, "#significance-table tbody tr")
    assert [row.get_attribute("data-column") for row in rows] == ["bleu", "chrf", "ter"]
    assert "B better" in rows[0].text

    # Switching the highlighted order needs no reload.
    sentences = browser.find_element(By.ID, "compare-sentences")
    assert "order-1" in sentences.get_attribute("class")
    browser.find_element(
        By.CSS_SELECTOR, 'input[name="highlight-order"][value="2"]'
    ).click()
    assert "order-2" in sentences.get_attribute("class")
    improving = browser.find_elements(
        By.CSS_SELECTOR, "#compare-sentences .n2-improving"
    )
    assert improving and improving[0].value_of_css_property("background-color") != (
        "rgba(0, 0, 0, 0)"
    )
    browser.set_window_size(1280, 2600)
    browser.execute_script("window.scrollTo(0, 0)")
    directory = screenshot_dir()
    directory.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(directory / "compare_page.png"))
    browser.execute_script("document.getElementById('ngrams').scrollIntoView()")
    browser.save_screenshot(str(directory / "compare_page_ngrams.png"))
    browser.set_window_size(1280, 1000)
    # The page does not grow sideways.
    widest = browser.execute_script(
        "return [...document.querySelectorAll('main *')]"
        ".filter(e => e.getBoundingClientRect().right > window.innerWidth)"
        ".map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)"
    )
    assert widest == []
