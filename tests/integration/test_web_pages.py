"""The web table's pages (api/web) served by the API's Flask app: HTML shells, the assets from
package data, the seats for the pages (`/web/seats/{id}`), and a private game that a page load
cannot tell from an unknown one. The pages' live behaviour in a real browser is
tests/e2e/test_web_browser.py."""
import re

from tests.integration.api_client import HUMANS, app, bearer, client, game  # noqa: F401 (fixtures)

UNKNOWN = "f" * 16


def imports(module: str) -> list[str]:
    """The relative modules a JS module imports (`from "./x.js"`)."""
    return re.findall(r'from "\./([a-z]+\.js)"', module)


def test_the_game_list_page_loads_its_own_assets_and_every_module_they_import(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/web/static/[^"]+)"', page)
    assert sorted(assets) == ["/web/static/main.js", "/web/static/table.css"]
    todo, seen = ["main.js"], set()
    while todo:
        name = todo.pop()
        seen.add(name)
        asset = client.get(f"/web/static/{name}")
        assert asset.status_code == 200 and asset.mimetype in ("text/javascript",
                                                               "application/javascript"), name
        todo += [m for m in imports(asset.get_data(as_text=True)) if m not in seen]
    assert {"watch.js", "play.js", "replay.js", "live.js"} <= seen
    assert len(client.get("/web/static/table.css").data) > 1000
    assert "http://" not in page and "https://" not in page  # no CDN


def test_a_table_page_is_the_same_shell_for_a_public_a_private_and_an_unknown_game(client, game):
    private = client.post("/v1/games", json={"seats": HUMANS, "visibility": "private"}).get_json()
    for page in ("watch", "replay", "play"):
        shells = {name: client.get(f"/{page}/{gid}") for name, gid in
                  (("public", game["id"]), ("private", private["id"]), ("unknown", UNKNOWN))}
        bodies = {name: r.get_data(as_text=True).replace(gid, "<id>") for (name, r), gid in
                  zip(shells.items(), (game["id"], private["id"], UNKNOWN))}
        assert {r.status_code for r in shells.values()} == {200}, page
        assert bodies["public"] == bodies["private"] == bodies["unknown"], page
        assert {tuple(sorted(r.headers.keys())) for r in shells.values()} == {
            tuple(sorted(shells["unknown"].headers.keys()))}, page
        for token in [s["token"] for s in private["seats"]] + [private["admin_token"]]:
            assert token not in bodies["private"]


def test_the_seats_are_public_for_a_public_game_and_a_private_games_only_with_its_token(
        client, game):
    seats = client.get(f"/web/seats/{game['id']}")
    assert seats.status_code == 200 and seats.headers["Cache-Control"] == "private, no-store"
    assert [s["name"] for s in seats.get_json()] == ["p0", "p1", "p2", "p3"]
    assert not any("token" in s or "player_id" in s for s in seats.get_json())
    private = client.post("/v1/games", json={"seats": HUMANS, "visibility": "private"}).get_json()
    hidden = client.get(f"/web/seats/{private['id']}")
    unknown = client.get(f"/web/seats/{UNKNOWN}")
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.get_data(as_text=True) == unknown.get_data(as_text=True).replace(
        UNKNOWN, private["id"])
    shown = client.get(f"/web/seats/{private['id']}", headers=bearer(private["seats"][2]["token"]))
    assert [s["name"] for s in shown.get_json()] == ["p0", "p1", "p2", "p3"]


def test_no_file_outside_the_assets_is_served(client):
    assert client.get("/web/static/../__init__.py").status_code == 404


def test_every_page_loads_only_this_servers_assets_and_is_never_framed(client, game):
    """The newcomer tester's: /play acts with a seat's token and sent no policy, so another
    site could frame it. The browser tests (tests/e2e/test_web_*.py) play under this policy."""
    from api.web import PAGE_HEADERS
    for url in ("/", f"/watch/{game['id']}", f"/replay/{game['id']}", f"/play/{game['id']}"):
        headers = client.get(url).headers
        assert {name: headers.get(name) for name in PAGE_HEADERS} == PAGE_HEADERS, url
    policy = PAGE_HEADERS["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "Content-Security-Policy" not in client.get("/web/static/main.js").headers
    assert "Content-Security-Policy" not in client.get(f"/web/seats/{game['id']}").headers
