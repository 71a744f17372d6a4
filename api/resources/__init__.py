"""Resources of the API, one flask-smorest blueprint each."""
from flask_smorest import Blueprint as SmorestBlueprint

from api.errors import problem_ref
from api.operations import operation, prepare_operation_doc
from api.parsing import PARSER


class Blueprint(SmorestBlueprint):
    """A flask-smorest Blueprint whose documented errors are the problem+json components and
    whose JSON bodies are read by ``api.parsing`` (bounded depth, strict numbers).

    A request schema with an ``openapi_body()`` classmethod is documented by what it returns
    (e.g. a ``$ref`` to a ``oneOf`` with a discriminator) instead of its own fields.

    Every view declares its operationId with ``@blp.operation(...)`` (api.operations), which
    also documents the headers it reads and ``Idempotency-Key`` when it honours one."""

    ARGUMENTS_PARSER = PARSER
    operation = staticmethod(operation)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.append(prepare_operation_doc)

    def problems(self, *codes: int):
        """Document that the view may answer with problem+json errors of these ``codes``; a
        view that may answer 404 (no such game) may also answer 410 (the game was archived,
        docs/retention.md)."""
        if 404 in codes:
            codes = (*codes, 410)

        def decorator(func):
            for code in codes:
                func = self.alt_response(code, response=problem_ref(code))(func)
            return func

        return decorator

    def _prepare_arguments_doc(self, doc, doc_info, **kwargs):
        responses = doc_info.get("arguments", {}).get("responses", {})
        for code in responses:
            responses[code] = problem_ref(code)
        doc = super()._prepare_arguments_doc(doc, doc_info, **kwargs)
        if "application/json" in doc.get("requestBody", {}).get("content", {}):
            # A body sent without Content-Type: application/json (api.parsing)
            doc.setdefault("responses", {}).setdefault(415, problem_ref(415))
        for content in doc.get("requestBody", {}).get("content", {}).values():
            documented = getattr(content.get("schema"), "openapi_body", None)
            if documented is not None:
                content["schema"] = documented()
        return doc
