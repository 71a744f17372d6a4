"""The documentation pages work offline: Swagger UI's assets and the rules page come from the
package, and every rule id the engine can cite has its anchor on the rules page."""
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.integration.api_client import app, client  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r'"([RTL]\d+(?:\.\d+)?)"')  # the game's rules, table (T) and lobby (L)


def cited_rule_ids() -> set[str]:
    """Every rule id written as a string literal in the engine, the service or the API."""
    ids = set()
    for package in ("domain", "service", "api"):
        for path in (ROOT / package).rglob("*.py"):
            ids.update(CITED.findall(path.read_text()))
    return ids


def test_swagger_ui_loads_its_assets_from_this_server(client):
    page = client.get("/docs").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(url.startswith("/docs/swagger-ui/") for url in assets), assets
    for url in assets:
        response = client.get(url)
        assert response.status_code == 200 and len(response.data) > 1000, url


def test_an_unknown_asset_is_a_404(client):
    assert client.get("/docs/swagger-ui/../../etc/passwd").status_code == 404
    assert client.get("/docs/swagger-ui/nothing.js").status_code == 404


def test_the_rules_page_has_an_anchor_for_every_cited_rule(client):
    response = client.get("/docs/rules")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    anchors = set(re.findall(r'id="([rtl][\d-]+)"', page))
    ids = cited_rule_ids()
    assert {"R5.5", "R6.1", "R9", "T3", "L2"} <= ids
    missing = {rule for rule in ids if rule.lower().replace(".", "-") not in anchors}
    assert not missing
    assert "<table>" in page  # the contract table is rendered, not left as Markdown


def test_the_variants_page_explains_the_presets_and_links_from_the_rules(client):
    response = client.get("/docs/variants")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    for preset in ("standard", "first_game", "shanghai", "liverpool", "eight_deals"):
        assert f"<code>{preset}</code>" in page
    assert "<table>" in page and "&quot;wild_twos&quot;: true" in page  # the custom profile
    assert 'href="/docs/variants"' in client.get("/docs/rules").get_data(as_text=True)


def test_the_format_page_shows_every_action_the_api_takes(client):
    """openapi.yaml's descriptions cite /docs/format for the vocabulary: it must serve, and
    name every action type the action schema accepts."""
    from api.resources.actions.schemas import BY_TYPE
    response = client.get("/docs/format")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    missing = [kind for kind in BY_TYPE if f'"type": "{kind}"' not in page.replace("&quot;", '"')]
    assert BY_TYPE and not missing, missing
    assert "<table>" in page and "Positions" in page
    assert "/docs/format" in (ROOT / "openapi.yaml").read_text()


@pytest.mark.slow
def test_a_built_wheel_carries_the_rules_page_and_the_web_assets(tmp_path):
    # The test extra pins setuptools, so the wheel builds without an isolated environment.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
                   check=True, timeout=300)
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("api/docs_site/rules.md").decode()
        variants = archive.read("api/docs_site/variants.md").decode()
        vocabulary = archive.read("api/docs_site/format.md").decode()
        names = set(archive.namelist())
    assert shipped == (ROOT / "docs" / "rules.md").read_text()
    assert variants == (ROOT / "docs" / "variants.md").read_text()
    assert vocabulary == (ROOT / "docs" / "format.md").read_text()
    web = {"api/web/static/table.js", "api/web/static/table.css", "api/web/templates/page.html"}
    assert web <= names, web - names
    # Installed from the wheel (not editable) and run away from the repository, it serves them.
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
                    str(tmp_path / "site"), str(wheel)], check=True, timeout=300)
    served = subprocess.run([sys.executable, "-c", SERVES], cwd=tmp_path, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
                            capture_output=True, text=True)
    assert served.returncode == 0, served.stderr[-3000:]
    assert served.stdout.split() == [str(tmp_path / "site" / "api" / "__init__.py"), "served"]


# Run by a Python whose `api` is the installed wheel's: every page and asset answers 200.
SERVES = """
import re
import api
from api import create_app
client = create_app({"RUMMY_SERVICE": None, "RUMMY_RATE_LIMITS": "off"}).test_client()
docs = client.get("/docs").get_data(as_text=True)
urls = re.findall(r'(?:src|href)="(/docs/swagger-ui/[^"]+)"', docs)
urls += ["/docs/rules", "/docs/problems", "/docs/variants", "/docs/format", "/",
         "/web/static/table.js",
         "/web/static/table.css", "/openapi.json"]
for url in urls:
    response = client.get(url)
    assert response.status_code == 200 and len(response.data) > 500, (url, response.status_code)
assert 'id="r2-4"' in client.get("/docs/rules").get_data(as_text=True)
print(api.__file__, "served")
"""
