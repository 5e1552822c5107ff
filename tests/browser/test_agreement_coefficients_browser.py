"""The judges' agreement with Fleiss' kappa, weighted kappa and the ICC on
the judgments page and in the correlations page's aside: visible, every
row there, nothing to scroll sideways at 1440 px (screenshots for the
README's reader)."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from mtdash.judgments.imports.judgments import import_judgments
from tests.browser.support import full_page, log_in, screenshot_dir
from tests.web.judgments.test_agreement import judgments_csv
from tests.web.judgments.test_campaigns import build_judged_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_agreement_coefficients_fit_the_judgments_page_and_the_aside(
    browser, live_server, owner, team
):
    test_set = build_judged_set(team, owner)
    import_judgments(test_set, owner, judgments_csv(), "judgments.csv")
    browser.set_window_size(1440, 1000)
    wait = log_in(browser, live_server, owner)
    for path, name in (
        ("judgments/", "agreement-coefficients.png"),
        ("correlations/", "agreement-coefficients-aside.png"),
    ):
        browser.get(f"{live_server.url}/test-sets/{test_set.pk}/{path}")
        table = wait.until(
            EC.visibility_of_element_located((By.ID, "agreement-coefficients"))
        )
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr[data-method]")
        assert len(rows) == 2 * 5  # adequacy and DA, five coefficients each
        assert "ICC(A,1)" in table.text and "Fleiss κ" in table.text
        assert "undefined" in table.text  # DA's kappas, with the reason
        scroller = table.find_element(By.XPATH, "..")
        overflow = browser.execute_script(
            "return arguments[0].scrollWidth - arguments[0].clientWidth;", scroller
        )
        table.screenshot(str(screenshot_dir() / name))
        assert overflow <= 1, f"{path}: the table is {overflow}px wider than its box"
    full_page(browser, "correlations-agreement.png")
