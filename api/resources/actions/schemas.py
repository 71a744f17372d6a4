"""The action vocabulary of FORMAT.md as request and response schemas."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.fields import integer

_RANK = r"(?:[2-9]|10|[AJQK])[CDHS]"
CARD = validate.Regexp(rf"^(?:{_RANK}|JK(?:={_RANK})?)$", error="Not a card code: {input}.")
MAX_MELD = 999
MAX_KEY = 200  # characters of an Idempotency-Key
TYPES = ("draw", "buy", "pass", "open", "lay_off", "swap_joker", "discard")
REQUIRED = {"draw": ("from",), "open": ("melds",), "lay_off": ("meld", "card"),
            "swap_joker": ("meld", "card", "joker_to"), "discard": ("card",)}


def card(**kwargs) -> fields.String:
    """A card code field: ``10H``, ``AS``, ``JK``, or ``JK=6C`` for a joker in a run."""
    metadata = {"example": "10H", **kwargs.pop("metadata", {})}
    return fields.String(validate=CARD, metadata=metadata, **kwargs)


def meld_index(**kwargs) -> fields.Integer:
    """A meld number on the table (0 = the first meld laid)."""
    return integer(0, MAX_MELD, **kwargs)


class JokerTargetSchema(ma.Schema):
    """Where a swapped-out joker goes: a meld, the card it now stands for, and which end."""

    meld = meld_index(required=True)
    as_ = card(data_key="as", attribute="as", allow_none=True, load_default=None)
    end = fields.String(validate=validate.OneOf(("low", "high")))


class ActionSchema(ma.Schema):
    """One player action (FORMAT.md `do`); which fields apply depends on ``type``. ``buy`` and
    ``pass`` may carry ``card``, the card on offer they answer (optional, R6.1)."""

    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    from_ = fields.String(data_key="from", attribute="from",
                          validate=validate.OneOf(("stock", "discard")))
    melds = fields.List(fields.List(card(), validate=validate.Length(min=1, max=14)),
                        validate=validate.Length(min=1, max=4))
    meld = meld_index()
    card = card(metadata={"description": "The card discarded, laid off or swapped in "
                                          "(required there); for buy and pass, optional: the "
                                          "card on offer the answer is for, refused (R6.1) "
                                          "if another card is on offer now"})
    end = fields.String(validate=validate.OneOf(("low", "high")))
    joker_to = fields.Nested(JokerTargetSchema)

    @ma.validates_schema
    def _has_fields_of_type(self, data, **kwargs):
        missing = [f for f in REQUIRED.get(data.get("type"), ()) if f not in data]
        if missing:
            raise ma.ValidationError({f: [f"Required for {data['type']}."] for f in missing})


class ActionHeadersSchema(ma.Schema):
    """The optional idempotency key of an action."""

    idempotency_key = fields.String(
        data_key="Idempotency-Key", validate=validate.Length(min=1, max=MAX_KEY),
        metadata={"description": f"Any unique string of 1 to {MAX_KEY} characters; a retry "
                                 "with the same key and body returns the first response and "
                                 "appends nothing (422 when reused for another body, or when "
                                 "empty or longer)"})


class ActionResultSchema(ma.Schema):
    """The game's version after the action and the caller's new view."""

    version = fields.Integer(required=True)
    view = fields.Nested("SeatViewSchema", required=True)
