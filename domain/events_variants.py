"""Events of the RULES.md §11 options: Shanghai calls and claims (R11.18), the cut (R11.19),
penalty cards beyond the first (R11.10). Registered with the others (domain.events)."""
from __future__ import annotations

from domain.events import Event, _event


@_event
class ShanghaiCalled(Event):
    """`seat` called Shanghai on its discard `card` (R11.18): the discard opens no claim."""

    seat: int
    card: str


@_event
class ClaimOpened(Event):
    """The uncalled discard `card` of `discarder` fits an exposed meld: the other seats may
    claim it (R11.18)."""

    card: str
    discarder: int


@_event
class ClaimRequested(Event):
    """`seat` claimed the open discard for meld `meld`, laid as `card` (``9H``, ``JK=9H``) at
    run end `end` (R11.18); it wins if no seat ahead of it claims."""

    seat: int
    meld: int
    card: str
    end: str | None


@_event
class ClaimPassed(Event):
    """`seat` declined the open claim (R11.18; silence at the deadline is a pass)."""

    seat: int


@_event
class ClaimClosed(Event):
    """The claim on `card` resolved (R11.18): `claimer` gets it, or None when all declined."""

    card: str
    claimer: int | None


@_event
class CardClaimed(Event):
    """`seat` laid the claimed discard `card` on meld `meld` (at `end`) and `discarder` took
    `given` (chosen at random) from `seat`'s hand (R11.18; `given` is hidden from others)."""

    seat: int
    meld: int
    card: str
    end: str | None
    discarder: int
    given: str


@_event
class PenaltyCardTaken(Event):
    """`seat` took stock card `card` as a further penalty card of its purchase (R11.10;
    hidden from other seats)."""

    seat: int
    card: str


@_event
class DeckShuffled(Event):
    """Round `round` of `dealer` was shuffled into `deck` (hidden) and waits for the cut by
    the seat at the dealer's right (R11.19)."""

    round: int
    dealer: int
    deck: tuple[str, ...]


@_event
class DeckCut(Event):
    """`seat` cut asking for `count` cards and lifted `lifted` (R11.19); `exact` when that is
    the number of cards the deal gives out (the cutter's round score falls by the bonus)."""

    seat: int
    count: int
    lifted: int
    exact: bool
