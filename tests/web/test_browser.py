"""End to end in a real headless Chromium (Debian's chromium, driven by Playwright): a whole
game as guesser, an illegal clue refused, a reload in the middle of a game. Screenshots go to
tests/artifacts/."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium; the "
                                  "README and .ci/run install it)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    database = tmp_path_factory.mktemp("web") / "games.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "codenames_ai", "serve", "--port", str(port), "--db",
         str(database)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/options", timeout=2).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"the server did not start: {process.stdout.read()}"
                                   if process.stdout else "the server did not start") from None
            time.sleep(0.2)
    assert process.stdout is not None
    assert f"http://127.0.0.1:{port}/" in process.stdout.readline()  # serve prints the address
    yield base
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS,
                                              headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    opened = context.new_page()
    yield opened
    context.close()


def start(page: Any, server: str, role: str, edition: str = "words", seed: int = 3) -> None:
    page.goto(server)
    page.select_option("select[name=role]", role)
    page.select_option("select[name=edition]", edition)
    if role == "watch":  # a game with a person is dealt from a secret seed
        page.fill("input[name=seed]", str(seed))
    page.click("#start")
    page.wait_for_url("**/game/*")
    page.wait_for_selector(".card")


def wait_settled(page: Any) -> str:
    # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the
    # eval that Playwright's function polling uses, and the tests keep that policy on.
    page.wait_for_selector("body[data-state=your-turn], body[data-state=over]",
                           state="attached", timeout=60_000)
    return str(page.locator("body").get_attribute("data-state"))


def test_a_whole_game_as_guesser(page: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    start(page, server, "guess", seed=4)
    assert page.locator(".card").count() == 25
    assert page.locator("[class*=key-]").count() == 0  # a guesser's page shows no key
    for _ in range(60):
        if wait_settled(page) == "over":
            break
        before = page.locator(".card.revealed").count()
        page.locator(".card.can-guess").first.click()
        page.locator(".card.revealed").nth(before).wait_for(timeout=60_000)
    assert wait_settled(page) == "over"
    assert page.locator("#outcome").inner_text().strip()
    assert page.locator("#why li").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "guesser-game-over.png"), full_page=True)


def test_an_illegal_clue_is_refused(page: Any, server: str) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    start(page, server, "spymaster")
    assert page.locator(".card.key-red").count() >= 8  # the spymaster sees the key
    # A face-down card: the AI may have started, and a covered card's word is legal again.
    board_word = page.locator(".card:not(.revealed)").first.inner_text().strip().lower()
    page.fill("#clue-word", board_word)
    page.wait_for_selector("#clue-check.bad")
    assert "[board-word]" in page.locator("#clue-check").inner_text()
    history = page.locator("#history li").count()
    page.click("#give-clue")
    page.locator("#error", has_text="board-word").wait_for()
    assert page.locator("#history li").count() == history
    # The deal is secret, so a clue may be illegal on this board: take the first the live
    # check calls legal.
    for clue in ("ocean", "galaxy", "thunder", "violin"):
        page.fill("#clue-word", clue)
        try:
            page.wait_for_selector("#clue-check.ok", timeout=5_000)
            break
        except PlaywrightTimeout:
            continue
    else:
        raise AssertionError("none of the clues is legal on this board")
    page.fill("#clue-number", "2")
    page.click("#give-clue")
    page.locator("#history li", has_text=f"red spymaster: {clue}: 2").wait_for(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "spymaster.png"), full_page=True)


def test_a_reload_in_the_middle_of_a_game(page: Any, server: str) -> None:
    start(page, server, "guess", edition="pictures", seed=6)
    assert page.locator(".card .emoji").count() == 20
    wait_settled(page)
    before = page.locator(".card.revealed").count()  # the AI may have moved first
    page.locator(".card.can-guess").first.click()
    page.locator(".card.revealed").nth(before).wait_for(timeout=60_000)
    wait_settled(page)
    url = page.url
    revealed = page.locator(".card.revealed").count()
    history = page.locator("#history li").all_inner_texts()
    page.reload()
    page.wait_for_selector(".card")
    assert page.url == url
    assert page.locator(".card.revealed").count() == revealed
    assert page.locator("#history li").all_inner_texts() == history
    page.screenshot(path=str(ARTIFACTS / "pictures-after-reload.png"), full_page=True)


def test_the_board_fits_a_phone_screen(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    try:
        start(phone, server, "guess")
        wait_settled(phone)
        overflow = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        box = phone.locator(".card").first.bounding_box()
        assert box is not None and box["width"] >= 50  # five cards to a row, still tappable
        phone.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    finally:
        context.close()
