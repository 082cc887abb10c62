"""Helpers of the browser tests: Debian's headless Chromium driven by selenium, the window
sizes it is shown at (a phone's through the DevTools protocol: headless Chromium makes no
window narrower than 500 px), screenshots kept as test artifacts, and axe-core's
accessibility check (the axe-selenium-python package bundles it).

Under CI=true a browser that cannot start fails the test; elsewhere it skips, saying why."""

from __future__ import annotations

import os
import shutil

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,1000",
]
WAIT_SECONDS = 60
PHONE = (390, 844)
DESKTOP = (1280, 900)
# axe-core's impacts that fail a view: "minor" and "moderate" ones are reported, not failed.
FAILING_IMPACTS = ("serious", "critical")


def start_chromium(profile) -> webdriver.Chrome:
    """Headless Chromium with its own profile folder; the test fails (CI=true) or skips
    when it cannot start."""
    try:
        for program in (CHROMIUM, CHROMEDRIVER):
            if not os.access(program, os.X_OK):
                raise FileNotFoundError(f"{program} is missing (apt-get install chromium chromium-driver)")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS + [f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    except (WebDriverException, OSError) as error:
        message = f"headless Chromium cannot start: {str(error).strip().splitlines()[0]}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    driver.set_script_timeout(WAIT_SECONDS)
    return driver


def screenshot_saver(folder):
    """save(driver, name): the page as folder/NAME.png (and, when FRUIT_RAGE_WEB_SCREENSHOTS
    names a folder, there too: docs/images comes from it)."""

    def save(driver, name: str):
        path = folder / f"{name}.png"
        assert driver.save_screenshot(str(path)), path
        if os.environ.get("FRUIT_RAGE_WEB_SCREENSHOTS"):
            shutil.copy(path, os.path.join(os.environ["FRUIT_RAGE_WEB_SCREENSHOTS"], path.name))
        return path

    return save


def wait(driver, condition, seconds=WAIT_SECONDS):
    return WebDriverWait(driver, seconds).until(lambda d: condition())


def open_page(driver, server: str) -> None:
    driver.get(server + "/")
    wait(driver, lambda: driver.execute_script("return document.body.dataset.ready") == "true")


def show_at(driver, size: tuple) -> None:
    """The page laid out for a viewport of `size` (width, height) CSS pixels, a phone's
    when narrow (touch, and the viewport meta tag honoured)."""
    width, height = size
    phone = width < 500
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 5})


def axe_violations(driver) -> list:
    """axe-core's violations on the page as it is now: (rule, impact, the first element's
    selector) each; FAILING_IMPACTS are those that fail a view."""
    axe = Axe(driver)
    axe.inject()
    return [
        (violation["id"], violation["impact"], violation["nodes"][0]["target"] if violation["nodes"] else None)
        for violation in axe.run()["violations"]
    ]
