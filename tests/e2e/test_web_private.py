"""Private games and the turn clock in the web table, in a real headless Chromium against the
e2e stack (gunicorn and a real `rummy worker`).

A private game's page is served to anyone (the same shell as an unknown game's): its player,
whose token is in the URL fragment or the tab's storage, plays it and watches it; a stranger
sees "not found" and nothing else, and every answer the stranger's page got is the unknown
game's answer. A game with a short turn clock shows the seconds left, counted by the server's
clock (`awaiting.deadline` against the `Server-Time` header, even when the browser's clock is
an hour off), down to the turn's timeout.
"""
from __future__ import annotations

import re
import time
from datetime import datetime

import pytest

from tests.e2e.browser_harness import (BOTS, DESKTOP, PHONE, Traffic, browser, fits,  # noqa: F401
                                       new_page, screenshot, wait_for)

pytestmark = pytest.mark.slow
UNKNOWN = "f" * 16
TURN_S = 8


@pytest.fixture(scope="module")
def private_game(client, worker):
    """A private game: a human "Hu" (seat 0) and three bots."""
    return client.create([{"kind": "human", "name": "Hu"}] + BOTS[1:], seed=3333,
                         visibility="private", clock={"turn_s": None})


def test_a_player_of_a_private_game_plays_and_watches_it_in_the_browser(browser, api_url,
                                                                        client, private_game):
    game_id, token = private_game["id"], private_game["seats"][0]["token"]
    traffic = Traffic()
    context, page = new_page(browser, DESKTOP, traffic)
    page.goto(f"{api_url}/play/{game_id}#token={token}")
    page.get_by_role("heading", name="You are Hu").wait_for()
    draw = page.get_by_role("button", name="Draw from the stock")
    answer = page.get_by_role("button", name=re.compile("^Pass on "))
    while True:
        draw.or_(answer).first.wait_for(timeout=60_000)
        if not answer.is_visible():
            break
        answer.click()  # an offer came first: pass, then wait for our turn
        page.wait_for_timeout(300)
    draw.click()
    page.get_by_test_id("game-status").get_by_text("melding or discarding").wait_for(
        timeout=60_000)
    page.get_by_role("group", name=re.compile("^Your hand")).get_by_role("button").first.click()
    page.get_by_role("button", name=re.compile("^Discard ")).click()
    page.get_by_text(re.compile(r"^Hu discarded ")).first.wait_for()

    traffic.keep_bodies()
    page.goto(f"{api_url}/watch/{game_id}")  # the token is in the tab's storage
    page.get_by_test_id("seat-0").get_by_role("heading", name="Hu").wait_for()
    page.get_by_text(re.compile(r"^Hu discarded ")).first.wait_for()
    assert page.get_by_role("status").filter(has_text="Live").is_visible()
    assert not any(token in url for url in traffic.requested)
    assert any("/stream?" in url and "ticket=" in url for url in traffic.requested)
    assert not traffic.leaks(seat=0), traffic.leaks(seat=0)[:5]
    context.close()


def test_a_stranger_sees_not_found_for_a_private_game_as_for_an_unknown_one(
        browser, api_url, client, private_game):
    game_id = private_game["id"]
    other_game = client.create(BOTS, seed=4)  # a token of another game opens nothing here
    pages = {}
    for name, gid, fragment in (("private", game_id, ""), ("unknown", UNKNOWN, ""),
                                ("private-other-token", game_id,
                                 f"#token={other_game['admin_token']}")):
        for kind in ("watch", "replay", "play"):
            traffic = Traffic()
            context, page = new_page(browser, PHONE, traffic)
            page.goto(f"{api_url}/{kind}/{gid}{fragment}")
            if kind == "play" and not fragment:  # no token: the page asks for one, reads nothing
                page.get_by_label("Your seat's token").wait_for()
                assert not [u for u in traffic.requested if "/v1/" in u or "/web/seats" in u]
                context.close()
                continue
            page.get_by_role("status").filter(has_text="Game not found").wait_for()
            text = page.inner_text("main")
            assert "Hu" not in text and "Ann" not in text and not page.locator(".card").count()
            assert fits(page)
            answers = [(url.replace(gid, "<id>"), status, body) for url, status, body
                       in traffic.json_bodies()]
            assert answers and all(status == 404 for _, status, _ in answers), answers
            pages[(name, kind)] = [(url, {k: v for k, v in body.items() if k != "instance"})
                                   for url, _, body in answers]
            if name == "private" and kind == "watch":
                screenshot(page, "watch-not-found-phone")
            context.close()
    for kind in ("watch", "replay"):
        assert pages[("private", kind)] == [
            (url, {k: (v.replace(UNKNOWN, game_id) if isinstance(v, str) else v)
                   for k, v in body.items()}) for url, body in pages[("unknown", kind)]]


# The browser's clock is an hour fast: a countdown by Date.now() alone would show 0.
SKEWED_CLOCK = "(() => { const real = Date.now; Date.now = () => real() + 3600_000; })();"


def seconds_left(client, game_id) -> float:
    """What the API says is left: awaiting.deadline minus Server-Time."""
    reply = client.get(f"/v1/games/{game_id}")
    deadline = reply.json()["awaiting"]["deadline"]
    parse = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))  # noqa: E731
    return (parse(deadline) - parse(reply.headers["Server-Time"])).total_seconds()


def test_the_countdown_follows_the_servers_clock_down_to_the_turns_timeout(browser, api_url,
                                                                          client, worker):
    game = client.create([{"kind": "human", "name": "Hu"}] + BOTS[1:], seed=5555,
                         clock={"turn_s": TURN_S, "offer_s": 1, "timeouts_before_takeover": 3})
    context, page = new_page(browser, DESKTOP)
    page.add_init_script(SKEWED_CLOCK)
    page.goto(f"{api_url}/watch/{game['id']}")
    countdown = page.get_by_test_id("countdown")
    wait_for(
        page, "(() => { const c = document.querySelector('[data-testid=countdown]');"
        " const s = document.querySelector('[data-testid=game-status]');"
        f" return c && !c.hidden && s.innerText.includes(\"Hu's turn\")"
        f" && Number(c.dataset.seconds) >= {TURN_S - 4}; }})()",
        timeout_ms=60_000, polling_ms=100)
    # The server's seconds left read on both sides of the page's figure: a loaded machine may
    # take a second between two reads, and the page's figure is up to a second old.
    before = seconds_left(client, game["id"])
    first = int(countdown.get_attribute("data-seconds"))
    after = seconds_left(client, game["id"])
    assert after - 1.5 <= first <= before + 1.5, (before, first, after)  # the server's clock
    assert countdown.inner_text() == f"{first} s left"
    assert page.evaluate("Date.now()") - time.time() * 1000 > 3_500_000  # the skew is real
    screenshot(page, "watch-countdown-desktop")
    page.wait_for_timeout(2_100)
    later = int(countdown.get_attribute("data-seconds"))
    assert first - 3 <= later <= first - 1, (first, later)  # it counts down
    page.get_by_text("Hu's time ran out").first.wait_for(timeout=(TURN_S + 10) * 1000)
    timed_out = [e for e in client.events(game["id"], None) if e["type"] == "TurnTimedOut"]
    assert timed_out and timed_out[0]["data"]["seat"] == 0
    context.close()
