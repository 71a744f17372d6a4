"""The pages' event streams across reconnects, in a real headless Chromium against the e2e stack
with streams cut after 2 s (RUMMY_SSE_MAX_S): the watch page follows a bots' game through many
streams (the browser resumes each with Last-Event-ID), every event exactly once, and stops at
the end; the play page whose stream ticket is refused (as an expired one is, 60 s after it was
issued, when a stream is cut after 300 s in production) asks for a new ticket and goes on."""
from __future__ import annotations

import json
import re

import pytest

from tests.e2e.browser_harness import (BOTS, DESKTOP, GAME_TIMEOUT_MS, Traffic, browser,  # noqa: F401
                                       new_page)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def e2e_env(e2e_env):
    """tests/e2e's environment, with every event stream ended by the server after 2 s."""
    return {**e2e_env, "RUMMY_SSE_MAX_S": "2"}


def test_the_watch_page_resumes_cut_streams_and_gets_every_event_once(browser, api_url, client,
                                                                       worker):
    # A silent human whose first three turns time out (1 s each) makes the game last well
    # over one 2 s stream; then a bot plays the seat.
    game = client.create([{"kind": "human", "name": "Hu"}] + BOTS[1:], seed=6060,
                         clock={"turn_s": 1, "offer_s": 1, "timeouts_before_takeover": 3})
    traffic = Traffic()
    context, page = new_page(browser, DESKTOP, traffic)
    page.goto(f"{api_url}/watch/{game['id']}")
    page.get_by_role("status").filter(has_text="The game is finished.").wait_for(
        timeout=GAME_TIMEOUT_MS)
    last = client.table(game["id"])["version"]
    streams = [url for url in traffic.requested if "/stream" in url]
    assert len(streams) >= 2, streams  # cut every 2 s, resumed by the browser (Last-Event-ID)
    assert [e["version"] for e in traffic.events_streamed()] == list(range(1, last + 1))
    assert page.locator("#table").get_attribute("data-version") == str(last)
    page.wait_for_timeout(4000)  # over: no stream is opened again
    assert [url for url in traffic.requested if "/stream" in url] == streams
    assert not traffic.leaks()
    context.close()


def test_the_play_page_gets_a_new_ticket_when_its_ticket_is_refused(browser, api_url, client,
                                                                     worker):
    game = client.create([{"kind": "human", "name": "Hu"}] + BOTS[1:], seed=7070,
                         clock={"turn_s": None, "offer_s": 1})
    token = game["seats"][0]["token"]
    traffic = Traffic()
    context, page = new_page(browser, DESKTOP, traffic)
    issued = []

    def first_ticket_refused(route):
        issued.append(route.request.url)
        if len(issued) == 1:  # a ticket the server does not know: its stream answers 401
            route.fulfill(status=201, content_type="application/json",
                          body=json.dumps({"ticket": "expired", "expires_in": 60,
                                           "expires_at": "1970-01-01T00:00:00.000Z"}))
        else:
            route.continue_()

    page.route("**/stream-tickets", first_ticket_refused)
    page.goto(f"{api_url}/play/{game['id']}#token={token}")
    page.get_by_role("heading", name=re.compile("^You are Hu")).wait_for()
    draw = page.get_by_role("button", name="Draw from the stock")
    answer = page.get_by_role("button", name=re.compile("^Pass on "))
    draw.or_(answer).first.wait_for(timeout=60_000)
    page.get_by_text(re.compile("^Round 1: ")).wait_for()  # the deal came over the new stream
    streams = [url for url in traffic.requested if "/stream?" in url]
    assert len(issued) >= 2 and "ticket=expired" in streams[0]
    assert any("ticket=expired" not in url for url in streams[1:])
    assert not any(token in url for url in traffic.requested)
    context.close()
