"""An ESA campaign in headless Chromium: created with the form, then judged
with the keyboard only: a word of the translation selected with
Ctrl/Shift and the arrow keys, major chosen with 2, marked with Enter,
undone with Ctrl+Z, marked again as minor with a category, a span in the
source, the score typed and Enter; a mouse selection marked with the
button; the span then shown on the sentence page. Screenshots of the
interface at 1440 px and on a phone (390 px), which must not overflow,
go to ``MTDASH_SCREENSHOT_DIR`` (default ``var/screenshots/``)."""

from __future__ import annotations

import json
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from mtdash.judgments.models import (
    Assignment,
    Campaign,
    ErrorSpan,
    ErrorSpanAnnotation,
    Judgment,
)
from tests.browser.support import full_page, gone, log_in
from tests.browser.test_page_widths_browser import PROBLEMS_JS, emulate
from tests.web.judgments.esa_support import (
    answer_everything,
    build_esa_set,
    spans_field,
)

MISTRANSLATION = "Accuracy/Mistranslation"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def press(browser, *keys, hold=()) -> None:
    """``keys`` typed with the modifiers ``hold`` held down."""
    chain = ActionChains(browser)
    for modifier in hold:
        chain.key_down(modifier)
    chain.send_keys(*keys)
    for modifier in reversed(hold):
        chain.key_up(modifier)
    chain.perform()


def progress(browser) -> tuple[int, int]:
    text = browser.find_element(By.ID, "judge-progress-text").text
    judged, assigned = re.match(r"(\d+) of (\d+) judged", text).groups()
    return int(judged), int(assigned)


def shown(browser) -> tuple[Assignment, dict]:
    """The screen on show and its texts (as the page's script reads them)."""
    pk = browser.find_element(By.CSS_SELECTOR, "input[name=assignment]")
    texts = browser.find_element(By.ID, "esa-texts").get_attribute("textContent")
    screen = Assignment.objects.select_related("item").get(
        pk=int(pk.get_attribute("value"))
    )
    return screen, json.loads(texts)


def marked(browser) -> list[dict]:
    return json.loads(
        browser.find_element(By.ID, "esa-spans-field").get_attribute("value")
    )


def active_id(browser) -> str:
    return browser.switch_to.active_element.get_attribute("id")


def score_and_submit(browser, wait, value: str, before_enter=None) -> None:
    """Tab to the score from wherever the focus is, type it, press Enter
    (after ``before_enter()``, if given)."""
    for _ in range(30):
        if active_id(browser) == "esa-score":
            break
        press(browser, Keys.TAB)
    assert active_id(browser) == "esa-score"
    submit = browser.find_element(By.ID, "esa-submit")
    assert not submit.is_enabled()  # no score yet
    press(browser, value)
    assert submit.is_enabled()
    assert browser.find_element(By.ID, "esa-score-slider").get_attribute("value") == (
        value
    )
    page = browser.find_element(By.ID, "esa")
    if before_enter is not None:
        before_enter()
    press(browser, Keys.ENTER)
    wait.until(gone(page))
    wait.until(EC.presence_of_element_located((By.ID, "judge-progress-text")))


def test_an_esa_session_marks_spans_by_keyboard_and_the_sentence_page_shows_them(
    browser, live_server, owner, member, team
):
    test_set = build_esa_set(team, owner)
    wait = log_in(browser, live_server, owner)

    # The form: ESA, one segment per system, Alice and Bob, one control each.
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/campaigns/new/")
    browser.find_element(By.ID, "id_name").send_keys("esa pilot")
    browser.find_element(By.CSS_SELECTOR, "input[name=kind][value=esa]").click()
    for box in browser.find_elements(By.CSS_SELECTOR, "input[name=outputs]"):
        box.click()
    for name, value in (("segments_per_system", "1"), ("controls_per_judge", "1")):
        field = browser.find_element(By.ID, f"id_{name}")
        field.clear()
        field.send_keys(value)
    browser.find_element(By.ID, "campaign-create").click()
    wait.until(EC.presence_of_element_located((By.ID, "campaign-facts")))
    campaign = Campaign.objects.get()
    assert campaign.is_esa
    assigned = Assignment.objects.filter(campaign=campaign, judge=owner).count()
    assert assigned == 2 + 1 + 1  # 2 items, a repeat, a degraded copy

    browser.find_element(By.ID, "campaign-start").click()
    wait.until(EC.presence_of_element_located((By.ID, "esa-target")))
    assert progress(browser) == (0, assigned)
    keys_help = browser.find_element(By.ID, "esa-keys").text
    assert "Enter marks the selection" in keys_help
    assert "undoes the last mark or removal" in keys_help
    # Controls first in the queue are answered with a score alone.
    screen, texts = shown(browser)
    while screen.kind != "regular":
        score_and_submit(browser, wait, "50")
        screen, texts = shown(browser)
    judged = progress(browser)[0]

    try:
        emulate(browser, 1440)
        # The translation has the focus: select its second word by keyboard.
        assert active_id(browser) == "esa-target"
        target = texts["target"]
        first, second = target.split()[:2]
        start = len(first) + 1
        end = start + len(second)
        press(browser, Keys.ARROW_RIGHT, hold=[Keys.CONTROL])  # after word 1
        press(browser, Keys.ARROW_RIGHT)  # past the space
        press(browser, Keys.ARROW_RIGHT, hold=[Keys.CONTROL, Keys.SHIFT])
        status = browser.find_element(By.ID, "esa-status")
        assert f"Selected “{second}”" in status.text
        selected = browser.find_elements(By.CSS_SELECTOR, "#esa-target .esa-selected")
        assert "".join(node.text for node in selected) == second
        press(browser, "2")  # major
        assert browser.find_element(
            By.CSS_SELECTOR, "input[name=esa-severity][value=major]"
        ).is_selected()
        press(browser, Keys.ENTER)
        assert marked(browser) == [
            {
                "side": "target",
                "start": start,
                "end": end,
                "severity": "major",
                "category": "",
            }
        ]
        assert browser.find_element(By.ID, "esa-count").text == "1"
        majors = browser.find_elements(By.CSS_SELECTOR, "#esa-target .severity-major")
        assert "".join(node.text for node in majors) == second

        # Undo, then mark it again as a minor mistranslation.
        press(browser, "z", hold=[Keys.CONTROL])
        assert marked(browser) == []
        assert browser.find_element(By.ID, "esa-count").text == "0"
        assert browser.find_element(By.ID, "esa-none").is_displayed()
        assert not browser.find_elements(By.CSS_SELECTOR, "#esa-target .severity-major")
        press(browser, "1")
        # Choose the category: Tab to it, then Shift+Tab back to the text.
        for _ in range(5):
            if active_id(browser) == "esa-category":
                break
            press(browser, Keys.TAB)
        assert active_id(browser) == "esa-category"
        Select(browser.switch_to.active_element).select_by_value(
            "Accuracy/Mistranslation"
        )
        press(browser, Keys.TAB, hold=[Keys.SHIFT])  # the severity
        press(browser, Keys.TAB, hold=[Keys.SHIFT])  # the translation
        assert active_id(browser) == "esa-target"
        # The caret is still after word 2: select it backwards and mark it.
        press(browser, Keys.ARROW_LEFT, hold=[Keys.CONTROL, Keys.SHIFT])
        press(browser, Keys.ENTER)
        assert marked(browser) == [
            {
                "side": "target",
                "start": start,
                "end": end,
                "severity": "minor",
                "category": "Accuracy/Mistranslation",
            }
        ]
        item = browser.find_element(By.CSS_SELECTOR, "#esa-spans li").text
        assert second in item and "minor" in item and "Accuracy/Mistranslation" in item

        # The source's last word, as something the translation leaves out.
        press(browser, Keys.TAB, hold=[Keys.SHIFT])
        assert active_id(browser) == "esa-source"
        source = texts["source"]
        last = source.split()[-1]
        press(browser, Keys.END)
        press(browser, Keys.ARROW_LEFT, hold=[Keys.CONTROL, Keys.SHIFT])
        press(browser, Keys.ENTER)
        assert marked(browser)[-1] == {
            "side": "source",
            "start": len(source) - len(last),
            "end": len(source),
            "severity": "minor",
            "category": "Accuracy/Mistranslation",
        }
        # Remove it with Backspace at the caret (its end), undo the removal.
        press(browser, Keys.BACKSPACE)
        assert len(marked(browser)) == 1
        press(browser, "z", hold=[Keys.CONTROL])
        assert len(marked(browser)) == 2
        # The translation's last word, major; then a selection left unmarked.
        press(browser, Keys.TAB)
        assert active_id(browser) == "esa-target"
        last_target = target.split()[-1]
        press(browser, Keys.END)
        press(browser, Keys.ARROW_LEFT, hold=[Keys.CONTROL, Keys.SHIFT])
        press(browser, "2")
        press(browser, Keys.ENTER)
        assert len(marked(browser)) == 3
        press(browser, Keys.HOME)
        press(browser, Keys.ARROW_RIGHT, hold=[Keys.CONTROL, Keys.SHIFT])
        assert len(marked(browser)) == 3  # selected, not marked

        def shot() -> None:
            full_page(browser, "esa-campaign-1440.png")

        score_and_submit(browser, wait, "35", before_enter=shot)
        assert progress(browser) == (judged + 1, assigned)

        annotation = ErrorSpanAnnotation.objects.get(
            output_id=screen.item.output_id, index=screen.item.index
        )
        assert (annotation.annotator, annotation.score) == ("alice", 35.0)
        spans = list(
            ErrorSpan.objects.filter(annotation=annotation)
            .order_by("pk")
            .values_list("side", "start", "end", "severity", "category")
        )
        # The category stays chosen for the next span, the source's.
        assert spans == [
            ("target", start, end, "minor", "Accuracy/Mistranslation"),
            ("source", len(source) - len(last), len(source), "minor", MISTRANSLATION),
            (
                "target",
                len(target) - len(last_target),
                len(target),
                "major",
                MISTRANSLATION,
            ),
        ]
        assert Judgment.objects.get(judge="alice").value == 35.0

        # On a phone: a selection (as a finger makes one) marked with the button.
        emulate(browser, 390)
        browser.refresh()
        wait.until(EC.presence_of_element_located((By.ID, "esa-target")))
        browser.execute_script(
            "const nodes = document.querySelectorAll('#esa-target .esa-char');"
            "getSelection().setBaseAndExtent(nodes[0].firstChild, 0, nodes[2].firstChild, 1);"
        )
        wait.until(
            lambda _: browser.find_elements(
                By.CSS_SELECTOR, "#esa-target .esa-selected"
            )
        )
        browser.find_element(By.CSS_SELECTOR, "label:has(input[value=major])").click()
        browser.find_element(By.ID, "esa-mark").click()
        assert [(s["start"], s["end"], s["severity"]) for s in marked(browser)] == [
            (0, 3, "major")
        ]
        full_page(browser, "esa-campaign-390.png")
        problems = browser.execute_script(PROBLEMS_JS, 390)
        assert not problems, problems
        emulate(browser, 1440)
        browser.refresh()
        wait.until(EC.presence_of_element_located((By.ID, "esa-target")))
        assert not browser.execute_script(PROBLEMS_JS, 1440)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.set_window_size(1280, 1000)

    # The sentence page shows Alice's span.
    browser.get(
        f"{live_server.url}/outputs/{screen.item.output_id}/sentences/"
        f"{screen.item.index + 1}/"
    )
    section = wait.until(EC.presence_of_element_located((By.ID, "error-spans")))
    names = [e.text for e in section.find_elements(By.CSS_SELECTOR, ".annotator")]
    assert names == ["alice"]
    marks = section.find_elements(By.CSS_SELECTOR, "mark.error-span.severity-minor")
    assert second in {m.text for m in marks}
    assert "ESA" in section.text and "35" in section.text
    full_page(browser, "esa-campaign-sentence.png")

    # Bob answers (here directly), marking every damage; the campaign page
    # reports both judges' attention checks and their agreement.
    def bob(screen):
        if screen.kind == "degraded":
            return 10, spans_field((screen.damage_start, screen.damage_end, "major"))
        return 60, spans_field((0, 5, "major"))

    answer_everything(campaign, member, bob)
    browser.get(f"{live_server.url}{campaign.get_absolute_url()}")
    table = wait.until(EC.presence_of_element_located((By.ID, "esa-attention-table")))
    row = table.find_element(By.CSS_SELECTOR, "tr[data-judge=bob]").text
    assert row.split()[:5] == ["bob", "1", "1", "1", "1"] and "OK" in row
    pair = browser.find_element(By.CSS_SELECTOR, "tr[data-pair='alice|bob']")
    assert pair.find_element(By.CSS_SELECTOR, "td[data-variant=mpp]").text
    full_page(browser, "esa-campaign-detail.png")
