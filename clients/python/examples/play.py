"""Play one human seat of a new game against three bots to its end, with nothing but the
client openapi-python-client generates from openapi.yaml (package contract_rummy_client).

    python play.py http://127.0.0.1:8000

The seat plays the first legal action the view lists, except that it answers a buy offer with
a pass naming the card on offer (no If-Match needed: a pass for another card is refused, R6.1).
The events are read at the end with a stream ticket (as a browser's EventSource would) by a
client that sends no token: the ticket stands for the seat, so its own dealt hands are shown.
Prints one JSON line: the game's status, the actions played, the refusals (by status), the
events read, the seat's hands among them, the ticket's validity and the replayed version.
"""
import json
import sys
import uuid
from collections import Counter
from datetime import datetime, timezone

from contract_rummy_client import AuthenticatedClient, Client
from contract_rummy_client.api.actions import post_action
from contract_rummy_client.api.events import list_events
from contract_rummy_client.api.games import create_game, get_replay, get_seat_view
from contract_rummy_client.api.tickets import create_stream_ticket
from contract_rummy_client.models import (ActionResult, CreateGame, Offer, PassAction,
                                          PassActionType, Replay, SeatSpec, SeatSpecKind,
                                          SeatSpecLevel, SeatView, SeatViewStatus)

OVER = (SeatViewStatus.FINISHED, SeatViewStatus.ABORTED)


def new_game(url: str) -> tuple[str, AuthenticatedClient]:
    """Create a game of one human (seat 0) and three bots; the human seat's client."""
    bots = [SeatSpec(kind=SeatSpecKind.BOT, name=f"B{n}", level=SeatSpecLevel.BASIC)
            for n in (1, 2, 3)]
    # openapi-python-client types every operation with a security requirement as taking an
    # AuthenticatedClient, even where anonymous access is allowed (`security: [{}, ...]`);
    # a plain Client is the anonymous caller.
    created = create_game.sync(client=Client(base_url=url), body=CreateGame(
        seats=[SeatSpec(kind=SeatSpecKind.HUMAN, name="Ann"), *bots], seed=7))
    return created.id, AuthenticatedClient(base_url=url, token=created.seats[0].token)


def choose(view: SeatView):
    """The action to play: a pass naming the offered card, else the first legal action."""
    if isinstance(view.offer, Offer) and view.seat in view.offer.waiting_for:
        return PassAction(type_=PassActionType.PASS, card=view.offer.card)
    return view.legal_actions[0]


def play(game_id: str, seat: AuthenticatedClient) -> tuple[SeatView, Counter]:
    """Act whenever the seat is awaited, wait on the event feed otherwise, until the end."""
    outcomes = Counter()
    while (view := get_seat_view.sync(game_id, client=seat)).status not in OVER:
        if not view.legal_actions:
            list_events.sync(game_id, client=seat, after=view.version, wait=5.0)
            continue
        answer = post_action.sync_detailed(game_id, client=seat, body=choose(view),
                                           idempotency_key=uuid.uuid4().hex)
        outcomes["played" if isinstance(answer.parsed, ActionResult) else answer.status_code] += 1
    return view, outcomes


def main(url: str) -> None:
    game_id, seat = new_game(url)
    view, outcomes = play(game_id, seat)
    ticket = create_stream_ticket.sync(game_id, client=seat)
    reader = Client(base_url=url)  # no token: the ticket stands for the seat
    events, after, more = [], 0, True
    while more:  # the feed comes in pages of at most `limit` events
        page = list_events.sync(game_id, client=reader, after=after, limit=5000,
                                ticket=ticket.ticket)
        events, after, more = events + page.events, page.next_after, page.more
    replay = get_replay.sync(game_id, client=seat, version=view.version // 2)
    assert isinstance(replay, Replay)
    print(json.dumps({"status": view.status.value, "version": view.version,
                      "played": outcomes.pop("played", 0),
                      "refused": {str(k): v for k, v in outcomes.items()},
                      "events": len(events), "event_types": sorted({e.type_ for e in events}),
                      "own_hands": sum(1 for e in events
                                       if e.type_ == "RoundDealt" and e.data.hand),
                      "ticket_s": (ticket.expires_at - datetime.now(timezone.utc)).total_seconds(),
                      "replay_version": replay.version, "winners": view.winners}))


if __name__ == "__main__":
    main(sys.argv[1])
