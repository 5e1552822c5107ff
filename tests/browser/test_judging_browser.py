"""A team member creates a judging campaign in the browser and judges its
items with the keyboard only: digits and Enter on the 1-5 scales, typed
digits and arrow keys on the DA slider; stops, comes back, finishes; the
campaign page then shows the judges' progress, quality controls and the
agreement table. Screenshots go to ``MTDASH_SCREENSHOT_DIR`` (default ``var/screenshots/``)."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from mtdash.judgments.models import Assignment, Campaign, Judgment
from tests.browser.support import full_page, gone, log_in
from tests.web.judgments.test_campaigns import (
    REFERENCES,
    build_judged_set,
    rate_everything,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def progress(browser) -> tuple[int, int]:
    text = browser.find_element(By.ID, "judge-progress-text").text
    judged, assigned = re.match(r"(\d+) of (\d+) judged", text).groups()
    return int(judged), int(assigned)


def keys(browser, *sequence) -> None:
    ActionChains(browser).send_keys(*sequence).perform()


def judge_one(browser, wait, judged: int, shot=None) -> str:
    """Rate the screen on show with the keyboard; returns its mode.
    ``shot(mode)`` runs once the rating is chosen, before Enter."""
    page = browser.find_element(By.ID, "judge")
    mode = page.get_attribute("data-mode")
    submit = browser.find_element(By.ID, "rating-submit")
    assert not submit.is_enabled()  # nothing chosen yet
    if mode == "points":
        keys(browser, "4")
        assert browser.find_element(
            By.CSS_SELECTOR, "input[name=value][value='4']"
        ).is_selected()
    else:
        keys(browser, "7", "5")
        assert browser.find_element(By.ID, "judge-slider-value").text == "75"
        keys(browser, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
        assert browser.find_element(By.ID, "judge-slider").get_attribute("value") == (
            "73"
        )
    assert submit.is_enabled()
    if shot is not None:
        shot(mode)
    keys(browser, Keys.ENTER)
    wait.until(gone(page))
    wait.until(EC.presence_of_element_located((By.ID, "judge-progress-text")))
    assert progress(browser)[0] == judged + 1
    return mode


def test_a_judging_session_driven_by_the_keyboard(
    browser, live_server, owner, member, team, tmp_path
):
    test_set = build_judged_set(team, owner)
    wait = log_in(browser, live_server, owner)

    # Create the campaign with the form.
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/campaigns/new/")
    browser.find_element(By.ID, "id_name").send_keys("keyboard pilot")
    for box in browser.find_elements(By.CSS_SELECTOR, "input[name=outputs]"):
        box.click()
    for value in ("fluency", "adequacy", "da"):
        browser.find_element(
            By.CSS_SELECTOR, f"input[name=criteria][value={value}]"
        ).click()
    segments = browser.find_element(By.ID, "id_segments_per_system")
    segments.clear()
    segments.send_keys("2")
    controls = browser.find_element(By.ID, "id_controls_per_judge")
    controls.clear()
    controls.send_keys("1")
    full_page(browser, "campaign-new.png")
    browser.find_element(By.ID, "campaign-create").click()
    wait.until(EC.presence_of_element_located((By.ID, "campaign-facts")))
    campaign = Campaign.objects.get()
    assigned = Assignment.objects.filter(campaign=campaign, judge=owner).count()
    assert assigned == 2 * 2 * 3 + 2  # 4 items x 3 criteria, a repeat, a degraded

    # Judge three screens, then leave.
    browser.find_element(By.ID, "campaign-start").click()
    wait.until(EC.presence_of_element_located((By.ID, "judge-progress-text")))
    assert progress(browser) == (0, assigned)
    shortcuts = browser.find_element(By.ID, "judge-shortcuts").text
    assert "Enter submits" in shortcuts
    full_page(browser, "judge-first-item.png")
    modes = [judge_one(browser, wait, judged) for judged in range(3)]
    browser.get(f"{live_server.url}{campaign.get_absolute_url()}")
    wait.until(EC.presence_of_element_located((By.ID, "campaign-start")))
    assert f"Continue judging (3/{assigned})" in browser.page_source

    # Come back: the page continues at the fourth screen.
    browser.find_element(By.ID, "campaign-start").click()
    wait.until(EC.presence_of_element_located((By.ID, "judge-progress-text")))
    assert progress(browser) == (3, assigned)
    bar = browser.find_element(By.ID, "judge-progress")
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == (
        "3",
        str(assigned),
    )
    shots = set()

    def shot_once(mode: str) -> None:
        if mode not in shots:
            full_page(browser, f"judge-{mode}.png")
            shots.add(mode)

    for judged in range(3, assigned):
        modes.append(judge_one(browser, wait, judged, shot_once))
    assert set(modes) == {"points", "slider"}
    assert (
        browser.find_element(By.ID, "judge-done").text == f"All {assigned} items judged"
    )
    full_page(browser, "judge-done.png")

    # Every regular rating is a judgment; DA ones are 73, the rest 4.
    mine = Judgment.objects.filter(judge=owner.username)
    regular = Assignment.objects.filter(campaign=campaign, judge=owner, kind="regular")
    assert mine.count() == regular.count() == 12
    assert set(mine.filter(criterion__name="da").values_list("value", flat=True)) == {
        73.0
    }
    assert set(mine.exclude(criterion__name="da").values_list("value", flat=True)) == {
        4.0
    }

    # Bob judges too (here directly), attentively: his degraded copies are
    # rated lower, so the campaign page has agreement figures to show.
    rate_everything(
        campaign,
        member,
        lambda a: (
            (a.criterion.maximum if a.kind != "degraded" else a.criterion.minimum)
            - (a.item.index % 2)
        ),
    )
    browser.get(f"{live_server.url}{campaign.get_absolute_url()}")
    wait.until(EC.presence_of_element_located((By.ID, "campaign-judges")))
    table = browser.find_element(By.ID, "agreement-table").text
    assert "adequacy" in table and "fluency" in table
    row = browser.find_element(By.CSS_SELECTOR, "tr[data-judge=alice]").text
    assert f"{assigned}/{assigned}" in row
    assert browser.find_element(By.ID, "agreement").is_displayed()
    assert REFERENCES[0] not in browser.page_source  # the page shows no texts
    full_page(browser, "campaign-detail.png")

    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/campaigns/")
    listed = wait.until(EC.presence_of_element_located((By.ID, "campaigns")))
    assert f"alice {assigned}/{assigned}" in listed.text
    full_page(browser, "campaign-list.png")
