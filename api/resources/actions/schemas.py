"""The action vocabulary (docs/format.md, served as /docs/format) as request and response
schemas."""
import marshmallow as ma
from marshmallow import fields, validate

from api.resources.fields import integer
from domain.cards import JOKER, RANKS, SUITS

# The card codes of domain.cards (a natural, JK, or JK=<natural> in a run; under wild twos a
# deuce 2C=<natural> in a run or 2C=<rank> in a group, R11.15), as a pattern the OpenAPI
# document can carry.
_NATURAL = f"(?:{'|'.join(RANKS)})[{''.join(SUITS)}]"
_RANK = f"(?:{'|'.join(RANKS)})"
CARD = validate.Regexp(rf"^(?:{_NATURAL}|{JOKER}(?:={_NATURAL})?|2[{''.join(SUITS)}]="
                       rf"(?:{_NATURAL}|{_RANK}))$", error="Not a card code: {input}.")
MAX_CUT = 415  # the largest deck (4 packs, 8 jokers, R11.3) less one
MAX_MELD = 999


def card(**kwargs) -> fields.String:
    """A card code field: ``10H``, ``AS``, ``JK``, or ``JK=6C`` for a joker in a run."""
    metadata = {"example": "10H", **kwargs.pop("metadata", {})}
    return fields.String(validate=CARD, metadata=metadata, **kwargs)


def meld_index(**kwargs) -> fields.Integer:
    """A meld number on the table (0 = the first meld laid)."""
    return integer(0, MAX_MELD, **kwargs)


def _end(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(("low", "high")), **kwargs)


class JokerTargetSchema(ma.Schema):
    """Where a swapped-out joker goes: a meld, the card it now stands for, and which end."""

    meld = meld_index(required=True)
    as_ = card(data_key="as", attribute="as", allow_none=True, load_default=None)
    end = _end()


def _type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.Equal(name))


def _from(**kwargs) -> fields.String:
    return fields.String(data_key="from", attribute="from",
                         validate=validate.OneOf(("stock", "discard")), **kwargs)


def _melds(**kwargs) -> fields.List:
    return fields.List(fields.List(card(), validate=validate.Length(min=1, max=14)),
                       validate=validate.Length(min=1, max=6), **kwargs)


def _answered(**kwargs) -> fields.String:
    return card(metadata={"description": "Optional: the card on offer (or open to a claim, "
                                         "R11.18) this answers; refused (R6.1, R11.18) if "
                                         "another card is on offer or open to a claim now"},
                **kwargs)


class DrawActionSchema(ma.Schema):
    """``draw``: the active seat takes the discard top, or chooses the stock (which opens a buy
    offer when one can be paid, R6.8)."""

    type = _type("draw")
    from_ = _from(required=True)


class BuyActionSchema(ma.Schema):
    """``buy``: a seat other than the active one asks for the card on offer (R6.2)."""

    type = _type("buy")
    card = _answered()


class PassActionSchema(ma.Schema):
    """``pass``: a seat other than the active one declines the card on offer (R6.9)."""

    type = _type("pass")
    card = _answered()


class OpenActionSchema(ma.Schema):
    """``open``: go down with the round's contract (R4.2; R8.2 in round 7); runs low to high,
    a joker as ``JK=<card>`` in a run and ``JK`` in a group."""

    type = _type("open")
    melds = _melds(required=True)


class LayOffActionSchema(ma.Schema):
    """``lay_off``: add a card to a meld on the table (R7.1-R7.4); ``end`` where it fits both
    ends of a run."""

    type = _type("lay_off")
    meld = meld_index(required=True)
    card = card(required=True)
    end = _end()


class SwapJokerActionSchema(ma.Schema):
    """``swap_joker``: put the natural card in place of a meld's joker and play the joker on
    another meld (R7.5)."""

    type = _type("swap_joker")
    meld = meld_index(required=True)
    card = card(required=True)
    joker_to = fields.Nested(JokerTargetSchema, required=True)


def _shanghai(**kwargs) -> fields.Boolean:
    return fields.Boolean(truthy={True}, falsy={False}, metadata={
        "description": "Call Shanghai on the discard (profiles with shanghai_call, R11.18): a "
                       "called discard opens no claim"}, **kwargs)


class DiscardActionSchema(ma.Schema):
    """``discard``: end the turn with a card from the hand (R5.5); ``shanghai`` calls it
    (R11.18)."""

    type = _type("discard")
    card = card(required=True)
    shanghai = _shanghai()


def _as(**kwargs) -> fields.String:
    return card(data_key="as", attribute="as", allow_none=True, metadata={
        "description": "The card a claimed wild card stands for on a run (null on a group)"},
        **kwargs)


class ClaimActionSchema(ma.Schema):
    """``claim``: ask for the open uncalled discard, laid on meld ``meld`` (R11.18)."""

    type = _type("claim")
    meld = meld_index(required=True)
    as_ = _as()
    end = _end()
    card = card(metadata={"description": "Optional: the card claimed; refused (R11.18) if "
                                         "another card is open to a claim now"})


def _count(**kwargs) -> fields.Integer:
    return integer(1, MAX_CUT, metadata={"description": "Cards to lift (1 to the deck size "
                                                        "less one); the hand lifts about "
                                                        "that many (R11.19)"}, **kwargs)


class CutActionSchema(ma.Schema):
    """``cut``: the seat at the dealer's right cuts the deck before the deal (R11.19)."""

    type = _type("cut")
    count = _count(required=True)


BY_TYPE = {"draw": DrawActionSchema, "buy": BuyActionSchema, "pass": PassActionSchema,
           "open": OpenActionSchema, "lay_off": LayOffActionSchema,
           "swap_joker": SwapJokerActionSchema, "discard": DiscardActionSchema,
           "claim": ClaimActionSchema, "cut": CutActionSchema}
FIELDS = {name: {f.data_key or key: f.required for key, f in cls._declared_fields.items()}
          for name, cls in BY_TYPE.items()}


class ActionSchema(ma.Schema):
    """One player action (/docs/format "Actions"): exactly the fields of its ``type`` (documented per
    type as the request body, ``oneOf`` with ``type`` as discriminator). ``buy`` and ``pass``
    may carry ``card``, the card on offer they answer (optional, R6.1); ``pass`` also answers
    an open Shanghai claim (R11.18)."""

    type = fields.String(required=True, validate=validate.OneOf(tuple(BY_TYPE)))
    from_ = _from()
    melds = _melds()
    meld = meld_index()
    card = card(metadata={"description": "The card discarded, laid off or swapped in "
                                          "(required there); for buy and pass, optional: the "
                                          "card on offer the answer is for, refused (R6.1) "
                                          "if another card is on offer now"})
    end = _end()
    joker_to = fields.Nested(JokerTargetSchema)
    shanghai = _shanghai()
    as_ = _as()
    count = _count()

    @ma.validates_schema
    def _has_fields_of_type(self, data, **kwargs):
        name = data.get("type")
        allowed = FIELDS.get(name, {})
        errors = {f: [f"Required for {name}."] for f, required in allowed.items()
                  if required and f not in data}
        errors.update({f: [f"Not a field of {name}."] for f in data if f not in allowed})
        if errors:
            raise ma.ValidationError(errors)

    @classmethod
    def openapi_body(cls) -> dict:
        """The request body as documented: the action union (api.resources.Blueprint)."""
        return {"$ref": "#/components/schemas/Action"}


def union_components() -> dict:
    """The component ``Action``: one schema per type (``DrawAction`` ...) under a ``oneOf``
    with ``type`` as discriminator; the request body of POST .../actions and the items of
    ``legal_actions``. The per-type schemas are registered by api.contract."""
    refs = {name: f"#/components/schemas/{schema_name(name)}" for name in BY_TYPE}
    return {"Action": {"oneOf": [{"$ref": ref} for ref in refs.values()],
                       "discriminator": {"propertyName": "type", "mapping": refs},
                       "description": "One player action (/docs/format)"}}


def schema_name(action_type: str) -> str:
    """The component name of an action type's schema: ``lay_off`` -> ``LayOffAction``."""
    return BY_TYPE[action_type].__name__.removesuffix("Schema")


class ActionResultSchema(ma.Schema):
    """The game's version after the action and the caller's new view."""

    version = fields.Integer(required=True)
    view = fields.Nested("SeatViewSchema", required=True)
