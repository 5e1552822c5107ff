import os
import shutil
import tempfile
from contextlib import contextmanager

import pytest

from tests.browser.support import screenshots_wanted


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name) or (name if os.path.exists(name) else None)
        if found:
            return found
    return None


# Debian's Chromium headless shell (package chromium-headless-shell): the
# same Blink and V8 without the desktop browser's UI layer. The 37 browser
# tests, alone in 2 processes, drew 101 s of CPU in all with it against
# 135-141 s with the full browser in its new headless mode (wall 67 s
# against 82-84 s). MTDASH_TEST_BROWSER=chromium asks for the full browser
# (.ci/run's PostgreSQL stage does, so both are run); without the shell,
# the full browser is used.
BROWSER_ENV = "MTDASH_TEST_BROWSER"
SHELL_PATHS = ("/usr/lib/chromium/chromium-headless-shell", "chromium-headless-shell")
# The browser itself, not Debian's /usr/bin/chromium launcher: that script
# adds flags for a desktop (GPU rasterization, which a machine without a
# GPU emulates in software, and the bundled extensions).
FULL_PATHS = ("/usr/lib/chromium/chromium", "chromium", "/usr/bin/chromium")


def _browser_binary() -> tuple[str | None, bool]:
    """The Chromium to drive, and whether it is the headless shell."""
    wanted = os.environ.get(BROWSER_ENV, "")
    if wanted not in ("", "shell", "chromium"):
        pytest.fail(f"{BROWSER_ENV}={wanted!r}: use shell or chromium")
    shell = _find(*SHELL_PATHS) if wanted != "chromium" else None
    if shell:
        return shell, True
    if wanted == "shell":
        pytest.fail(f"{BROWSER_ENV}=shell: chromium-headless-shell is not installed")
    return _find(*FULL_PATHS), False


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven through chromedriver (selenium)."""
    chromium, is_shell = _browser_binary()
    driver_path = _find("chromedriver", "/usr/bin/chromedriver")
    if not chromium or not driver_path:
        message = "Debian packages chromium and chromium-driver are not installed"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    # This machine has no internet: switch off everything that phones home.
    for flag in (
        "--headless" if is_shell else "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        # Less work per page: no extensions or crash reporter, one renderer
        # for the live server's pages instead of one per navigation, and no
        # background features (translation, hints, media routing, caching
        # the page left for a back button). The browser tests drew about
        # 15 % less CPU in Chromium this way.
        "--disable-extensions",
        "--disable-component-extensions-with-background-pages",
        "--disable-breakpad",
        "--mute-audio",
        "--disable-ipc-flooding-protection",
        "--disable-site-isolation-trials",
        "--process-per-site",
        "--disable-features=Translate,OptimizationHints,MediaRouter,"
        "AutofillServerCommunication,CertificateTransparencyComponentUpdater,"
        "BackForwardCache,InterestFeedContentSuggestions",
        "--window-size=1280,1000",
    ):
        options.add_argument(flag)
    # The shell opens no first page in a profile folder it is given, and
    # chromedriver then never finds one to drive: chromedriver makes (and
    # removes) the shell's profile itself.
    profile = None if is_shell else tempfile.mkdtemp(prefix="mtdash-chromium-")
    if profile:
        options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(
        service=Service(executable_path=driver_path), options=options
    )
    driver.set_page_load_timeout(60)
    if screenshots_wanted():
        yield driver
    else:
        with _screenshots_skipped(driver):
            yield driver
    driver.quit()
    if profile:
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def _screenshots_skipped(driver):
    """The tests' screenshots of windows and elements are no-ops while the
    browser is up (see :func:`screenshots_wanted`); full pages are skipped
    in ``full_page``."""
    from selenium.webdriver.remote.webelement import WebElement

    def skipped(*_args, **_kwargs) -> bool:
        return True

    element_screenshot = WebElement.screenshot
    driver.save_screenshot = driver.get_screenshot_as_file = skipped
    WebElement.screenshot = skipped
    try:
        yield
    finally:
        WebElement.screenshot = element_screenshot


@pytest.fixture(autouse=True)
def blank_page_afterwards(request):
    """Leave each browser test on about:blank. The browser and the live
    server outlive the test, and a page left open keeps polling: once the
    test's rows are flushed, a leaderboard's poll reloads it and the server
    renders the login page. The test client records every template rendered
    in its process while a request runs (a signal, not per thread), so a
    later test in this process could read that login form's context as its
    own response's form (CI saw "no errors" on upload forms that had one)."""
    yield
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").get("about:blank")
