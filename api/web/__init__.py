"""The web table: pages a person opens in a browser, served by the API's own Flask app.

- ``GET /``: the game list (public games, newest first, paged through ``GET /v1/games``).
- ``GET /watch/<game_id>``: the public table, live (long polls of the public event feed).
- ``GET /replay/<game_id>?v=N``: the table at version N (``GET /v1/games/<id>/replay``), with a
  slider, steps, play/pause and round starts; the URL holds the version.
- ``GET /play/<game_id>#token=…``: a seat's table and its legal actions as controls. The token
  comes in the URL fragment (never sent to the server), is kept in the tab's sessionStorage and
  goes to the API only in the Authorization header, so no access log records it.

The pages are one HTML template plus one JS module and one CSS file shipped as package data
(no CDN, no build step). The browser reads only the API: the list, watch and replay pages send
no token, so they show what the public may see (no hand and no stock order while a game is
being played; a finished game's replay shows every hand, as the API returns it); the play page
sees what its seat may see. The only thing the server puts
into a page is the seats (name, human or bot, bot level): ``GameRecord.public_seats``, public
by design. Not API operations: a plain Flask blueprint, outside openapi.yaml.
"""
from flask import Blueprint, abort, render_template

from api.auth import service
from service.errors import GameNotFound

blp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/web/static")


@blp.route("/")
def game_list():
    """The game list page (text/html)."""
    return render_template("page.html", page="list", title="Contract Rummy games",
                           game_id=None, players=[])


@blp.route("/watch/<game_id>")
def watch(game_id: str):
    """The live public table of `game_id` (text/html); 404 for an unknown game."""
    return _table_page("watch", game_id)


@blp.route("/replay/<game_id>")
def replay(game_id: str):
    """The replay of `game_id` at ``?v=N`` (text/html, the last version without it); 404 for
    an unknown game. The version is read by the page itself, so any link shows one moment."""
    return _table_page("replay", game_id)


@blp.route("/play/<game_id>")
def play(game_id: str):
    """A seat's table of `game_id` (text/html): the page reads the seat's token from the URL
    fragment or asks for it; 404 for an unknown game."""
    return _table_page("play", game_id)


def _table_page(page: str, game_id: str):
    try:
        players = service().records.get(game_id).public_seats(service().load(game_id)[1])
    except GameNotFound:
        abort(404)
    title = f"{page.capitalize()} game {game_id}"
    return render_template("page.html", page=page, title=title, game_id=game_id,
                           players=players)
