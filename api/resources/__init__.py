"""Resources of the API, one flask-smorest blueprint each."""
from flask_smorest import Blueprint as SmorestBlueprint

from api.errors import problem_ref


class Blueprint(SmorestBlueprint):
    """A flask-smorest Blueprint whose documented errors are the problem+json components."""

    def problems(self, *codes: int):
        """Document that the view may answer with problem+json errors of these ``codes``."""

        def decorator(func):
            for code in codes:
                func = self.alt_response(code, response=problem_ref(code))(func)
            return func

        return decorator

    def _prepare_arguments_doc(self, doc, doc_info, **kwargs):
        responses = doc_info.get("arguments", {}).get("responses", {})
        for code in responses:
            responses[code] = problem_ref(code)
        return super()._prepare_arguments_doc(doc, doc_info, **kwargs)
