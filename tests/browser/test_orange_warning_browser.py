"""A team opens ORANGE results of a 1-best list: the warning is in view above
the table, and the average rank shows its interval."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from scoring.orange import OrangeOptions
from tests.browser.support import full_page, log_in
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    make_nbest,
    remove_artifacts_afterwards_fixture,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_BEST = """\
0 ||| the cat sat on the mat ||| lm=-3.2 ||| -4.2
1 ||| it is raining today ||| lm=-2.0 ||| -2.0
2 ||| hello all ||| lm=-1.5 ||| -1.5
"""


def test_the_one_candidate_warning_is_in_view_on_the_job_page(
    browser, live_server, owner, test_set, remove_artifacts_afterwards
):
    nbest = make_nbest(test_set, ONE_BEST, name="toy 1-best", user=owner)
    job = run_orange_job_now(
        create_orange_job(
            nbest, owner, ["bleus", "wer"], OrangeOptions(n_bootstrap=100), queue=False
        )
    )
    wait = log_in(browser, live_server, owner)
    browser.set_window_size(1440, 1000)
    browser.get(f"{live_server.url}{job.get_absolute_url()}")
    warning = wait.until(EC.visibility_of_element_located((By.ID, "orange-warning")))
    assert "only one candidate" in warning.text
    table = browser.find_element(By.ID, "orange-table")
    assert warning.location["y"] < table.location["y"]
    assert "BLEU (add-one sentence)" in table.text
    full_page(browser, "orange-one-best-warning.png")
