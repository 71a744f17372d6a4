"""Game records (the export format) of finished games, played in process by bots."""
import random

from domain import event_to_dict, fold, start_from_position
from domain.simulation import play_game
from service.table_events import event_of


def finished_record(seed: int = 2, levels: tuple[str, ...] = ("basic",) * 4,
                    profile=None) -> dict:
    """The record of a finished game of one seat per level (all human, so an import gives
    each a token), its events played by bots at `levels` with `random.Random(seed)` under
    `profile` (a RuleProfile; None: standard)."""
    events = play_game(levels, random.Random(seed), profile).events
    return {"format": "contract-rummy/game-record", "format_version": 1, "id": "0" * 16,
            "created_ms": 1_700_000_000_000, "version": len(events),
            "seats": [{"seat": n, "kind": "human", "name": f"p{n}", "level": None}
                      for n in range(len(levels))],
            "events": [{**event_to_dict(e), "version": n} for n, e in enumerate(events, 1)]}


def first_deal_as_position(record: dict):
    """The PositionLoaded event (a domain event) of the table after `record`'s first two
    events (GameCreated, RoundDealt): its first deal, given as a position to start from."""
    dealt = fold([event_of(e) for e in record["events"][:2]])
    return start_from_position({"profile": "standard", "round": 1, "dealer": dealt.round.dealer,
                                "turn": dealt.round.turn, "phase": "draw",
                                "hands": [list(h) for h in dealt.round.hands],
                                "discard": list(dealt.round.discard),
                                "stock": list(dealt.round.stock)})[0]
