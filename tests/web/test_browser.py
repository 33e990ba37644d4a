"""End to end in a real headless Chromium (Debian's chromium, driven by Playwright): the start
page and its loading state, a whole game as guesser to its end screen and "Play again", the
spymaster's live clue check, a reload of a pictures game, co-op and watching.

Every screen is photographed at desktop size (1280x800) and at a phone's width (390 px) into
tests/artifacts/web-<screen>-desktop.png and web-<screen>-phone.png; at the phone's width
the page must not scroll sideways and no card's word may overflow its card (which is what a
word broken mid-word, or cut, would need)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..test_plain_words import jargon
from .server import Server

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium; the "
                                  "README and .ci/run install it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite3")
    running.start()
    assert f"{running.base}/" in running.announced  # serve prints the address
    yield running.base
    running.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    opened = context.new_page()
    yield opened
    context.close()


def api(server: str, path: str) -> Any:
    with urllib.request.urlopen(f"{server}{path}", timeout=10) as response:
        return json.loads(response.read())


def post(server: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def choose(page: Any, role: str, edition: str = "words", seed: int = 3) -> None:
    page.select_option("select[name=role]", role)
    page.select_option("select[name=edition]", edition)
    if role == "watch":  # a game with a person is dealt from a secret seed
        page.fill("input[name=seed]", str(seed))


def start(page: Any, server: str, role: str, edition: str = "words", seed: int = 3) -> str:
    """A new game from the start page, dealt with red (the person's team) to start: the
    test server's seeds (serve_red_first.py), so no AI move comes before the person's."""
    page.goto(server)
    choose(page, role, edition, seed)
    page.click("#start")
    page.wait_for_url("**/game/*", timeout=60_000)
    page.wait_for_selector(".card")
    if role != "watch":
        assert wait_settled(page) == "your-turn"
    return game_id(page)


def game_id(page: Any) -> str:
    return str(page.url.rsplit("/", 1)[1])


def wait_settled(page: Any) -> str:
    # Selectors, not wait_for_function: the page's Content-Security-Policy forbids the
    # eval that Playwright's function polling uses, and the tests keep that policy on.
    page.wait_for_selector("body[data-state=your-turn], body[data-state=over]",
                           state="attached", timeout=60_000)
    return str(page.locator("body").get_attribute("data-state"))


def guess_once(page: Any) -> None:
    before = page.locator(".card.revealed").count()
    page.locator(".card.can-guess").first.click()
    page.locator(".card.revealed").nth(before).wait_for(timeout=60_000)
    wait_settled(page)


def words_fit(page: Any) -> list[str]:
    """The cards whose content is wider than the card (or whose word is wider than its line)."""
    return list(page.evaluate("""() => [...document.querySelectorAll('.card, .card .word')]
        .filter((e) => e.scrollWidth > e.clientWidth)
        .map((e) => e.textContent + ' ' + e.scrollWidth + '>' + e.clientWidth)"""))


def shoot(page: Any, screen: str) -> None:
    """web-<screen>-desktop.png at 1280x800, then web-<screen>-phone.png at 390 px wide, where
    the page must fit the width and every card its word."""
    page.set_viewport_size(DESKTOP)
    assert words_fit(page) == []
    page.screenshot(path=str(ARTIFACTS / f"web-{screen}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    assert words_fit(page) == []
    if page.locator("#board .card").count():
        box = page.locator(".card").first.bounding_box()
        assert box is not None and box["width"] >= 50  # five cards to a row, still tappable
        tops = [page.locator(".card").nth(i).bounding_box()["y"] for i in range(6)]
        assert max(tops[:5]) - min(tops[:5]) < 5 < tops[5] - tops[0]  # five to the first row
    page.screenshot(path=str(ARTIFACTS / f"web-{screen}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_the_start_page_its_levels_and_the_loading_state(page: Any, server: str) -> None:
    page.goto(server)
    assert "Play Codenames with AI teammates" in page.locator("#setup").inner_text()
    assert "assassin" in page.locator(".rules").inner_text()
    # The level: a description of each, from the server; not used in co-op or when watching.
    levels = {entry["name"]: entry["description"]
              for entry in api(server, "/api/options")["levels"]}
    assert page.locator("#level").input_value() == "normal"
    page.locator("#level-hint", has_text=levels["normal"]).wait_for()
    page.select_option("#level", "easy")
    assert page.locator("#level-hint").inner_text() == levels["easy"]
    for role in ("coop", "watch"):
        page.select_option("select[name=role]", role)
        assert page.locator("#level").is_disabled()
        assert "no opposing AI team" in page.locator("#level-hint").inner_text() \
            or "no person to play against" in page.locator("#level-hint").inner_text()
    page.select_option("select[name=role]", "guess")
    page.select_option("#level", "normal")
    assert not page.locator("#level").is_disabled()
    # The icon: linked from the page, and served at the classic address too (no 404).
    assert page.locator("link[rel=icon]").get_attribute("href") == "/static/icon.svg"
    favicon = page.request.get(f"{server}/favicon.ico")
    assert favicon.status == 200 and "svg" in favicon.headers["content-type"]
    shoot(page, "start")

    # Loading: the request for the game is held while the page is photographed.
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.click("#start")
    page.wait_for_selector("#loading:not([hidden])")
    assert page.locator("#start").is_disabled()
    assert "Preparing the AI" in page.locator("#loading").inner_text()
    assert page.locator("#loading .spinner").count() == 1
    shoot(page, "loading")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    page.wait_for_url("**/game/*", timeout=60_000)
    assert wait_settled(page) in ("your-turn", "over")  # over: the AI ended a secret deal
    assert page.locator("#loading").is_hidden()
    assert api(server, f"/api/games/{game_id(page)}")["config"]["level"] == "normal"


def test_every_hint_on_the_start_page_is_in_plain_words(page: Any, server: str) -> None:
    """Issue 41: the level hint read "... through word use alone (GloVe), a mind its
    spymaster does not consult". Every hint the start page shows, for every role, level and
    room game, as Chromium draws it, is now free of model names and jargon."""
    page.goto(server)
    page.locator("#level-hint", has_text="other team").wait_for()  # the levels have come
    shown: dict[str, list[str]] = {}
    for role in ("guess", "spymaster", "coop", "watch"):
        page.select_option("select[name=role]", role)
        for level in ("easy", "normal", "hard"):
            if page.locator("#level").is_enabled():
                page.select_option("#level", level)
            shown[f"{role}/{level}"] = jargon(page.locator("#level-hint").inner_text())
    for variant in ("standard", "coop", "three-player"):
        page.select_option("#friends-variant", variant)
        shown[variant] = jargon(page.locator("#friends-variant-hint").inner_text())
    shown["the whole start page"] = jargon(page.locator("#setup").inner_text())
    assert {where: terms for where, terms in shown.items() if terms} == {}


def test_a_whole_game_as_guesser_then_play_again(page: Any, server: str) -> None:
    first = start(page, server, "guess")
    assert page.locator(".card").count() == 25
    assert wait_settled(page) == "your-turn"
    guess_once(page)
    if wait_settled(page) == "your-turn":
        # Mid-game: the turn banner in red's colour, the scores, no key anywhere.
        assert page.locator("#turn-banner").inner_text() == "Red's turn — your guess"
        assert page.locator("#turn-banner").get_attribute("data-team") == "red"
        assert page.locator("#clue-banner").get_attribute("data-team") == "red"
        view = api(server, f"/api/games/{first}")
        assert page.locator("#score-red .count").inner_text() == str(view["left"]["red"])
        assert page.locator("#score-blue .count").inner_text() == str(view["left"]["blue"])
        assert page.locator(".card[class*=key-]").count() == 0  # a guesser's page shows no key
        assert page.locator("#legend").is_hidden()
        # The AI's moves since the person's last one are outlined, on the board and in the log.
        recent = {c["index"] for c in view["cards"] if c["recent"]}
        shown = {int(i) for i in page.locator(".card.recent").evaluate_all(
            "(cards) => cards.map((c) => c.dataset.index)")}
        assert shown == recent
        # The history is grouped by turn: each turn's header is its clue.
        assert page.locator("#history .turn").count() == len({e["turn"] for e in view["log"]})
        assert "spymaster:" in page.locator("#history .turn .turn-head").first.inner_text()
        shoot(page, "guesser")
    for _ in range(60):
        if wait_settled(page) == "over":
            break
        assert page.locator(".card[class*=key-]").count() == 0
        guess_once(page)
    assert wait_settled(page) == "over"
    # The end: every card tinted with the key, who won and why, the last moves, the reasons.
    assert page.locator(".card[class*=key-]").count() == 25
    assert page.locator("#legend").is_visible()
    assert page.locator("#result").inner_text() in ("You win!", "You lose")
    assert re.search(r"wins on turn \d+", page.locator("#outcome").inner_text())
    assert page.locator("#last-moves li").count() >= 1
    reasons = page.locator("#why li").all_inner_texts()
    assert reasons and all(re.match(r"Turn \d+, (red|blue): \S+: \S+ — aimed at ", line)
                           for line in reasons), reasons
    assert page.locator("#again").is_visible()
    shoot(page, "end")
    # The first screenful (the README's docs/web-game.png is made by docs/web_game_png.py).
    page.screenshot(path=str(ARTIFACTS / "web-end-screenful-desktop.png"))

    # Play again: the same settings, a new deal.
    ended = api(server, f"/api/games/{first}")
    page.click("#again")
    page.wait_for_url(re.compile(r".*/game/(?!" + re.escape(first) + r"$)[^/]+$"),
                      timeout=60_000)
    wait_settled(page)
    again = api(server, f"/api/games/{game_id(page)}")
    assert again["you"] == ended["you"]
    assert {**again["config"], "seed": None} == {**ended["config"], "seed": None}
    assert [c["word"] for c in again["cards"]] != [c["word"] for c in ended["cards"]]
    assert not again["over"]  # red starts every deal of the test server
    assert page.locator("#end").is_hidden() and page.locator("#end-details").is_hidden()
    assert page.locator(".card[class*=key-]").count() == 0


def test_the_spymaster_s_clue_is_checked_as_it_is_typed(page: Any, server: str) -> None:
    game = start(page, server, "spymaster")
    sent: list[str] = []  # the moves the page posts, in order
    page.on("request", lambda request: sent.append(str(request.post_data_json.get("move")))
            if request.method == "POST" and request.url.endswith("/moves") else None)
    assert wait_settled(page) == "your-turn"
    assert page.locator("#turn-banner").inner_text() == "Red's turn — your clue"
    # The spymaster's key: every card tinted, with a legend.
    assert page.locator(".card[class*=key-]").count() == 25
    assert page.locator(".card.key-assassin").count() == 1
    assert page.locator("#legend").is_visible()
    board_word = page.locator(".card:not(.revealed) .word").first.inner_text().strip().lower()
    page.fill("#clue-word", board_word)
    page.wait_for_selector("#clue-check.bad")
    assert page.locator("#give-clue").is_disabled()
    check = page.locator("#clue-check").inner_text()
    assert check.startswith("Not allowed (board-word): ")
    message = check.split(": ", 1)[1]
    assert page.locator("body").inner_text().count(message) == 1  # the rule, shown once
    assert page.locator("body").inner_text().count("board-word") == 1
    page.locator("#clue-word").press("Enter")  # a disabled button submits nothing: below,
    assert page.locator("#error").inner_text() == ""  # the one move posted is the legal clue
    shoot(page, "spymaster")
    # A clue the server calls legal on this board, given through the live check.
    clue = next(word for word in ("ocean", "galaxy", "thunder", "violin")
                if post(server, f"/api/games/{game}/check", {"word": word})["legal"])
    page.fill("#clue-word", clue)
    page.wait_for_selector("#clue-check.ok")
    assert page.locator("#give-clue").is_enabled()
    page.select_option("#clue-number", "2")
    page.click("#give-clue")
    page.locator("#history .turn-head", has_text=f"red spymaster: {clue}: 2").wait_for(
        timeout=60_000)
    assert sent == ["clue"]  # requests are seen in order: the Enter above posted nothing


def test_the_ai_guesser_s_touches_say_why_in_the_history(page: Any, server: str) -> None:
    # Issue 41: the person clues for the AI guesser; each of its touches in the history says
    # why (the clue it served, how sure it was), with the numbers on hover.
    game = start(page, server, "spymaster")
    clue = next(word for word in ("ocean", "galaxy", "thunder", "violin")
                if post(server, f"/api/games/{game}/check", {"word": word})["legal"])
    page.fill("#clue-word", clue)
    page.wait_for_selector("#clue-check.ok")
    page.select_option("#clue-number", "2")
    page.click("#give-clue")
    page.locator("#history .touch-why").first.wait_for(timeout=60_000)
    wait_settled(page)
    view = api(server, f"/api/games/{game}")
    touches = [entry for entry in view["log"] if entry.get("reason")]
    assert touches[0]["team"] == "red"
    assert touches[0]["reason"].startswith(f"for '{clue} 2', its closest card: ")
    shown = page.locator("#history .touch-why")
    assert sorted(shown.all_inner_texts()) == sorted(f"Why: {e['reason']}" for e in touches)
    first = page.locator("#history .touch-why", has_text=touches[0]["reason"]).first
    assert first.get_attribute("title") == touches[0]["reason_numbers"]
    shoot(page, "touch-reasons")


def test_a_pictures_game_survives_a_reload(page: Any, server: str) -> None:
    start(page, server, "guess", edition="pictures")
    assert page.locator(".card .emoji").count() == 20
    wait_settled(page)
    guess_once(page)
    url = page.url
    revealed = page.locator(".card.revealed").count()
    history = page.locator("#history li").all_inner_texts()
    page.reload()
    page.wait_for_selector(".card")
    wait_settled(page)
    assert page.url == url
    assert page.locator(".card.revealed").count() == revealed
    assert page.locator("#history li").all_inner_texts() == history
    # The key shows only at the end (the deal is secret: the first touch may end the game).
    over = page.get_attribute("body", "data-state") == "over"
    assert page.locator(".card[class*=key-]").count() == (20 if over else 0)
    shoot(page, "pictures")


def test_co_op(page: Any, server: str) -> None:
    page.goto(server)
    page.select_option("select[name=role]", "coop")
    assert page.locator("#level").is_disabled()
    page.click("#start")
    page.wait_for_url("**/game/*", timeout=60_000)
    assert wait_settled(page) == "your-turn"
    view = api(server, f"/api/games/{game_id(page)}")
    assert view["config"]["role"] == "coop" and view["level"] is None
    team = view["you"]["team"]
    assert page.locator("#turn-banner").inner_text() == f"{team.capitalize()}'s turn — your guess"
    assert page.locator(".card[class*=key-]").count() == 0
    guess_once(page)
    shoot(page, "coop")


def test_watching_ai_against_ai(page: Any, server: str) -> None:
    start(page, server, "watch", seed=5)
    assert page.locator(".card[class*=key-]").count() == 25  # a spectator sees the key
    assert "AI spymaster to play" in page.locator("#turn-banner").inner_text()
    # one move a step: four, and one more if no clue is live after them
    for step in range(5):
        moves = api(server, f"/api/games/{game_id(page)}")["moves"]
        page.click("#step")
        page.wait_for_selector("body[data-state=waiting], body[data-state=over]",
                               state="attached")
        assert api(server, f"/api/games/{game_id(page)}")["moves"] == moves + 1
        if step >= 3 and page.locator("#clue-banner .clue-word").count() == 1:
            break
    assert page.locator(".card.recent").count() <= 1  # the last move, if it touched a card
    assert page.locator("#clue-banner .clue-word").count() == 1 or \
        page.locator("body[data-state=over]").count() == 1
    shoot(page, "watch")
