"""A person creates an API token on the account page, copies the key shown
once, uses it, and revokes it after confirming."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from mtdash.api.models import ApiToken
from tests.browser.support import screenshot_dir
from tests.conftest import PASSWORD
from tests.web.api.conftest import client_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_user_creates_uses_and_revokes_a_token(browser, live_server, owner, tmp_path):
    wait = WebDriverWait(browser, 30)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(owner.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.element_to_be_clickable((By.LINK_TEXT, "API tokens"))).click()
    wait.until(EC.presence_of_element_located((By.ID, "no-tokens")))

    browser.find_element(By.ID, "id_name").send_keys("nightly evaluation script")
    browser.find_element(By.ID, "token-create-submit").click()
    key = wait.until(EC.visibility_of_element_located((By.ID, "new-token-key"))).text
    token = ApiToken.objects.get()
    assert key.startswith(token.prefix) and len(key) > 40
    row = browser.find_element(By.ID, f"token-{token.pk}")
    assert "nightly evaluation script" in row.text and "never" in row.text
    assert key not in row.text  # the list shows the prefix only
    assert client_with(key).get("/api/v1/test-sets/").status_code == 200
    shots = str(screenshot_dir())
    browser.save_screenshot(os.path.join(shots, "api-tokens.png"))

    browser.get(f"{live_server.url}/account/tokens/")
    assert key not in browser.page_source  # shown once only
    row = browser.find_element(By.ID, f"token-{token.pk}")
    assert "never" not in row.text  # last used: just now
    row.find_element(By.CLASS_NAME, "token-revoke").click()
    wait.until(EC.element_to_be_clickable((By.ID, "token-revoke-confirm"))).click()
    wait.until(EC.presence_of_element_located((By.CLASS_NAME, "revoked")))
    assert "revoked." in browser.find_element(By.CLASS_NAME, "messages").text
    assert client_with(key).get("/api/v1/test-sets/").status_code == 401
    browser.save_screenshot(os.path.join(shots, "api-tokens-revoked.png"))


def test_the_api_docs_render_without_internet(browser, live_server, tmp_path):
    browser.get(f"{live_server.url}/api/v1/docs")
    wait = WebDriverWait(browser, 30)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))
    paths = [
        e.text for e in browser.find_elements(By.CLASS_NAME, "opblock-summary-path")
    ]
    assert "/api/v1/test-sets/" in paths and "/api/v1/jobs/{id}" in paths
    shots = str(screenshot_dir())
    browser.save_screenshot(os.path.join(shots, "api-docs.png"))
