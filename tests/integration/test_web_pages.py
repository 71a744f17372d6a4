"""The web table's pages (api/web) served by the API's Flask app: HTML pages, the assets from
package data, the seats embedded in a table page, a 404 for an unknown game. The pages' live
behaviour in a real browser is tests/e2e/test_web_browser.py."""
import json
import re

from tests.integration.api_client import app, client, game  # noqa: F401 (fixtures)


def embedded_players(page: str) -> list[dict]:
    """The seats a table page carries in its data-players attribute."""
    raw = re.search(r"data-players='([^']*)'", page).group(1)
    return json.loads(raw)


def test_the_game_list_page_loads_its_own_assets(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/web/static/[^"]+)"', page)
    assert sorted(assets) == ["/web/static/table.css", "/web/static/table.js"]
    for url in assets:
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.data) > 1000, url
    assert "http://" not in page and "https://" not in page  # no CDN


def test_a_table_page_carries_the_public_seats_and_no_token(client, game):
    for path in (f"/watch/{game['id']}", f"/replay/{game['id']}?v=3"):
        page = client.get(path).get_data(as_text=True)
        assert [p["name"] for p in embedded_players(page)] == ["p0", "p1", "p2", "p3"]
        assert all(p["kind"] == "human" for p in embedded_players(page))
        for seat in game["seats"]:
            assert seat["token"] not in page
        assert game["admin_token"] not in page


def test_an_unknown_game_is_a_404(client):
    assert client.get("/watch/no-such-game").status_code == 404
    assert client.get("/replay/no-such-game").status_code == 404
    assert client.get("/web/static/../__init__.py").status_code == 404
