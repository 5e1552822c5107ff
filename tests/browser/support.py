"""Steps the browser tests share."""

import base64
import os
import time
from pathlib import Path

from selenium.common.exceptions import (
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import PASSWORD

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def screenshots_wanted() -> bool:
    """Screenshots are for people to look at and never asserted, so they are
    taken only when asked: ``MTDASH_SCREENSHOTS=1`` (``.ci/run`` asks, and
    keeps the folder) or a ``MTDASH_SCREENSHOT_DIR``. Capturing whole pages
    beyond the window cost Chromium about a sixth of its CPU in the browser
    tests, and each capture first waits for charts to finish drawing."""
    return os.environ.get("MTDASH_SCREENSHOTS") == "1" or bool(
        os.environ.get("MTDASH_SCREENSHOT_DIR")
    )


def screenshot_dir() -> Path:
    """Where screenshots go: ``MTDASH_SCREENSHOT_DIR``, else ``var/screenshots/``
    (CI keeps that folder as an artifact)."""
    chosen = os.environ.get("MTDASH_SCREENSHOT_DIR")
    folder = Path(chosen) if chosen else PROJECT_ROOT / "var" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def full_page(browser, name: str, max_height: int = 8000) -> Path:
    """A screenshot of the whole page, beyond the window (Chromium's DevTools
    capture), saved as ``name`` in :func:`screenshot_dir` when screenshots
    are wanted."""
    path = screenshot_dir() / name
    if not screenshots_wanted():
        return path
    time.sleep(0.5)  # let charts finish drawing
    width, height = browser.execute_script(
        "const e = document.documentElement;"
        f"return [e.scrollWidth, Math.min(e.scrollHeight, {max_height})];"
    )
    shot = browser.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            # Quicker PNG encoding (less compression): about a hundred
            # full-page shots per run, each millions of pixels.
            "optimizeForSpeed": True,
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        },
    )
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def log_in(browser, live_server, user, timeout: float = 30) -> WebDriverWait:
    """Log ``user`` in through the login form; returns a wait for later steps."""
    wait = WebDriverWait(browser, timeout)
    browser.get(f"{live_server.url}/accounts/login/")
    browser.find_element(By.ID, "id_username").send_keys(user.username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login-submit").click()
    wait.until(EC.presence_of_element_located((By.LINK_TEXT, "Upload a test set")))
    return wait


def gone(element):
    """A wait condition: ``element`` left the document (its page was
    replaced). Like ``EC.staleness_of``, but Chromium may also answer a check
    on a node of the departing page with an "unknown error ... does not
    belong to the document" instead of a stale-element error; that means
    gone too."""

    def check(_driver) -> bool:
        try:
            element.is_enabled()
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
        return False

    return check


def click_fresh(wait: WebDriverWait, selector: str) -> None:
    """Click the first element matching the CSS ``selector``, finding it
    again when the page replaced it between the find and the click (a
    leaderboard that refreshes itself while a follow-up job runs swaps its
    table in place)."""

    def clicked(driver) -> bool:
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
        except StaleElementReferenceException:
            return False
        return True

    wait.until(clicked)
