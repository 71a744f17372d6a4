"""Fair bots and a light worker (issue 12), with the real turn loop (workers.turns) and ready
queue (service.ready_games) on the test server: games of bots take turns one short slice each
(round robin), a game with a human goes before them, a bot turn is one append, an append
writes the index only when what it records changes, and nothing is left in Redis once the
games are over (no job, no result, no snapshot of a finished game, no queue entry)."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from domain import awaiting, choose_action
from domain.views import SeatView
from service import bot_turns
from service.bot_turns import bot_rng
from service.index import GameIndex
from service.keys import events_key, summary_key
from service import ready_games
from service.ready_games import OWNERS, SKIPS, ReadyGames
from service.store import StoreUnavailable
from workers import turns, worker
from workers.turns import TurnLoop

BOTS = [{"kind": "bot", "level": "basic"}] * 4


def turn_loop(wiring, lease_ms: int = 30_000) -> TurnLoop:
    """A turn loop on the test wiring (the service with the follow-up hook)."""
    return TurnLoop(wiring.service, ReadyGames(wiring.queue_client), lease_ms)


def recorded_slices(monkeypatch) -> list[tuple[str, int, int]]:
    """(game, version before, version after) of every slice played from now on, in order."""
    slices, play = [], TurnLoop.play

    def recording(self, game_id: str, hint: int, **options):
        before = self.service.store.version(game_id)
        released = play(self, game_id, hint, **options)
        slices.append((game_id, before, self.service.store.version(game_id)))
        return released
    monkeypatch.setattr(TurnLoop, "play", recording)
    return slices


def finished(wiring, game_id: str) -> bool:
    return awaiting(wiring.service.load(game_id)[1]).status == "finished"



def leased(ready, *args, **kwargs) -> list[tuple[str, int]]:
    """(game, version hint) of each game `ready.take(*args, **kwargs)` leased."""
    return [taken[:2] for taken in ready.take(*args, **kwargs)]

def test_a_slice_plays_a_few_moves_and_the_game_goes_on_in_the_next(wiring, monkeypatch,
                                                                      redis_client):
    slices = recorded_slices(monkeypatch)
    game = wiring.service.create_game(BOTS, seed=4)
    loop = turn_loop(wiring)

    def twelve_slices() -> None:
        for _ in range(12):
            assert loop.step() == 1
    appends = appends_while(redis_client, twelve_slices)
    assert [before for _, before, _ in slices[1:]] == [after for _, _, after in slices[:-1]]
    assert all(after > before for _, before, after in slices)
    assert 12 <= appends <= 12 * turns.SLICE_MOVES  # a move (a bot turn) is one append
    assert ReadyGames(wiring.queue_client).leased() == [game["id"]]


def test_two_games_take_turns_instead_of_one_waiting_for_the_others_whole_game(wiring,
                                                                               monkeypatch):
    slices = recorded_slices(monkeypatch)
    first = wiring.service.create_game(BOTS, seed=1)
    time.sleep(0.002)  # readied one ms apart at least: queued in this order, not by id
    second = wiring.service.create_game(BOTS, seed=2)
    loop = turn_loop(wiring)
    for _ in range(10):
        loop.step()
    order = [game_id for game_id, _, _ in slices]
    assert order[:2] == [first["id"], second["id"]]
    assert all(a != b for a, b in zip(order, order[1:]))  # strictly round robin


def test_a_game_with_a_human_goes_before_the_next_slice_of_the_games_of_bots(wiring,
                                                                           monkeypatch):
    slices = recorded_slices(monkeypatch)
    busy = [wiring.service.create_game(BOTS, seed=seed)["id"] for seed in (1, 2, 3)]
    loop = turn_loop(wiring)
    for _ in range(4):  # the games of bots are on their slices now
        loop.step()
    for seed in range(20):  # a game of one human where a bot acts first
        mixed = wiring.service.create_game([{"kind": "human"}] + BOTS[:3], seed=seed)
        if 0 not in awaiting(wiring.service.load(mixed["id"])[1]).seats:
            break
    else:
        pytest.fail("no seed in 20 gave a game where a bot acts first")
    played = len(slices)
    loop.step()
    assert slices[played][0] == mixed["id"]  # the first slice of the step (TAKE_GAMES)
    assert {game_id for game_id, _, _ in slices[:played]} == set(busy)


def test_a_bot_turn_in_one_append_writes_the_same_events_as_one_append_per_action(
        wiring, monkeypatch, admin_key, redis_client):
    """Batching bot turns into one append changes the cost, never the game: the same seeded
    game of bots played with two turns an append (BOT_GAME_TURNS), one turn an append, and one
    append per action (a turn cut after each action) has the same events, one by one."""
    assert turns.BOT_GAME_TURNS == 2
    two = wiring.service.create_game(BOTS, seed=11, admin_key=admin_key)
    appends_two = appends_while(redis_client, turn_loop(wiring).drain)
    monkeypatch.setattr(turns, "BOT_GAME_TURNS", 1)
    one = wiring.service.create_game(BOTS, seed=11, admin_key=admin_key)
    appends_one = appends_while(redis_client, turn_loop(wiring).drain)
    monkeypatch.setattr(bot_turns, "MAX_TURN_STEPS", 1)
    single = wiring.service.create_game(BOTS, seed=11, admin_key=admin_key)
    appends_single = appends_while(redis_client, turn_loop(wiring).drain)
    assert finished(wiring, two["id"])
    assert game_events(wiring, two["id"]) == game_events(wiring, one["id"]) \
        == game_events(wiring, single["id"])
    assert redis_client.xlen(events_key(two["id"])) > 300
    assert appends_one * 2 < appends_single  # each turn is one append, not three or more
    assert appends_two < appends_one * 0.6   # two turns an append: about half as many


def test_a_bot_append_in_a_game_with_a_human_holds_one_bot_turn(wiring, monkeypatch,
                                                                admin_key):
    """Where a human plays a seat, every bot turn reaches the stream as soon as it is played
    (the human may act on it: a buy offer, the next turn), never held back for the next
    bot's turn as in a game of bots, whose appends hold two."""
    appended = {}   # the game's secret seed -> (turns asked, discards) of each bot append

    class Recording(bot_turns.BotTurn):
        def __init__(self, rng_seed, bot_levels, turns=1):
            super().__init__(rng_seed, bot_levels, turns)
            self.seed, self.turns = rng_seed, turns

        def __call__(self, state, version):
            folded = super().__call__(state, version)
            discards = sum(type(e).__name__ == "CardDiscarded" for e in folded.events)
            appended.setdefault(self.seed, []).append((self.turns, discards))
            return folded
    monkeypatch.setattr(turns, "BotTurn", Recording)
    for seed in range(20):  # a game of one human where a bot acts first
        mixed = wiring.service.create_game([{"kind": "human"}] + BOTS[:3], seed=seed,
                                           admin_key=admin_key)["id"]
        if 0 not in awaiting(wiring.service.load(mixed)[1]).seats:
            break
    else:
        pytest.fail("no seed in 20 gave a game where a bot acts first")
    bots = wiring.service.create_game(BOTS, seed=5, admin_key=admin_key)["id"]
    mixed, bots = (wiring.service.record(game).rng_seed for game in (mixed, bots))
    loop = turn_loop(wiring)
    for _ in range(10):
        loop.step()
    assert {turns for turns, _ in appended[mixed]} == {1}
    assert max(discards for _, discards in appended[mixed]) <= 1
    assert {turns for turns, _ in appended[bots]} == {2}
    assert max(discards for _, discards in appended[bots]) == 2


def game_events(wiring, game_id: str) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in wiring.service.store.read(game_id)]


def appends_while(client, run) -> int:
    """How many appends published a notification while `run()` ran (one SPUBLISH each)."""
    def published() -> int:
        return int(client.info("commandstats").get("cmdstat_spublish", {}).get("calls", 0))
    before = published()
    run()
    return published() - before


def test_games_played_by_two_loops_in_turn_finish_and_leave_nothing_behind(
        wiring, bare, monkeypatch, redis_client):
    """Two workers (each its own service and cache) share the games: a game's next slice is
    often the other loop's, whose cached state is behind, so it reads the stream's tail."""
    monkeypatch.setattr(turns, "SLICE_MOVES", 1)
    games = [wiring.service.create_game(BOTS, seed=seed)["id"] for seed in (5, 6, 7)]
    from service.followups import install
    install(bare)
    loops = [turn_loop(wiring), turn_loop(bare)]
    while sum(loop.step() for loop in loops):
        pass
    for loop in loops:
        loop.release()
    assert all(finished(wiring, game_id) for game_id in games)
    for game_id in games:
        assert not list(redis_client.scan_iter(match=f"rummy:{{{game_id}}}:snap*"))
        assert GameIndex(redis_client).summary(game_id)["status"] == "finished"
    assert not list(redis_client.scan_iter(match="rq:job:*"))
    ready = ReadyGames(wiring.queue_client)
    assert ready.queued() == [] and ready.leased() == []
    assert not redis_client.hlen("rummy:{ready}:versions")


def test_a_lease_that_ends_puts_a_killed_workers_game_back(wiring, monkeypatch):
    game = wiring.service.create_game(BOTS, seed=9)
    ready = ReadyGames(wiring.queue_client)
    assert leased(ready, lease_ms=50) == [(game["id"], game["version"])]  # then "killed"
    assert ready.take(lease_ms=50) == []  # leased: no one else plays it
    time.sleep(0.1)
    assert leased(ready, lease_ms=50) == [(game["id"], game["version"])]


def test_a_worker_takes_its_own_game_behind_the_head_but_passes_the_head_over_at_most_twice(
        wiring):
    """A worker prefers the games it played last (its cached state is current), but the game
    at the head (here of another worker) waits at most MAX_SKIPS slices more than FIFO."""
    ready = ReadyGames(wiring.queue_client)
    games = ["a-other", "b-mine", "c-mine", "d-mine"]
    for version, game_id in enumerate(games, start=1):
        ready.mark(game_id, version, urgent=False)
        time.sleep(0.002)  # one ms apart at least: queued in this order
    wiring.queue_client.hset(OWNERS, mapping={"a-other": "other", "b-mine": "me",
                                              "c-mine": "me", "d-mine": "me"})
    assert ready_games.MAX_SKIPS == 2
    taken = [ready.take(30_000, worker="me")[0][0] for _ in games]
    assert taken == ["b-mine", "c-mine", "a-other", "d-mine"]
    assert not wiring.queue_client.exists(SKIPS)  # a game taken forgets its skips


def test_the_loops_of_one_process_take_each_others_games_as_their_own(wiring, monkeypatch):
    """Loops sharing their cached states (one `rummy worker`) prefer the games any of them
    played last: the game of a sibling loop is taken before the head of another process's,
    and played from the shared state, with no load."""
    ready = ReadyGames(wiring.queue_client)
    for version, game_id in enumerate(["a-other", "b-sibling"], start=1):
        ready.mark(game_id, version, urgent=False)
        time.sleep(0.002)
    wiring.queue_client.hset(OWNERS, mapping={"a-other": "p2.x", "b-sibling": "p1.a"})
    assert ready.take(30_000, worker="p1.b", group="p1.")[0][0] == "b-sibling"
    assert ready.take(30_000, worker="p1.b")[0][0] == "a-other"  # no group: its own id only

    game = wiring.service.create_game(BOTS, seed=41)["id"]
    states = turns.GameStates()
    first, second = (TurnLoop(wiring.service, ReadyGames(wiring.queue_client), 30_000, states,
                              "p9.") for _ in range(2))
    assert first.step() == 1
    first.release()
    played = states.get(game)[0]
    loads = []
    monkeypatch.setattr(wiring.service, "load", lambda *args, **kw: loads.append(args))
    assert second.step() == 1
    assert loads == [] and states.get(game)[0] > played


def test_a_take_leases_two_games_and_an_outage_in_the_first_keeps_both_for_the_next_release(
        wiring, monkeypatch):
    """The loop takes TAKE_GAMES games per round trip, in queue order; when a Redis error
    stops it in the first one's slice, neither game waits for its lease to end: both are
    released with the next take, ahead of the games of bots as they were taken (new games)."""
    first = wiring.service.create_game(BOTS, seed=21)["id"]
    time.sleep(0.002)  # readied one ms apart at least: queued in this order, not by id
    second = wiring.service.create_game(BOTS, seed=22)["id"]
    loop = turn_loop(wiring)

    def outage(*args, **kwargs):
        raise StoreUnavailable("connection refused")
    monkeypatch.setattr(wiring.service, "decide_at", outage)
    with pytest.raises(StoreUnavailable):
        loop.step()
    assert turns.TAKE_GAMES == 2
    assert [(game_id, again) for game_id, _, again in loop.released] == [
        (first, ready_games.URGENT), (second, ready_games.URGENT)]
    monkeypatch.undo()
    assert loop.step() == 2
    assert ReadyGames(wiring.queue_client).leased() == sorted([first, second])


def test_an_outage_puts_the_games_of_a_take_back_with_the_urgency_they_were_taken_with(
        wiring, monkeypatch):
    """A game with a human, taken urgent, goes back ahead of the games of bots after an
    outage in its slice, and a game of bots taken behind it (unplayed) back at the tail: the
    human's game does not wait a whole rotation for its lost slice."""
    bots = wiring.service.create_game(BOTS, seed=31)["id"]
    loop = turn_loop(wiring)
    assert loop.step() == 1  # its first slice: the game of bots goes back at the tail
    for seed in range(20):  # a game of one human where a bot acts first
        mixed = wiring.service.create_game([{"kind": "human"}] + BOTS[:3], seed=seed)["id"]
        if 0 not in awaiting(wiring.service.load(mixed)[1]).seats:
            break
    else:
        pytest.fail("no seed in 20 gave a game where a bot acts first")

    def outage(*args, **kwargs):
        raise StoreUnavailable("connection refused")
    monkeypatch.setattr(wiring.service, "decide_at", outage)
    with pytest.raises(StoreUnavailable):
        loop.step()  # takes the human's game (urgent), then the game of bots
    assert [(game_id, again) for game_id, _, again in loop.released] == [
        (mixed, ready_games.URGENT), (bots, ready_games.TAIL)]
    monkeypatch.undo()
    loop.release()
    scores = dict(wiring.queue_client.zrange(ready_games.GAMES, 0, -1, withscores=True))
    now_ms = time.time() * 1000
    assert scores[mixed.encode()] < now_ms - ready_games.URGENT_MS / 2 < scores[bots.encode()]


def test_a_worker_whose_lease_lapsed_cannot_release_the_game_another_took_since(wiring):
    """Its late release (after an outage, say) is ignored: the game stays leased to the worker
    holding it, so a third cannot take it and play it beside that one."""
    game = wiring.service.create_game(BOTS, seed=13)
    ready = ReadyGames(wiring.queue_client)
    assert leased(ready, lease_ms=50, worker="a") == [(game["id"], game["version"])]
    time.sleep(0.1)
    assert leased(ready, lease_ms=30_000, worker="b") == [(game["id"], game["version"])]
    assert ready.take(30_000, [(game["id"], game["version"] + 1, 1)], worker="a") == []
    assert ready.leased() == [game["id"]] and ready.queued() == []
    assert ready.take(30_000, worker="c") == []  # still b's


def test_a_slice_on_a_state_another_append_overtook_appends_nothing_twice(wiring, bare):
    """The loop's cached state is behind the stream (another worker played the game, the
    version hint lost): its move loses the race (expected version), the game goes back to the
    queue, and the next slice goes on from the stream."""
    game = wiring.service.create_game(BOTS, seed=12)
    loop = turn_loop(wiring)
    loop.step()
    version = wiring.service.store.version(game["id"])
    other = TurnLoop(bare.service, ReadyGames(bare.queue_client), 30_000)
    other.play(game["id"], version)  # another worker's slice, its release lost
    ahead = wiring.service.store.version(game["id"])
    assert ahead > version
    assert loop.play(game["id"], version) == (game["id"], -1, 1)  # lost the race: TAIL
    assert wiring.service.store.version(game["id"]) == ahead
    loop.released = [(game["id"], -1, 1)]
    loop.drain()
    events = wiring.service.store.read(game["id"])
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert finished(wiring, game["id"])


class CountingClient(redis.Redis):
    """A Redis client that counts the scripts it runs (EVALSHA), to see the index's writes."""

    scripts = 0

    def evalsha(self, *args, **kwargs):
        CountingClient.scripts += 1
        return super().evalsha(*args, **kwargs)


def test_the_index_is_written_only_when_what_it_records_changes(wiring, redis_url):
    game = wiring.service.create_game(BOTS, seed=8)
    CountingClient.scripts = 0
    index = GameIndex(CountingClient.from_url(redis_url))
    wiring.service.index = index
    appends = 0
    version, state = wiring.service.load(game["id"])
    while awaiting(state).status != "scoring":  # the first round, one bot action at a time
        seat = awaiting(state).seats[0]
        action = choose_action("basic", SeatView(state, seat), bot_rng("x", seat, version))
        version, state = wiring.service.play(game["id"], seat, action, if_match=version,
                                             known=(version, state))
        appends += 1
    # status, round and waiting stayed the same until the round ended (scoring): one write
    # then, and one per 500 versions crossed; a write is two scripts (the summary, then its
    # index shard: docs/cluster.md). The wiring's secret is the process's own, so the deal and
    # the round's length vary from run to run (46 to 192 actions seen): more than 20 appends
    # written each time would be more than 40 scripts.
    assert appends > 20 and CountingClient.scripts <= 2 * (1 + version // 500)
    summary = GameIndex(wiring.client).summary(game["id"])
    assert summary["status"] == "scoring" and summary["version"] == version
    listed = wiring.service.list_games()["items"]
    assert [(item["id"], item["version"]) for item in listed] == [(game["id"], version)]
    assert wiring.client.hget(summary_key(game["id"]), "round") == b"1"


def test_a_worker_process_runs_its_turn_loops_on_one_cache_and_group(wiring):
    loops = worker.turn_loops(wiring, 3)
    assert len({loop.name for loop in loops}) == 3
    assert len({id(loop.states) for loop in loops}) == 1
    assert all(loop.name.startswith(loop.group) and loop.group == loops[0].group
               for loop in loops)


def test_a_running_loop_holds_one_connection_for_its_takes_and_gives_it_back(wiring,
                                                                             monkeypatch):
    """TurnLoop.run: the ready queue's takes (and the store's appends) go over connections the
    loop holds while it runs (service.connections.PinnedClient), back in the pool once it
    stops; the games are played to the end on them."""
    games = [wiring.service.create_game(BOTS, seed=seed)["id"] for seed in (8, 9)]
    loop, stop = turn_loop(wiring), threading.Event()
    pool, takes = wiring.queue_client.connection_pool, []
    get_connection, release = pool.get_connection, pool.release
    held = {"taken": 0, "given": 0}

    def counted_get():
        held["taken"] += 1
        return get_connection()

    def counted_release(connection):
        held["given"] += 1
        release(connection)
    monkeypatch.setattr(pool, "get_connection", counted_get)
    monkeypatch.setattr(pool, "release", counted_release)
    take = loop.ready._take

    def counted_take(*args, **kwargs):
        takes.append(kwargs.get("client"))
        return take(*args, **kwargs)
    monkeypatch.setattr(loop.ready, "_take", counted_take)
    appends, append = [], wiring.service.store._append

    def counted_append(*args, **kwargs):
        appends.append(kwargs.get("client"))
        return append(*args, **kwargs)
    monkeypatch.setattr(wiring.service.store, "_append", counted_append)
    running = threading.Thread(target=loop.run, args=(stop,))
    running.start()
    deadline = time.monotonic() + 60
    while not all(finished(wiring, game) for game in games) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    running.join(10)
    assert all(finished(wiring, game) for game in games)
    assert len(takes) > 10 and len({id(client) for client in takes}) == 1  # one held client
    assert isinstance(takes[0], redis.Redis) and takes[0] is not wiring.queue_client
    assert len(appends) > 10 and len({id(client) for client in appends}) == 1
    assert isinstance(appends[0], redis.Redis) and appends[0] is not takes[0]
    assert held["taken"] == held["given"]  # every connection is back in the pool
