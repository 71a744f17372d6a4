"""The turn clock on the decisions the §11 variants add (issue 8: "a Shanghai claim if the
variants exist, a cut"; docs/clock.md): a cut awaited from a human has the turn's deadline and
times out like a turn (the bot cuts, the deal follows, in one append); a Shanghai claim window
owed by humans has the offer's deadline and closes with every silent seat passing, which
neither counts toward takeover nor resets the count."""
import time

import pytest

from domain import awaiting, export_position
from service import Principal
from tests.conftest import ADMIN_KEY
from tests.integration.api_client import HUMANS
from tests.integration.test_claim_answers import POSITION as CLAIM_POSITION
from tests.integration.test_clock import jobs_wiring  # noqa: F401 - fixture
from workers import deadlines

CLAIMS = {"preset": "standard", "shanghai_call": True}
PREFERRED = ("pass", "draw", "open", "lay_off", "discard")  # a quick human: never buys


def wait_until_due(service, game_id, version, state):
    due = service.deadline(game_id, version, state)
    time.sleep(max(0.0, due.due_ms / 1000 - time.time()) + 0.05)
    return due


def test_a_silent_cut_times_out_and_the_takeover_bot_cuts_and_deals(service, jobs_wiring):
    game = service.create_game(HUMANS, profile="liverpool", seed=11, admin_key=ADMIN_KEY,
                               clock={"turn_s": 1, "timeouts_before_takeover": 2})
    gid = game["id"]
    version, state = service.load(gid)
    cutter = awaiting(state).turn
    assert awaiting(state).phase == "cut" and awaiting(state).seats == (cutter,)
    cut_at = service.store.read(gid)[-1].recorded_at  # DeckShuffled: the cut is awaited
    _, table = service.public_view(gid)
    due = wait_until_due(service, gid, version, state)
    assert (due.kind, due.seats, due.due_ms) == ("turn", (cutter,), cut_at + 1000)
    assert table["awaiting"]["deadline"] is not None
    assert deadlines.run_deadline(gid, version) == "turn"
    added = service.store.read(gid, after=version)
    assert [e.type for e in added[:3]] == ["TurnTimedOut", "DeckCut", "RoundDealt"]
    assert added[0].data == {"seat": cutter}
    assert len({e.recorded_at for e in added}) == 1  # one append
    _, state = service.load(gid)
    assert state.timeouts[cutter] == 1 and state.taken_over[cutter] is None
    assert deadlines.run_deadline(gid, version) == "stale"  # exactly once


def test_a_claim_window_closes_at_the_offers_deadline_and_counts_no_timeout(service,
                                                                           jobs_wiring):
    game = service.create_game(HUMANS, profile=CLAIMS, seed=3, admin_key=ADMIN_KEY,
                               clock={"turn_s": 100, "offer_s": 1})
    gid = game["id"]
    for _ in range(600):  # humans playing quickly until a discard opens a claim (R11.18)
        version, state = service.load(gid)
        wait = awaiting(state)
        if wait.phase == "claim":
            break
        assert wait.status == "playing", wait
        seat = wait.seats[0]
        legal = service.seat_view(gid, Principal(seat=seat))[1]["legal_actions"]
        service.act(gid, Principal(seat=seat),
                    next(a for kind in PREFERRED for a in legal if a["type"] == kind))
    else:
        raise AssertionError("no claim opened")
    counts = list(state.timeouts)
    opened_at = service.store.read(gid)[-1].recorded_at  # ClaimOpened
    due = wait_until_due(service, gid, version, state)
    assert (due.kind, due.seats, due.due_ms) == ("claim", wait.seats, opened_at + 1000)
    assert service.schedule.due(gid) == (due.due_ms, version)
    assert deadlines.run_deadline(gid, version) == "claim"
    added = [e.type for e in service.store.read(gid, after=version)]
    assert added == ["ClaimPassed"] * len(wait.seats) + ["ClaimClosed"]
    _, state = service.load(gid)
    assert list(state.timeouts) == counts and not any(state.taken_over)
    assert deadlines.run_deadline(gid, version) == "stale"


def offer_position(service) -> dict:
    """A standard game's table just after its first seat chose the stock: an offer is open."""
    gid = service.create_game(HUMANS, seed=5, admin_key=ADMIN_KEY)["id"]
    _, state = service.load(gid)
    service.act(gid, Principal(seat=awaiting(state).seats[0]), {"type": "draw", "from": "stock"})
    _, state = service.load(gid)
    assert awaiting(state).phase == "buying"
    return export_position(state)


@pytest.mark.parametrize("kind", ["offer", "claim"])
def test_a_game_loaded_with_an_offer_or_a_claim_open_has_its_deadline(service, jobs_wiring,
                                                                      kind):
    """An offer (R6.9) or claim (R11.18) open in a loaded position closes at the clock's
    offer_s from the game's start, as one opened in play does: a silent human seat of such a
    game had no deadline, and the game waited forever."""
    position = offer_position(service) if kind == "offer" else CLAIM_POSITION
    game = service.create_game(HUMANS, position=position, admin_key=ADMIN_KEY,
                               clock={"turn_s": 100, "offer_s": 1})
    gid = game["id"]
    version, state = service.load(gid)
    started_at = service.store.read(gid)[-1].recorded_at  # ClockSet, after PositionLoaded
    due = wait_until_due(service, gid, version, state)
    assert (due.kind, due.seats, due.due_ms) == (kind, awaiting(state).seats, started_at + 1000)
    assert service.public_view(gid)[1]["awaiting"]["deadline"] is not None
    assert deadlines.run_deadline(gid, version) == kind
    closed = [e.type for e in service.store.read(gid, after=version)]
    assert ("OfferClosed" if kind == "offer" else "ClaimClosed") in closed
    assert deadlines.run_deadline(gid, version) == "stale"
