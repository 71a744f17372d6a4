"""The web table (api/web) in a real headless Chromium (Debian's `chromium`, driven by
Playwright for Python) against the e2e stack: gunicorn and a real `rummy worker`.

A four-bot game is watched live over Server-Sent Events until the page says "finished", its
table and log always at the same version, with everything the page received checked for
hidden cards and no reconnect once the game is over; the replay page at a few versions shows
what the API's replay shows; the game list links to the game; every page fits a phone.
Screenshots of each page at desktop and phone sizes go to `.screenshots/` (git-ignored).
The play page's tests are test_web_play.py; private games and the clock test_web_private.py.
"""
from __future__ import annotations

import pytest

from tests.e2e.browser_harness import (BOTS, CARD_LABEL, DESKTOP, GAME_TIMEOUT_MS, PHONE,
                                       Traffic, browser, fits, hidden_cards, new_page,  # noqa: F401
                                       screenshot, wait_for)

pytestmark = pytest.mark.slow

# Run in the page every 50 ms: the table's version and the log's last line must agree (the log
# shows no event after the table's version, and the last one the table shows is listed).
WATCH_CONSISTENCY = """() => {
  window.__mismatches = [];
  window.__samples = 0;
  setInterval(() => {
    const table = document.getElementById('table');
    const lines = [...document.querySelectorAll('.log li')].map(li => li.value);
    if (!table || !table.dataset.version || !lines.length) return;
    window.__samples += 1;
    if (Math.max(...lines) > Number(table.dataset.version))
      window.__mismatches.push([table.dataset.version, Math.max(...lines)]);
  }, 10);  // a four-bot game can end in a second: sample often enough to see it play
}"""


@pytest.fixture(scope="module")
def bot_game(client, worker):
    """A four-bot game, as POST /v1/games returned it; its worker plays it once started (the
    last seat is open until then, filled by a bot: docs/lobby.md), so that the watch page can
    be open before the first move."""
    return client.create(BOTS[:3] + [{"kind": "open", "name": "Di", "level": "basic"}], seed=1111)


def start(client, game: dict) -> None:
    """Start `game` unless it is started already (the tests may run alone or in any order)."""
    reply = client.post(f"/v1/games/{game['id']}/start", game["admin_token"])
    assert reply.status_code in (200, 201) or client.table(game["id"])["status"] != "waiting", \
        reply.text


def test_the_leak_rule_sees_hidden_cards():
    assert hidden_cards({"hands": [["9H"]]}) == [".hands[0]"]
    position = {"position": {"hands": [None, ["9H"]], "stock": None}}
    assert hidden_cards(position, seat=1) == [] and hidden_cards(position) == [
        ".position.hands[1]"]
    drawn = {"type": "CardDrawn", "data": {"seat": 1, "source": "stock", "card": "9H"}}
    assert hidden_cards({"events": [drawn]}) == [".events[0]: a stock card drawn"]
    assert hidden_cards({"data": {"penalty": None, "stock": None, "hand": None}}) == []
    bought = {"type": "CardBought", "data": {"seat": 2, "card": "9H", "penalty": "3C"}}
    assert hidden_cards(bought, seat=2) == [] and hidden_cards(bought, seat=1) == [".data.penalty"]
    assert hidden_cards({"seat": 1, "hand": ["9H"]}, seat=1) == []
    assert hidden_cards({"seat": 1, "hand": ["9H"]}) == [".hand"]


def test_the_watch_page_follows_a_bot_game_live_over_sse_to_its_end(browser, api_url, client,
                                                                      bot_game):
    traffic = Traffic()
    context, page = new_page(browser, DESKTOP, traffic)
    page.goto(f"{api_url}/watch/{bot_game['id']}")
    page.evaluate(WATCH_CONSISTENCY)
    status = page.get_by_test_id("game-status")
    status.get_by_text("waiting").wait_for()
    start(client, bot_game)
    wait_for(page, "document.querySelectorAll('.log li').length > 20")
    assert page.get_by_test_id("seat-3").get_by_text("bot (basic)").is_visible()  # seats reloaded
    # Live, not the "waiting" of the page's first load; a game of bots may end within the time
    # the browser takes to show 20 log lines, so "finished" is live too.
    assert any(word in status.inner_text() for word in ("playing", "scoring", "finished"))
    assert page.get_by_test_id("seat-0").get_by_text("Ann").is_visible()
    screenshot(page, "watch-desktop")
    page.get_by_role("status").filter(has_text="The game is finished.").wait_for(
        timeout=GAME_TIMEOUT_MS)
    # Table and log come from the same events: "finished" and the log's last line together.
    assert "finished" in status.inner_text()
    assert page.get_by_text("The game is over").is_visible()
    assert page.evaluate("window.__samples") > 20
    assert page.evaluate("window.__mismatches") == []
    final = client.table(bot_game["id"])
    assert page.locator("#table").get_attribute("data-version") == str(final["version"])

    streams = [url for url in traffic.requested if "/stream" in url]
    page.wait_for_timeout(4000)  # the stream ended with GameEnded: the page opens no other
    assert [url for url in traffic.requested if "/stream" in url] == streams
    assert len(streams) == 1 and "ticket=" not in streams[0]  # the public stream
    assert not any("wait=" in url for url in traffic.requested)  # no long poll left
    streamed = traffic.events_streamed()
    assert [e["version"] for e in streamed] == list(range(1, final["version"] + 1))
    assert streamed[-1]["type"] == "GameEnded"
    for url, status_code, _ in traffic.json_bodies():
        assert status_code == 200, url
    assert not traffic.leaks(), traffic.leaks()[:5]
    context.close()


def test_the_replay_page_shows_the_apis_table_at_each_version(browser, api_url, client,
                                                                bot_game):
    game_id = bot_game["id"]
    start(client, bot_game)
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
    page.locator("#version").focus()  # the slider takes the keyboard: arrows move it
    page.keyboard.press("ArrowLeft")
    page.get_by_text(f"Version {last - 2} of {last}").wait_for()
    page.keyboard.press("Shift+Tab")  # and the buttons before it: Tab reaches them
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Next round start"
    page.keyboard.press("Enter")
    page.get_by_text(f"Version {last} of {last}").wait_for()
    context.close()


def test_the_game_list_links_to_the_game_and_every_page_fits_a_phone(browser, api_url, client,
                                                                      bot_game):
    game_id = bot_game["id"]
    start(client, bot_game)
    client.follow_to_end(game_id, bot_game["admin_token"], GAME_TIMEOUT_MS / 1000)
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
        assert fits(page), name  # nothing runs off a phone's screen
        screenshot(page, f"{name}-phone")
    context.close()
