"""A page of another origin, in headless Chromium (Debian's, driven by Playwright), uses the API
(issue 9): CORS lets an allowed origin (RUMMY_CORS_ORIGINS) send Authorization and
Idempotency-Key and read ETag and Server-Time; a stream ticket lets its EventSource, which
cannot send Authorization, read the seat's own redacted stream. A page of an origin not on the
list gets nothing. A ticket used on the feed and the stream never reaches gunicorn's access log. Skips like tests/e2e/test_web_browser.py when chromium is missing (never
under CI)."""
from __future__ import annotations

import functools
import re
import http.server
import threading

import pytest

from bench.stack import free_port
from tests.e2e.test_web_browser import browser  # noqa: F401  (the module's Chromium fixture)

ALLOWED_PORT, OTHER_PORT = free_port(), free_port()
HUMAN = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "basic"}] * 3
PAGE = "<!DOCTYPE html><title>another origin</title><p>a client of the Contract Rummy API</p>"

pytestmark = pytest.mark.slow

# Run in the page: a ticket by POST (preflighted: Authorization), the seat's view (ETag and
# Server-Time exposed), an action with an Idempotency-Key, then the stream by EventSource.
SCRIPT = """async ({api, id, token}) => {
  const auth = {Authorization: `Bearer ${token}`};
  const issued = await fetch(`${api}/v1/games/${id}/stream-tickets`, {method: "POST", headers: auth});
  const {ticket} = await issued.json();
  const view = await fetch(`${api}/v1/games/${id}/view`, {headers: auth});
  const body = await view.json();
  const etag = view.headers.get("ETag"), serverTime = view.headers.get("Server-Time");
  const pass = await fetch(`${api}/v1/games/${id}/actions`, {method: "POST",
    headers: {...auth, "Content-Type": "application/json", "Idempotency-Key": "browser-1"},
    body: JSON.stringify({type: "discard", card: "nope"})});
  const dealt = await new Promise((resolve, reject) => {
    const source = new EventSource(`${api}/v1/games/${id}/stream?ticket=${ticket}`);
    source.addEventListener("RoundDealt", (e) => { source.close(); resolve(JSON.parse(e.data)); });
    source.onerror = () => { source.close(); reject(new Error("EventSource failed")); };
  });
  return {issued: issued.status, seat: body.seat, etag, serverTime, action: pass.status, dealt};
}"""
BLOCKED = """async ({api, id}) => {
  try { await fetch(`${api}/v1/games/${id}`); return "read"; }
  catch (error) { return "blocked"; }
}"""


@pytest.fixture(scope="module")
def e2e_env(e2e_env):
    """tests/e2e's environment with one allowed browser origin."""
    return {**e2e_env, "RUMMY_CORS_ORIGINS": f"http://127.0.0.1:{ALLOWED_PORT}"}


@pytest.fixture(scope="module")
def origins(tmp_path_factory):
    """Two static sites (the allowed origin and another), each serving PAGE at /."""
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text(PAGE)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
               for port in (ALLOWED_PORT, OTHER_PORT)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield [f"http://127.0.0.1:{port}/" for port in (ALLOWED_PORT, OTHER_PORT)]
    for server in servers:
        server.shutdown()


def test_an_allowed_origins_page_calls_the_api_and_streams_with_a_ticket(
        browser, origins, api_url, client, worker):  # noqa: F811
    game = client.create(HUMAN, seed=5)
    page = browser.new_page()
    try:
        page.goto(origins[0])
        got = page.evaluate(SCRIPT, {"api": api_url, "id": game["id"],
                                     "token": game["seats"][0]["token"]})
        assert got["issued"] == 201 and got["seat"] == 0
        assert re.fullmatch(r'"\d+(:gzip)?"', got["etag"]) and got["serverTime"].endswith("Z")
        assert got["action"] == 422  # answered (not blocked): "nope" is no card
        assert len(got["dealt"]["data"]["hand"]) == 10  # the ticket stands for seat 0
        page.goto(origins[1])
        assert page.evaluate(BLOCKED, {"api": api_url, "id": game["id"]}) == "blocked"
    finally:
        page.close()


def test_a_stream_ticket_never_reaches_the_access_log(api_url, api_log, client):
    game = client.create(HUMAN, seed=6)
    seat = game["seats"][0]["token"]
    ticket = client.post(f"/v1/games/{game['id']}/stream-tickets", seat).json()["ticket"]
    feed = client.get(f"/v1/games/{game['id']}/events?after=0&ticket={ticket}")
    assert feed.status_code == 200 and feed.json()["events"][0]["type"] == "GameCreated"
    with client.http.get(f"{api_url}/v1/games/{game['id']}/stream?ticket={ticket}",
                         stream=True, timeout=10) as stream:
        assert stream.status_code == 200 and next(stream.iter_lines())
    logged = api_log.read_text()
    assert f"GET /v1/games/{game['id']}/events HTTP/1.1\" 200" in logged  # logged, path only
    assert ticket not in logged and ticket.split(".")[-1] not in logged and "ticket=" not in logged
