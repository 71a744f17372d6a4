"""``rummy openapi``: print the OpenAPI document generated from the code."""
import click
import yaml

from api import create_app


def openapi_document() -> dict:
    """Return the OpenAPI document of the API as a dict (no service or Redis needed)."""
    app = create_app({"RUMMY_SERVICE": None})
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def openapi_yaml() -> str:
    """Return the OpenAPI document as YAML, the text committed as ``openapi.yaml``."""
    return yaml.safe_dump(openapi_document(), sort_keys=False, allow_unicode=True, width=100)


@click.command("openapi")
def openapi() -> None:
    """Print the OpenAPI document (YAML) generated from the code."""
    click.echo(openapi_yaml(), nl=False)
