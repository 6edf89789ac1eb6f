"""Shared test helpers: fixture paths resolved from this file, never the working directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


# -- a real browser: headless Chromium driven by selenium ---------------------------------

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _browser_binaries() -> tuple[str, str] | None:
    """(browser, chromedriver) found on this machine, or None."""
    import shutil

    driver = shutil.which("chromedriver")
    browser = next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One headless Chromium for the session; the tests skip only when none is installed."""
    found = _browser_binaries()
    if found is None:
        pytest.skip(
            "no browser installed: the browser tests need chromium and chromedriver "
            "(Debian: apt-get install chromium chromium-driver; .ci/run installs them as root)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(found[1]))
    try:
        yield driver
    finally:
        driver.quit()
