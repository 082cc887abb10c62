"""The installed wheel's suite (tests/installed) run by itself, as `python3 -m pytest
tests/installed` in a checkout: with no wheel set up there is nothing to test, and it
says so by skipping, not by failing; under CI=true (.ci/run sets the wheel up) it fails."""

from __future__ import annotations

import importlib.util
import os

import pytest
from paths import PROJECT_ROOT


def installed_suite():
    path = os.path.join(PROJECT_ROOT, "tests", "installed", "test_installed_package.py")
    spec = importlib.util.spec_from_file_location("installed_suite", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["FRUIT_RAGE_VENV", "FRUIT_RAGE_WHEEL"])
def test_the_installed_suite_alone_skips_naming_what_is_not_set(name, monkeypatch):
    suite = installed_suite()
    monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=f"{name} is not set: this suite tests an installed wheel"):
        suite._required(name)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=f"{name} is not set"):
        suite._required(name)
