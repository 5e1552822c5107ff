"""Steps the browser tests share."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import PASSWORD


def log_in(browser, live_server, user, timeout: float = 30) -> WebDriverWait:
    """Log ``user`` in through the login form; returns a wait for later steps."""
    wait = WebDriverWait(browser, timeout)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(user.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    return wait
