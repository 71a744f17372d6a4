"""Field helpers shared by the schemas."""
from marshmallow import fields, validate

MAX_VERSION = 2**53 - 1  # versions stay exact in every JSON client


def integer(low: int, high: int, **kwargs) -> fields.Integer:
    """A JSON integer from ``low`` to ``high``: strict (``"0"``, ``1.5`` and booleans are
    refused), documented with its minimum and maximum; one message for every refusal."""
    message = (f"Must be {low}." if low == high else f"Must be an integer from {low} to {high}.")
    return fields.Integer(strict=True, validate=validate.Range(min=low, max=high, error=message),
                          error_messages={"invalid": message}, **kwargs)
