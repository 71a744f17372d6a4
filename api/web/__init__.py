"""The web table: pages a person opens in a browser, served by the API's own Flask app.

- ``GET /``: the game list (public games, newest first, paged through ``GET /v1/games``).
- ``GET /watch/<game_id>``: the public table, live (the game's Server-Sent Events stream).
- ``GET /replay/<game_id>?v=N``: the table at version N (``GET /v1/games/<id>/replay``), with a
  slider, steps, play/pause and round starts; the URL holds the version.
- ``GET /play/<game_id>#token=…``: a seat's table and its legal actions as controls. The token
  comes in the URL fragment (never sent to the server), is kept in the tab's sessionStorage and
  goes to the API only in the Authorization header, so no access log records it.
- ``GET /web/seats/<game_id>``: the game's seats as anyone may see them (JSON), for the pages.

A table page is a shell: the same HTML for every id, known, unknown or private, so loading it
tells nothing about a game (a browser sends no token with a page load; the token is in the
fragment or in storage). The page's own calls carry the token and the API decides: a private
game answers a stranger exactly as an unknown one (404), and the page then says "not found".

The pages are one HTML template plus JS modules and one CSS file shipped as package data
(no CDN, no build step). Not API operations: a plain Flask blueprint, outside openapi.yaml.
Every page says what it may load and who may frame it (`PAGE_HEADERS`): only this server's
scripts, styles and API, and no frame anywhere, since /play acts with a seat's token (a page
framed by another site could be clicked through).
"""
from flask import Blueprint, render_template

from api.auth import service
from api.caching import CACHE_CONTROL

blp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/web/static")
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that read only this
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
# The routes that serve a shell (no game read): api.visibility leaves them alone.
SHELLS = ("web.watch", "web.replay", "web.play")


@blp.route("/")
def game_list():
    """The game list page (text/html)."""
    return render_template("page.html", page="list", title="Contract Rummy games",
                           game_id=None)


@blp.route("/watch/<game_id>")
def watch(game_id: str):
    """The live public table of `game_id` (text/html, a shell: any id)."""
    return _shell("watch", game_id)


@blp.route("/replay/<game_id>")
def replay(game_id: str):
    """The replay of `game_id` at ``?v=N`` (text/html, a shell: any id). The version is read by
    the page itself, so any link shows one moment."""
    return _shell("replay", game_id)


@blp.route("/play/<game_id>")
def play(game_id: str):
    """A seat's table of `game_id` (text/html, a shell: any id): the page reads the seat's
    token from the URL fragment or storage, or asks for it."""
    return _shell("play", game_id)


@blp.route("/web/seats/<game_id>")
def seats(game_id: str):
    """The seats of `game_id` as anyone may see them (``GameRecord.public_seats``: seat, kind,
    name, level; no token), a JSON list. A private game's only with a token of it
    (api.visibility); 404 problem+json for an unknown game (GameNotFound)."""
    record = service().records.get(game_id)
    return record.public_seats(service().load(game_id)[1]), 200, {
        "Cache-Control": CACHE_CONTROL, "Vary": "Authorization"}  # a private game's: per caller


@blp.after_request
def _page_headers(response):
    """PAGE_HEADERS on every HTML page of the blueprint (not on its JSON or assets)."""
    if response.mimetype == "text/html":
        response.headers.update(PAGE_HEADERS)
    return response


def _shell(page: str, game_id: str):
    return render_template("page.html", page=page, title=f"{page.capitalize()} game",
                           game_id=game_id)
