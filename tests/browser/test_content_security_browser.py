"""The strict Content-Security-Policy breaks nothing: the main pages, a
Plotly chart, the upload form's script, the system and compare pages, the
admin and the API docs load in Chromium with no violation reported, and the
chart is drawn."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from scoring import __version__
from tests.browser.support import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs in every page before the page's own scripts, outside its policy: it
# records what the policy refused (the console says the same, but Chromium
# hands selenium only part of its log).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(
    event.violatedDirective + " blocked " + (event.blockedURI || "inline") +
    " at " + event.sourceFile + ":" + event.lineNumber);
});
"""


@pytest.fixture
def recording(browser):
    script = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS}
    )
    browser.get_log("browser")  # drop what earlier tests left
    yield browser
    browser.execute_cdp_cmd(
        "Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]}
    )


def violations(browser) -> list[str]:
    recorded = browser.execute_script("return window.__cspViolations || [];")
    console = [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]
    return recorded + console


def scored_outputs(test_set, owner) -> list:
    jobs = []
    for name, score in (("alpha", 30.0), ("beta", 20.0)):
        job = create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
        CorpusScore.objects.create(
            output=job.output,
            metric="bleu",
            score=score,
            signature=f"bleu|nrefs:2|version:{__version__}",
        )
        jobs.append(job)
    return jobs


def test_main_pages_a_chart_the_admin_and_the_api_docs_run_under_the_policy(
    recording, live_server, owner, test_set, tmp_path
):
    browser = recording
    owner.is_staff = owner.is_superuser = True
    owner.save()
    jobs = scored_outputs(test_set, owner)
    wait = log_in(browser, live_server, owner, timeout=60)
    assert violations(browser) == []

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, "#leaderboard-chart .main-svg .ytick text")
        )
    )
    ticks = {
        element.get_attribute("textContent")
        for element in browser.find_elements(
            By.CSS_SELECTOR, "#leaderboard-chart .ytick text"
        )
    }
    assert ticks == {"alpha", "beta"}
    # One point per system is drawn.
    points = "#leaderboard-chart .scatterlayer .trace .points path.point"
    assert len(browser.find_elements(By.CSS_SELECTOR, points)) == 2
    browser.save_screenshot(str(tmp_path / "csp-leaderboard.png"))
    assert violations(browser) == [], "leaderboard"

    # The policy is in force: a script written into the page does not run.
    browser.execute_script(
        "const s = document.createElement('script');"
        "s.textContent = 'window.__injected = true;';"
        "document.body.appendChild(s);"
    )
    assert browser.execute_script("return window.__injected === true;") is False
    assert any("script-src" in found for found in violations(browser))

    for path, ready in (
        ("/", "main"),
        ("/test-sets/new/", "#id_source_file"),
        (f"/jobs/{jobs[0].pk}/", "main"),
        (f"/outputs/{jobs[0].output.pk}/", "main"),
        (f"/test-sets/{test_set.pk}/compare/", "main"),
        ("/admin/", "#content"),
        ("/account/tokens/", "main"),
    ):
        browser.get(f"{live_server.url}{path}")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ready)))
        assert violations(browser) == [], path

    browser.get(f"{live_server.url}/api/v1/docs")
    WebDriverWait(browser, 60).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".swagger-ui .opblock"))
    )
    browser.save_screenshot(str(tmp_path / "csp-api-docs.png"))
    assert violations(browser) == [], "API docs"
