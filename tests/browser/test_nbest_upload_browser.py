"""A person uploads a gzip n-best list: the page says it is being checked,
with progress, and turns into the list (or names the line of a problem)
when the worker's check is done. Screenshots of the form and both states."""

from __future__ import annotations

import gzip

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from mtdash.orange.models import NBestList
from tests.browser.support import full_page, log_in
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    TOY_NBEST,
    artifact_dir_fixture,
    check_waiting_uploads,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def checks_run_here(monkeypatch):
    """The uploads' checks are left for :func:`check_waiting_uploads` to run
    in this process: a real worker started by an earlier test of the session
    (it stays up) would otherwise take them, from its own artifact folder."""
    monkeypatch.setattr(
        "mtdash.orange.nbest.uploads.send_job_tasks", lambda *args: None
    )


def upload(browser, live_server, test_set, path, name: str) -> None:
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/orange/nbest/new/")
    browser.find_element(By.ID, "id_nbest_file").send_keys(str(path))
    browser.find_element(By.ID, "id_name").send_keys(name)
    browser.find_element(By.CSS_SELECTOR, "#nbest-form button[type=submit]").click()


def test_the_page_follows_the_check_of_a_gzip_upload(
    browser, live_server, owner, test_set, artifact_dir, tmp_path
):
    wait = log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/orange/nbest/new/")
    help_text = browser.find_element(By.ID, "nbest-form").text
    assert "gzip-compressed" in help_text and "1.0 GB uncompressed" in help_text
    full_page(browser, "nbest-upload-form.png")

    path = tmp_path / "toy.nbest.gz"
    path.write_bytes(gzip.compress(TOY_NBEST.encode("utf-8")))
    upload(browser, live_server, test_set, path, "toy 3-best")

    # No worker takes it: the list waits for its check, and says so.
    status = wait.until(EC.presence_of_element_located((By.ID, "nbest-status")))
    assert status.text == "Waiting to be checked"
    assert browser.find_element(By.ID, "nbest-progress").is_displayed()
    assert not browser.find_elements(By.ID, "orange-form")
    full_page(browser, "nbest-validating.png")

    check_waiting_uploads()  # the worker's part; the page polls and reloads
    summary = wait.until(EC.presence_of_element_located((By.ID, "nbest-summary")))
    assert "3 sentences · 8 candidates · 2–3 per sentence · from toy.nbest" in (
        summary.text
    )
    assert browser.find_element(By.ID, "orange-form").is_displayed()
    full_page(browser, "nbest-ready.png")


def test_a_refused_upload_names_the_line_and_offers_a_new_upload(
    browser, live_server, owner, test_set, artifact_dir, tmp_path
):
    wait = log_in(browser, live_server, owner)
    path = tmp_path / "bad.nbest"
    path.write_text(TOY_NBEST + "3 ||| too far ||| ||| -1\n", encoding="utf-8")
    upload(browser, live_server, test_set, path, "bad")
    wait.until(EC.presence_of_element_located((By.ID, "nbest-status")))

    check_waiting_uploads()
    refusal = wait.until(EC.presence_of_element_located((By.ID, "nbest-refused")))
    assert "bad.nbest, line 9: sentence id 3 is not a segment" in refusal.text
    assert "Nothing was stored." in refusal.text
    assert NBestList.objects.get().status == NBestList.Status.FAILED
    full_page(browser, "nbest-refused.png")
