"""Error spans in a real browser: MQM spans and a metric's imported through
the import page, the sentence page (a span reached with Tab names its
category, the severity filter), the comparison of two systems, the
per-system breakdown with its chart, the overview and the segments with a
category; every page fits 1440 px and a 390 px phone. Screenshots go to
``var/screenshots/error-spans-*.png``.

The test set is written for this test: four German news sentences, two
systems, three MQM raters and a metric's spans; one hypothesis holds a
``<script>`` tag and an ``&`` under a span (they must show as text)."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from mtdash.evaluation.models import SystemOutput
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.browser.support import full_page, gone, log_in, screenshot_dir
from tests.browser.test_page_widths_browser import PROBLEMS_JS, emulate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOURCES = [
    "Der Ausschuss hat den Bericht am Dienstag nach langer Debatte angenommen.",
    "Die neue Brücke soll im Frühjahr 2027 für den Verkehr freigegeben werden.",
    "Anwohner beschweren sich seit Monaten über den Lärm der Baustelle.",
    "Die Stadt verspricht, die Arbeiten nachts einzustellen.",
]
REFERENCES = [
    "The committee adopted the report on Tuesday after a long debate.",
    "The new bridge is due to open to traffic in spring 2027.",
    "Residents have been complaining about the noise from the construction site for months.",
    "The city promises to stop the work at night.",
]
OUTPUTS = {
    "Online-W": [
        "The committee accepted the report on Tuesday after long debate.",
        "The new bridge should be released for the traffic in spring 2027.",
        "Residents complain since months about the noise of the building site.",
        "The city promises to stop the works at night.",
    ],
    "NeuralSys-2": [
        "The commission has the report on Tuesday after a long debate adopted.",
        "The new bridge is to be opened in the spring 2027 for the traffic.",
        "Locals have complained for months about the construction noise.",
        "The city promises <script>document.title='pwned'</script> & to stop at night.",
    ],
}
DOCUMENTS = ["council", "council", "bridge", "bridge"]
# (system, segment, rater, category, severity, marked words of the target;
# None: No-error; a "src:" prefix marks them in the source)
ERRORS = [
    ("Online-W", 1, "rater1", "Accuracy/Mistranslation", "Minor", "accepted"),
    ("Online-W", 1, "rater2", None, None, None),
    ("Online-W", 1, "rater3", "Fluency/Grammar", "Minor", "after long debate"),
    ("Online-W", 2, "rater1", "Accuracy/Mistranslation", "Major", "released"),
    ("Online-W", 2, "rater2", "Accuracy/Mistranslation", "Major", "should be released"),
    ("Online-W", 2, "rater2", "Fluency/Grammar", "Minor", "the traffic"),
    ("Online-W", 2, "rater3", "Style/Awkward", "Minor", "released for the traffic"),
    ("Online-W", 3, "rater1", "Fluency/Grammar", "Major", "complain since months"),
    ("Online-W", 3, "rater2", "Fluency/Grammar", "Minor", "since"),
    ("Online-W", 3, "rater3", "Terminology/Inappropriate", "Minor", "building site"),
    ("Online-W", 4, "rater1", None, None, None),
    ("Online-W", 4, "rater2", "Style/Awkward", "Minor", "works"),
    ("Online-W", 4, "rater3", None, None, None),
    ("NeuralSys-2", 1, "rater1", "Fluency/Grammar", "Major", "has the report"),
    ("NeuralSys-2", 1, "rater1", "Accuracy/Mistranslation", "Minor", "commission"),
    ("NeuralSys-2", 1, "rater2", "Fluency/Grammar", "Critical", "has the report on Tuesday after a long debate adopted"),
    ("NeuralSys-2", 1, "rater3", "Fluency/Grammar", "Major", "adopted"),
    ("NeuralSys-2", 2, "rater1", "Fluency/Grammar", "Minor", "in the spring 2027 for the traffic"),
    ("NeuralSys-2", 2, "rater2", "Accuracy/Omission", "Major", "src:für den Verkehr freigegeben"),
    ("NeuralSys-2", 2, "rater3", None, None, None),
    ("NeuralSys-2", 3, "rater1", "Accuracy/Mistranslation", "Minor", "Locals"),
    ("NeuralSys-2", 3, "rater2", None, None, None),
    ("NeuralSys-2", 3, "rater3", None, None, None),
    ("NeuralSys-2", 4, "rater1", "Accuracy/Addition", "Critical", "<script>document.title='pwned'</script> &"),
    ("NeuralSys-2", 4, "rater2", "Other", "Major", "&"),
    ("NeuralSys-2", 4, "rater3", "Non-translation!", "Major", None),
]  # fmt: skip
METRIC = "xcomet-xl"


def mark(text: str, words: str) -> str:
    start = text.index(words)
    return f"{text[:start]}<v>{words}</v>{text[start + len(words) :]}"


def mqm_tsv() -> str:
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    for system, segment, rater, category, severity, words in ERRORS:
        source, target = SOURCES[segment - 1], OUTPUTS[system][segment - 1]
        if words and words.startswith("src:"):
            source = mark(source, words[4:])
        elif words:
            target = mark(target, words)
        fields = [system, DOCUMENTS[segment - 1], str(segment), str(segment), rater]
        fields += [source, target, category or "No-error", severity or "No-error"]
        rows.append("\t".join(fields))
    return "\n".join(rows) + "\n"


def metric_jsonl() -> str:
    lines = []
    for system, hypotheses in OUTPUTS.items():
        for segment, text in enumerate(hypotheses, start=1):
            spans = []
            for words, severity, confidence in (
                ("released for the traffic", "major", 0.71),
                ("has the report", "major", 0.88),
                ("adopted", "minor", 0.42),
                ("the spring", "minor", 0.35),
                ("<script>", "critical", 0.93),
            ):
                if words in text:
                    start = text.index(words)
                    spans.append({"start": start, "end": start + len(words),
                                  "severity": severity, "confidence": confidence})  # fmt: skip
            lines.append({"segment": segment, "system": system, "metric": METRIC,
                          "score": round(0.9 - 0.1 * len(spans), 2), "spans": spans})  # fmt: skip
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.fixture
def world(team, owner, tmp_path):
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="Stadtnachrichten de-en",
            source_language="de",
            target_language="en",
            text_type="news",
            description="",
            sources=SOURCES,
            references={"A": REFERENCES},
            document_ids=DOCUMENTS,
        ),
    )
    for system, hypotheses in OUTPUTS.items():
        job = create_system_output(
            test_set, owner, system, hypotheses, metrics=["chrf"], queue=False
        )
        run_scoring_job(job.pk)
    (tmp_path / "mqm.tsv").write_text(mqm_tsv(), encoding="utf-8")
    (tmp_path / "xcomet.jsonl").write_text(metric_jsonl(), encoding="utf-8")
    return test_set, tmp_path


def import_file(browser, wait, url: str, path, source: str) -> None:
    browser.get(url)
    browser.find_element(By.ID, "id_file").send_keys(str(path))
    field = browser.find_element(By.ID, "id_source")
    field.clear()
    field.send_keys(source)
    button = browser.find_element(By.CSS_SELECTOR, "#error-spans-form button")
    button.click()
    wait.until(gone(button))
    wait.until(EC.presence_of_element_located((By.ID, "import-result")))


def charts_drawn(browser, wait) -> None:
    for chart in browser.find_elements(By.CSS_SELECTOR, "[data-figure]"):
        wait.until(lambda _, c=chart: c.find_elements(By.CSS_SELECTOR, ".main-svg"))


def test_spans_are_imported_seen_filtered_and_broken_down(
    browser, live_server, owner, world
):
    test_set, folder = world
    browser.set_window_size(1440, 1000)
    wait = log_in(browser, live_server, owner, timeout=60)
    base = live_server.url
    import_page = f"{base}/test-sets/{test_set.pk}/error-spans/import/"
    import_file(browser, wait, import_page, folder / "mqm.tsv", "human")
    import_file(browser, wait, import_page, folder / "xcomet.jsonl", METRIC)

    # The test set's links bar leads to the overview, and on to a system.
    browser.get(f"{base}{test_set.get_absolute_url()}")
    browser.find_element(By.ID, "error-spans-overview-link").click()
    table = wait.until(EC.presence_of_element_located((By.ID, "system-errors-table")))
    assert "NeuralSys-2" in table.text and "Online-W" in table.text
    charts_drawn(browser, wait)
    full_page(browser, "error-spans-overview-1440.png")

    # The sentence page: one row per rater and the metric's, labelled.
    output = SystemOutput.objects.get(test_set=test_set, system__name="NeuralSys-2")
    browser.get(f"{base}/outputs/{output.pk}/sentences/1/")
    section = wait.until(EC.presence_of_element_located((By.ID, "error-spans")))
    names = [e.text for e in section.find_elements(By.CSS_SELECTOR, ".annotator")]
    assert names == ["rater1", "rater2", "rater3", METRIC]
    assert (
        section.find_element(By.CSS_SELECTOR, ".metric-row .kind-badge").text
        == "metric"
    )

    # Tab from the filters' button to the first marked span: its category
    # and severity are its accessible name and are written under its row.
    browser.execute_script("document.getElementById('span-filter-submit').focus()")
    active = None
    for _ in range(12):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        active = browser.switch_to.active_element
        if active.tag_name == "mark":
            break
    assert active is not None and active.tag_name == "mark"
    assert active.text == "commission"
    assert active.accessible_name == "“commission”: minor · Accuracy/Mistranslation"
    note = browser.find_element(By.CSS_SELECTOR, ".span-row .span-focus")
    assert note.is_displayed() and "Accuracy/Mistranslation" in note.text
    full_page(browser, "error-spans-sentence-focus-1440.png")

    # Filter by severity: only major spans stay marked.
    Select(browser.find_element(By.ID, "span-severity")).select_by_value("major")
    submit = browser.find_element(By.ID, "span-filter-submit")
    submit.click()
    wait.until(gone(submit))
    marks = browser.find_elements(By.CSS_SELECTOR, "mark.error-span[tabindex]")
    assert marks and all("severity-major" in m.get_attribute("class") for m in marks)
    assert {m.text for m in marks} == {"has the report", "adopted"}

    # A span over "<script>" and "&" shows them as text and runs nothing.
    browser.get(f"{base}/outputs/{output.pk}/sentences/4/")
    wait.until(EC.presence_of_element_located((By.ID, "error-spans")))
    critical = browser.find_element(By.CSS_SELECTOR, "mark.severity-critical[tabindex]")
    assert critical.text.startswith("<script>document.title=")
    assert "pwned" not in browser.title

    # The per-system breakdown, from the sentence page's link.
    browser.get(f"{base}/outputs/{output.pk}/sentences/1/")
    browser.find_element(By.ID, "system-error-spans-link").click()
    table = wait.until(
        EC.presence_of_element_located((By.ID, "category-severity-table"))
    )
    assert "Fluency/Grammar" in table.text
    charts_drawn(browser, wait)
    full_page(browser, "error-spans-system-1440.png")
    Select(browser.find_element(By.ID, "breakdown-document")).select_by_value("bridge")
    # The system page's own heading already says "errors": wait for the
    # page to be replaced, not for the heading, before reading the new one.
    breakdown_submit = browser.find_element(By.ID, "breakdown-submit")
    breakdown_submit.click()
    wait.until(gone(breakdown_submit))
    wait.until(EC.text_to_be_present_in_element((By.TAG_NAME, "h1"), "errors"))
    assert "document bridge" in browser.find_element(By.CSS_SELECTOR, ".meta").text

    # The comparison of the two systems, with both systems' spans.
    other = SystemOutput.objects.get(test_set=test_set, system__name="Online-W")
    compare = f"{base}/test-sets/{test_set.pk}/compare/?a={other.pk}&b={output.pk}&order=index"
    browser.get(compare)
    wait.until(EC.presence_of_element_located((By.ID, "span-filters")))
    assert browser.find_elements(By.CSS_SELECTOR, "#sentence-2 .span-row")
    full_page(browser, "error-spans-compare-1440.png", max_height=12000)

    pages = {
        "sentence": f"{base}/outputs/{output.pk}/sentences/2/",
        "system": f"{base}/outputs/{output.pk}/error-spans/",
        "overview": f"{base}/test-sets/{test_set.pk}/error-spans/",
        "segments": f"{base}/test-sets/{test_set.pk}/error-spans/segments/?category=Fluency",
        "compare": compare,
        "test-set": f"{base}{test_set.get_absolute_url()}",  # its links bar
    }
    problems = {}
    try:
        for width in (1440, 390):
            emulate(browser, width)
            for name, url in pages.items():
                browser.get(url)
                wait.until(EC.presence_of_element_located((By.TAG_NAME, "main")))
                charts_drawn(browser, wait)
                full_page(browser, f"error-spans-{name}-{width}.png", max_height=12000)
                if name == "compare":  # one sentence, close up
                    card = browser.find_element(By.ID, "sentence-2")
                    card.screenshot(
                        str(screenshot_dir() / f"error-spans-compare-2-{width}.png")
                    )
                found = browser.execute_script(PROBLEMS_JS, width)
                if found:
                    problems[f"{name} at {width} px"] = found
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        browser.set_window_size(1280, 1000)
    assert not problems, problems
