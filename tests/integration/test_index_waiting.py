"""The game index and the sweeper's work list on a real server (DESIGN §5): one script moves a
game between its status sets and the waiting set, so concurrent updates cannot disagree with
the summaries, and the sweep loads only the games that wait on the workers."""
from __future__ import annotations

import random
import threading

import redis

from domain import awaiting
from service import Principal
from service.index import ALL, STATUSES, WAITING, GameIndex, set_name
from service.keys import INDEX_SHARDS, index_key, index_shard, summary_key
from service.ready_games import ReadyGames
from workers import jobs
from workers.turns import TurnLoop

BOTS = [{"kind": "bot", "level": "basic"}] * 4
HUMANS = [{"kind": "human"}] * 4


def members(client: redis.Redis, name: str) -> set[str]:
    """The members of the index sets `name` of every shard."""
    return {member.decode() for shard in range(INDEX_SHARDS)
            for member in client.zrange(index_key(shard, name), 0, -1)}


def test_concurrent_index_updates_leave_the_sets_and_the_summaries_in_agreement(redis_url,
                                                                              redis_client):
    """Three processes index three versions of each game at the same moment (a barrier per
    game). A status decided apart from the set moves lost this race for ~1 game in 5."""
    games = [f"g{n}" for n in range(200)]
    for number, game in enumerate(games):
        GameIndex(redis_client).add(game, 1000 + number, 1, "playing", 1, waiting=False)
    writes = [(2, "scoring", True), (3, "playing", False), (4, "playing", True)]
    random.Random(7).shuffle(writes)
    together = threading.Barrier(len(writes))

    def run(version: int, status: str, waiting: bool) -> None:
        index = GameIndex(redis.Redis.from_url(redis_url))  # another process's index
        for game in games:
            together.wait()
            index.update(game, version, status, 1, waiting=waiting)

    threads = [threading.Thread(target=run, args=write) for write in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    waiting_set = members(redis_client, WAITING)
    sets = {status: members(redis_client, set_name(status)) for status in STATUSES}
    for game in games:
        assert GameIndex(redis_client).summary(game) == {"status": "playing", "version": 4,
                                                         "waiting": True}
        assert [status for status in STATUSES if game in sets[status]] == ["playing"], game
        assert game in waiting_set
    assert members(redis_client, ALL) == set(games)


def test_an_older_update_changes_neither_the_summary_nor_the_sets(redis_client):
    index = GameIndex(redis_client)
    index.add("g", 1000, 5, "scoring", 2, waiting=True)
    assert index.update("g", 4, "playing", 2, waiting=False) == "scoring"
    assert members(redis_client, "scoring") == {"g"}
    assert members(redis_client, "playing") == set()
    assert members(redis_client, WAITING) == {"g"}


def test_a_game_waits_on_the_workers_only_while_a_bot_a_deadline_or_scoring_is_due(wiring):
    service, client = wiring.service, wiring.client
    bots = service.create_game(BOTS, seed=2)
    humans = service.create_game(HUMANS, seed=7, clock={"turn_s": None})
    clocked = service.create_game(HUMANS, seed=7)
    # a human's turn without a turn clock: not waiting; with one: its deadline is due
    assert members(client, WAITING) == {bots["id"], clocked["id"]}
    _, state = service.load(humans["id"])
    service.act(humans["id"], Principal(seat=awaiting(state).turn), {"type": "draw", "from": "stock"})
    _, state = service.load(humans["id"])
    assert awaiting(state).phase == "buying"  # silent humans owe an answer: a deadline is due
    assert members(client, WAITING) == {bots["id"], humans["id"], clocked["id"]}


def test_the_sweep_does_not_load_an_all_human_game_waiting_on_a_human(wiring, bare,
                                                                      monkeypatch):
    humans = bare.service.create_game(HUMANS, seed=7, clock={"turn_s": None})
    bots = bare.service.create_game(BOTS, seed=2)
    loaded: list[str] = []
    real_load = wiring.service.load
    monkeypatch.setattr(wiring.service, "load",
                        lambda game_id, upto=None: loaded.append(game_id) or real_load(game_id, upto))
    swept = jobs.sweep()
    assert loaded == [bots["id"]] and humans["id"] not in loaded
    assert swept.games == 1 and swept.readied == (bots["id"],)


def test_the_sweep_skips_a_waiting_entry_its_summary_does_not_back(wiring, bare, redis_client):
    game = bare.service.create_game(HUMANS, seed=7, clock={"turn_s": None})
    redis_client.zadd(index_key(index_shard(game["id"]), WAITING), {game["id"]: 1})  # stray
    redis_client.zadd(index_key(index_shard("no-such-game"), WAITING), {"no-such-game": 1})
    assert jobs.sweep().games == 0


def test_the_sweep_catches_up_a_summary_left_behind_by_a_lost_index_update(wiring, bare,
                                                                          redis_client):
    game = bare.service.create_game(BOTS, seed=3)
    TurnLoop(wiring.service, ReadyGames(wiring.queue_client), 30_000).play(game["id"],
                                                                           game["version"])
    version, state = wiring.service.load(game["id"])
    redis_client.hset(summary_key(game["id"]), mapping={"version": game["version"],
                                                        "status": "playing", "waiting": 1})
    jobs.sweep()
    assert GameIndex(redis_client).summary(game["id"])["version"] == version
    assert GameIndex(redis_client).summary(game["id"])["status"] == awaiting(state).status


def test_a_finished_game_leaves_the_waiting_set(redis_client):
    index = GameIndex(redis_client)
    index.add("g", 1000, 3, "playing", 7, waiting=True)
    index.update("g", 4, "finished", 7, waiting=True)
    assert members(redis_client, WAITING) == set()
    assert members(redis_client, "finished") == {"g"}
