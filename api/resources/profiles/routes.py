"""Routes of /v1/profiles: the presets of RULES.md R11.20 (public, no credentials; 503 only
when the rate limiter's Redis is down)."""
from api.errors import ApiProblem, problem_ref
from api.resources import Blueprint
from api.resources.profiles import schemas as s
from domain.profile import PRESETS, resolve

blp = Blueprint("profiles", __name__, url_prefix="/v1/profiles",
                description="Rule profiles: the presets of RULES.md §11")


def _preset(name: str) -> dict:
    _, description, source = PRESETS[name]
    return {"name": name, "description": description, "source": source,
            "options": resolve(name).to_json()}


@blp.route("", methods=["GET"])
@blp.operation("list_profiles")
@blp.response(200, s.ProfileListSchema)
@blp.problems(503)
def list_profiles():
    """List the presets with their full option values"""
    return {"items": [_preset(name) for name in PRESETS]}


@blp.route("/<name>", methods=["GET"])
@blp.operation("get_profile")
@blp.response(200, s.ProfileSchema)
@blp.alt_response(404, response=problem_ref(404))
@blp.problems(503)
def get_profile(name):
    """One preset with its full option values"""
    if name not in PRESETS:
        raise ApiProblem(404, "not-found", f"No profile {name[:40]!r}; presets are "
                                           f"{', '.join(PRESETS)}.")
    return _preset(name)
