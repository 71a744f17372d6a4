"""The web table (api/web) in a real headless Chromium (Debian's `chromium`, driven by
Playwright for Python) against the e2e stack: gunicorn and a real `rummy worker`.

A four-bot game is watched live until the page says "finished", with every JSON response the
page received checked for hidden cards; the replay page at a few versions shows what the API's
replay shows; the game list links to the game. Screenshots of each page at desktop and phone
sizes go to `.screenshots/` (git-ignored) for a person to look at.

`make test` installs chromium when it is missing and the user is root; elsewhere these tests
skip with a message, except on CI (`CI` set), where a missing browser fails them.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".screenshots"
BOTS = [{"kind": "bot", "name": name, "level": level}
        for name, level in (("Ann", "strong"), ("Ben", "basic"), ("Cy", "random"), ("Di", "basic"))]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
GAME_TIMEOUT_MS = 150_000
# What the public must never receive (domain.views.redact): a key holding a hand, the stock
# order, the deck or the seed, or a card drawn from the stock.
HIDDEN_KEYS = ("hand", "hands", "stock", "deck", "seed", "penalty")

# What a screen reader says for a card: "nine of hearts", "joker", "joker as ten of spades".
NATURAL = (r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
           r"(clubs|diamonds|hearts|spades)")
CARD_LABEL = re.compile(rf"{NATURAL}|joker|joker as {NATURAL}")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (the system's), or a skip with the reason."""
    if not CHROMIUM.exists():
        message = (f"no {CHROMIUM}: `make test` as root installs Debian's chromium "
                   "(apt-get install -y chromium); the browser tests need it")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        # --no-sandbox: Chromium refuses to start its sandbox as root (CI containers).
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def e2e_env(e2e_env):
    """tests/e2e's environment, with buy offers waiting 30 s for a silent human: the play
    page's test answers one through the browser, slower than the e2e default of 1 s."""
    return {**e2e_env, "RUMMY_OFFER_DEADLINE_S": "30"}


@pytest.fixture(scope="module")
def bot_game(client, worker):
    """A four-bot game, as POST /v1/games returned it; its worker plays it."""
    return client.create(BOTS, seed=1111)


def new_page(browser, viewport):
    context = browser.new_context(viewport=viewport)
    return context, context.new_page()


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def hidden_cards(value, seat: int | None = None, path: str = "") -> list[str]:
    """Where a JSON value holds a card hidden from `seat` (None: the public), as readable
    paths: HIDDEN_KEYS with a value (a seat may see its own hand and penalty card), or a card
    another seat drew from the stock."""
    found = []
    if isinstance(value, dict):
        if value.get("type") == "CardDrawn" and value["data"]["source"] == "stock" \
                and value["data"]["card"] is not None and value["data"]["seat"] != seat:
            found.append(f"{path}: a stock card drawn")
        own = seat is not None and value.get("seat", seat) == seat
        for key, item in value.items():
            if key in HIDDEN_KEYS and item not in (None, []) \
                    and not (own and key in ("hand", "penalty")):
                found.append(f"{path}.{key}")
            found += hidden_cards(item, seat, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += hidden_cards(item, seat, f"{path}[{n}]")
    return found


def test_the_leak_rule_sees_hidden_cards():
    assert hidden_cards({"hands": [["9H"]]}) == [".hands"]
    drawn = {"type": "CardDrawn", "data": {"seat": 1, "source": "stock", "card": "9H"}}
    assert hidden_cards({"events": [drawn]}) == [".events[0]: a stock card drawn"]
    assert hidden_cards({"data": {"penalty": None, "stock": None, "hand": None}}) == []
    bought = {"type": "CardBought", "data": {"seat": 2, "card": "9H", "penalty": "3C"}}
    assert hidden_cards(bought, seat=2) == [] and hidden_cards(bought, seat=1) == [".data.penalty"]
    assert hidden_cards({"seat": 1, "hand": ["9H"]}, seat=1) == []
    assert hidden_cards({"seat": 1, "hand": ["9H"]}) == [".hand"]


def test_the_watch_page_follows_a_bot_game_to_its_end_and_receives_no_hidden_card(
        browser, api_url, bot_game):
    context, page = new_page(browser, DESKTOP)
    responses = []
    page.on("response", lambda response: responses.append(response))
    page.goto(f"{api_url}/watch/{bot_game['id']}")
    status = page.get_by_test_id("game-status")
    page.wait_for_function("document.querySelectorAll('.log li').length > 20")
    assert "playing" in status.inner_text() or "scoring" in status.inner_text()
    assert page.get_by_test_id("seat-0").get_by_text("Ann").is_visible()
    screenshot(page, "watch-desktop")
    page.wait_for_function(
        "document.querySelector('[data-testid=game-status]').innerText.includes('finished')",
        timeout=GAME_TIMEOUT_MS, polling=500)
    # The table is fetched after each batch of events, so it can show "finished" one long poll
    # before the log gets GameEnded: wait for the log's line, then it must be shown.
    over = page.get_by_text("The game is over")
    over.wait_for(timeout=30_000)
    assert over.is_visible()

    api = [r for r in responses if "/v1/" in r.url]
    assert any("/events?" in r.url for r in api)
    for response in api:
        assert response.status == 200, response.url
        found = hidden_cards(json.loads(response.body()))
        assert not found, (response.url, found[:5])
    context.close()


def test_the_replay_page_shows_the_apis_table_at_each_version(browser, api_url, client,
                                                                bot_game):
    game_id = bot_game["id"]
    client.follow_to_end(game_id, bot_game["admin_token"], GAME_TIMEOUT_MS / 1000)
    last = client.table(game_id)["version"]
    context, page = new_page(browser, DESKTOP)
    for version in (1, 40, last // 2, last):
        page.goto(f"{api_url}/replay/{game_id}?v={version}")
        page.get_by_text(f"Version {version} of {last}").wait_for()
        expected = client.get(f"/v1/games/{game_id}/replay?version={version}").json()
        shown = page.evaluate("""() => [...document.querySelectorAll('.seat')].map(s => ({
            size: Number(s.dataset.handSize), melds: Number(s.dataset.melds),
            cards: s.querySelectorAll('.hand .card').length}))""")
        assert [s["size"] for s in shown] == expected["hand_sizes"]
        assert [s["cards"] for s in shown] == expected["hand_sizes"]  # finished: every hand
        assert sum(s["melds"] for s in shown) == len(expected["melds"])
        top = page.get_by_test_id("discard-top").get_attribute("data-card")
        assert top == (expected["discard_top"] or "")
        labels = page.eval_on_selector_all(".card:not(.back):not(.empty)",
                                           "cards => cards.map(c => c.getAttribute('aria-label'))")
        assert all(CARD_LABEL.fullmatch(label) for label in labels), labels
        assert labels or version == 1  # version 1: nothing dealt yet
        if version == last // 2:
            screenshot(page, "replay-desktop")
    page.get_by_role("button", name="Step back").click()
    page.get_by_text(f"Version {last - 1} of {last}").wait_for()
    assert page.url.endswith(f"?v={last - 1}")
    page.keyboard.press("Tab")  # the controls take the keyboard: the slider moves with arrows
    page.locator("#version").focus()
    page.keyboard.press("ArrowLeft")
    page.get_by_text(f"Version {last - 2} of {last}").wait_for()
    context.close()


def test_the_game_list_links_to_the_game_and_every_page_fits_a_phone(browser, api_url,
                                                                      bot_game):
    game_id = bot_game["id"]
    context, page = new_page(browser, DESKTOP)
    page.goto(api_url + "/")
    row = page.locator(f"li[data-game='{game_id}']")
    row.get_by_role("link", name="Replay").wait_for()
    assert row.get_by_role("link", name="Watch").get_attribute("href") == f"/watch/{game_id}"
    screenshot(page, "list-desktop")
    context.close()

    context, page = new_page(browser, PHONE)
    for name, path, ready in (("list", "/", "shown."),
                              ("watch", f"/watch/{game_id}", "finished"),
                              ("replay", f"/replay/{game_id}?v=60", "Version 60 of")):
        page.goto(api_url + path)
        page.get_by_role("status").filter(has_text=ready).wait_for()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (name, width)  # nothing runs off a phone's screen
        screenshot(page, f"{name}-phone")
    context.close()


def test_a_human_draws_discards_answers_a_buy_offer_and_sees_a_refusal_on_the_play_page(
        browser, api_url, client, worker):
    game = client.create([{"kind": "human", "name": "Hu"}] + BOTS[1:], seed=2222)
    token = game["seats"][0]["token"]
    context, page = new_page(browser, DESKTOP)
    requested, responses = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("response", lambda response: responses.append(response))
    page.goto(f"{api_url}/play/{game['id']}#token={token}")
    page.get_by_role("heading", name=re.compile("^You are Hu")).wait_for()
    assert token not in page.url  # the fragment is dropped once the token is stored
    assert page.evaluate(f"sessionStorage.getItem('rummy-token:{game['id']}')") == token
    draw = page.get_by_role("button", name="Draw from the stock")
    answer = page.get_by_role("button", name=re.compile("^Pass on "))
    hand = page.get_by_role("group", name=re.compile("^Your hand")).get_by_role("button")
    refusal = page.get_by_test_id("refusal")
    passed = played = 0
    while not (passed and played):
        draw.or_(answer).first.wait_for(timeout=90_000)  # our turn, or an offer to answer
        if answer.is_visible():
            answer.click()
            passed += 1
            page.wait_for_timeout(500)
            continue
        if played:
            break  # our next turn came with no offer to answer: the check below fails
        hand.first.click()  # a discard before drawing is refused with its rule
        refusal.get_by_role("link").wait_for()
        assert refusal.get_by_role("link").get_attribute("href").startswith("/docs/rules#r")
        screenshot(page, "play-desktop")
        draw.click()  # the stock: the discard top is offered to the bots first (R6.1)
        page.get_by_test_id("game-status").get_by_text("melding or discarding").wait_for(
            timeout=60_000)
        expect_size = len(hand.all())
        hand.first.click()
        page.wait_for_function(f"document.querySelectorAll('.mine button').length < {expect_size}")
        played += 1
    assert passed and played
    mine = [e for e in client.events(game["id"], token) if e["data"].get("seat") == 0]
    assert {"CardDrawn", "CardDiscarded", "BuyPassed"} <= {e["type"] for e in mine}
    assert not any(token in url for url in requested)  # the token travels in a header only
    for response in responses:
        if "/v1/" in response.url and response.ok:
            found = hidden_cards(json.loads(response.body()), seat=0)
            assert not found, (response.url, found[:5])
    context.close()

    context, page = new_page(browser, PHONE)
    page.goto(f"{api_url}/play/{game['id']}#token={token}")
    page.get_by_role("heading", name=re.compile("^You are Hu")).wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "play-phone")
    context.close()
