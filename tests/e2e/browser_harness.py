"""Helpers of the browser tests (tests/e2e/test_web_*.py): Debian's headless Chromium driven by
Playwright for Python, screenshots, and the API's leak rules applied to everything a page
received (JSON responses and Server-Sent Events, the latter read through the DevTools
protocol, since a stream's body is never complete while it is open).

`make test` installs chromium when it is missing and the user is root; elsewhere the browser
tests skip with a message, except on CI (`CI` set), where a missing browser fails them.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".screenshots"
BOTS = [{"kind": "bot", "name": name, "level": level}
        for name, level in (("Ann", "strong"), ("Ben", "basic"), ("Cy", "random"), ("Di", "basic"))]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
GAME_TIMEOUT_MS = 150_000
# What a seat must never receive of another (domain.views.redact): a key holding a hand, the
# stock order, the deck or the seed, or a card drawn from the stock.
HIDDEN_KEYS = ("hand", "hands", "stock", "deck", "seed", "penalty")

# What a screen reader says for a card: "nine of hearts", "joker", "joker as ten of spades".
NATURAL = (r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
           r"(clubs|diamonds|hearts|spades)")
CARD_LABEL = re.compile(rf"{NATURAL}|joker|joker as {NATURAL}")


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


@dataclass
class Traffic:
    """What a page sent and received: request URLs, responses, and each Server-Sent Event's
    data (DevTools' Network.eventSourceMessageReceived)."""

    requested: list = field(default_factory=list)
    responses: list = field(default_factory=list)
    sse: list = field(default_factory=list)

    bodies: dict = field(default_factory=dict)  # response -> its JSON, read before a navigation

    def keep_bodies(self) -> None:
        """Read the JSON bodies received so far (a page navigated away from loses them)."""
        for response in self.responses:
            if response not in self.bodies and "json" in (response.headers.get("content-type") or ""):
                self.bodies[response] = json.loads(response.body())

    def json_bodies(self):
        """(url, status, body) of every JSON response of the API or the pages' seats."""
        self.keep_bodies()
        for response in self.responses:
            if response in self.bodies:
                yield response.url, response.status, self.bodies[response]

    def events_streamed(self) -> list[dict]:
        return [json.loads(message["data"]) for message in self.sse]

    def leaks(self, seat: int | None = None) -> list[str]:
        """Where anything the page received holds a card hidden from `seat` (None: public)."""
        found = []
        for url, _, body in self.json_bodies():
            found += [f"{url}: {path}" for path in hidden_cards(body, seat)]
        for event in self.events_streamed():
            found += [f"SSE {event['version']}: {path}" for path in hidden_cards(event, seat)]
        return found


def new_page(browser, viewport, traffic: Traffic | None = None):
    """A fresh context (its own storage) and page; `traffic`, when given, records it."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    if traffic is not None:
        page.on("request", lambda request: traffic.requested.append(request.url))
        page.on("response", lambda response: traffic.responses.append(response))
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.eventSourceMessageReceived", lambda message: traffic.sse.append(message))
    return context, page


def wait_for(page, expression: str, timeout_ms: int = 30_000, polling_ms: int = 50) -> None:
    """Wait until the JS `expression` is truthy in `page`, polled from here with page.evaluate:
    Playwright's wait_for_function polls in the page through eval, which the pages' policy
    (api.web.PAGE_HEADERS: no 'unsafe-eval') forbids. Raises AssertionError on timeout."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out after {timeout_ms} ms: {expression}"
        time.sleep(polling_ms / 1000)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def fits(page, viewport=PHONE) -> bool:
    """Whether nothing runs off the side of the screen."""
    return page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


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
            if key == "hands" and isinstance(item, list):  # a seat's own hand in a list of them
                found += [f"{path}.hands[{n}]" for n, hand in enumerate(item)
                          if hand not in (None, []) and n != seat]
            elif key in HIDDEN_KEYS and item not in (None, []) \
                    and not (own and key in ("hand", "penalty")):
                found.append(f"{path}.{key}")
            found += hidden_cards(item, seat, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += hidden_cards(item, seat, f"{path}[{n}]")
    return found
