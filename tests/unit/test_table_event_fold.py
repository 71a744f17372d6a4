"""Table events never change a game's state (service.table_events): with any of them put
anywhere in a stream, the state the loader gives at every version equals the fold of the
domain events up to there, from a snapshot or from the start (hypothesis)."""
import random

from hypothesis import given, settings, strategies as st

from domain import event_to_dict, fold
from domain.simulation import play_game
from service.loading import GameLoader
from service.snapshots import MemorySnapshots, Snapshots
from service.store import InMemoryEventStore
from service.table_events import (PlayerSeated, RematchCreated, RematchOf, SeatTokenIssued,
                                  SpectatorAdded, rules_events)

GAME = play_game(("basic",) * 4, random.Random(7)).events[:160]  # a deal and some play
TABLE = st.sampled_from([PlayerSeated(seat=1, player_id="ann"), SpectatorAdded(),
                         RematchCreated(game_id="0" * 16), RematchOf(game_id="1" * 16),
                         SeatTokenIssued(seat=2)])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(1, len(GAME)), TABLE), max_size=6),
       st.booleans())
def test_table_events_anywhere_leave_every_versions_state_unchanged(inserted, snapshot_first):
    stream = list(GAME)
    for at, event in sorted(inserted, key=lambda pair: pair[0], reverse=True):
        stream.insert(at, event)
    store = InMemoryEventStore()
    store.append("g", [event_to_dict(event) for event in stream], 0)
    loader = GameLoader(store, Snapshots(MemorySnapshots()))
    if snapshot_first:  # a snapshot cached halfway: later loads fold onto it
        loader.load("g", upto=len(stream) // 2)
    for version in range(1, len(stream) + 1, 7):
        loaded_version, state = loader.load("g", upto=version)
        assert loaded_version == version
        assert state == fold(rules_events(stream[:version]))
        assert state.events_folded == len(rules_events(stream[:version]))  # decisions' seed
    assert loader.load("g") == (len(stream), fold(GAME))
