"""The service's own documentation pages, served offline from package data.

- ``GET /docs``: Swagger UI (flask-smorest's page), whose assets come from the pinned
  ``swagger-ui-bundle`` package under ``/docs/swagger-ui/``, never from a CDN.
- ``GET /docs/rules``: the rules (``docs/rules.md``, shipped in this package as ``rules.md``)
  as HTML, one anchor per rule id (``/docs/rules#r5-5``), so a refusal's ``rule`` can link to
  its explanation.
- ``GET /docs/problems``: every problem ``type`` (api.problems), one anchor per type, the page
  a problem's ``type`` URI names (``/docs/problems#version-conflict``).
- ``GET /docs/variants``: the table rules (``docs/variants.md``, shipped as ``variants.md``):
  presets, every profile option, custom profiles, the Shanghai claim and the cut for clients.
- ``GET /docs/format``: the JSON vocabulary of cards, actions and positions
  (``docs/format.md``, shipped as ``format.md``), which openapi.yaml's descriptions cite.

These pages are not API operations: they are a plain Flask blueprint, outside openapi.yaml.
"""
from functools import cache
from importlib import resources

import markdown
from flask import Blueprint, send_from_directory

from api.problems import PROBLEMS_PAGE, RULES_PAGE, markdown_table
from swagger_ui_bundle import swagger_ui_path
from werkzeug.wrappers import Response

SWAGGER_UI_URL = "/docs/swagger-ui/"
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto;
        padding: 0 1rem; color: #1b1b1b; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #bbb; padding: .2rem .5rem; }}
code {{ background: #f1f1f1; padding: 0 .2rem; }} :target {{ background: #fff3b0; }}
</style></head><body>
{body}
</body></html>
"""

VARIANTS_PAGE = "/docs/variants"
FORMAT_PAGE = "/docs/format"

blp = Blueprint("docs_site", __name__)


@cache
def page_html(name: str, title: str) -> str:
    """The Markdown file `name` of this package rendered to a whole HTML document (str) titled
    `title`, once per process; the raw ``<a id>`` anchors of the Markdown pass through."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return PAGE.format(title=title,
                       body=markdown.markdown(text, extensions=["tables", "fenced_code"]))


@blp.route(RULES_PAGE)
def rules():
    """The rules as HTML (text/html), anchors ``#r<section>`` and ``#r<section>-<rule>``."""
    return Response(page_html("rules.md", "Contract Rummy rules"), mimetype="text/html")


@blp.route(VARIANTS_PAGE)
def variants():
    """The presets and profile options as HTML (text/html)."""
    return Response(page_html("variants.md", "Contract Rummy table rules"),
                    mimetype="text/html")


@blp.route(FORMAT_PAGE)
def format_page():
    """The cards, actions and positions as HTML (text/html)."""
    return Response(page_html("format.md", "Contract Rummy cards, actions and positions"),
                    mimetype="text/html")


@cache
def problems_html() -> str:
    """The problem types page (whole HTML document), one anchor per type."""
    intro = ("# Problem types\n\nEvery error of the API is `application/problem+json` "
             "(RFC 9457) whose `type` is one of these, `/docs/problems#<type>`. A rule "
             "violation also carries `rule` and `rule_url`, its entry in the "
             f"[rules]({RULES_PAGE}).\n\n")
    body = markdown.markdown(intro + markdown_table(), extensions=["tables"])
    return PAGE.format(title="Contract Rummy problem types", body=body)


@blp.route(PROBLEMS_PAGE)
def problems():
    """The problem types as HTML (text/html), anchors ``#<type>``."""
    return Response(problems_html(), mimetype="text/html")


@blp.route(SWAGGER_UI_URL + "<path:filename>")
def swagger_ui_asset(filename: str):
    """A Swagger UI asset from the pinned swagger-ui-bundle package (404 for anything else)."""
    return send_from_directory(swagger_ui_path, filename, max_age=86400)
