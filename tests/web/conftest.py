"""The browser the Chromium tests share: one per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .test_browser import ARTIFACTS, CHROMIUM, FLAGS


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS,
                                              headless=True)
        yield launched
        launched.close()
