"""Fair bots and a light worker (issue 12), with a real RQ worker in this process on the test
server: bot jobs are cut into time slices that re-enqueue at the tail, two games interleave,
an append writes the index only when what it records changes, and game jobs keep nothing in
Redis once done (no result, no snapshot of a finished game)."""
from __future__ import annotations

import redis
from rq import SimpleWorker

from domain import awaiting, choose_action
from domain.views import SeatView
from service.followups import make_queues
from service.index import GameIndex
from service import bot_turns
from service.bot_turns import bot_rng
from service.keys import events_key, summary_key
from workers import jobs

BOTS = [{"kind": "bot", "level": "basic"}] * 4


def run_worker(wiring, max_jobs: int | None = None) -> None:
    """Run an RQ worker on the game queues (priority order) until they are empty, or until it
    has run `max_jobs` jobs."""
    queues = make_queues(wiring.client)
    SimpleWorker(queues.in_priority_order(), connection=wiring.client).work(
        burst=True, max_jobs=max_jobs, logging_level="WARNING")


def recorded_bot_jobs(monkeypatch) -> list[tuple[str, int, int]]:
    """(game, version, actions played) of every play_bots job run from now on, in order."""
    runs, play = [], jobs.play_bots

    def recording(game_id: str, version: int) -> int:
        played = play(game_id, version)
        runs.append((game_id, version, played))
        return played
    monkeypatch.setattr(jobs, "play_bots", recording)
    return runs


def test_a_bot_job_plays_one_slice_and_its_game_goes_on_in_the_next_job(wiring, monkeypatch):
    monkeypatch.setattr(jobs, "SLICE_CPU_S", 0.0)  # every slice ends after its first bot turn
    runs = recorded_bot_jobs(monkeypatch)
    game = wiring.service.create_game(BOTS, seed=4)
    run_worker(wiring, max_jobs=12)
    bot_runs = [run for run in runs if run[0] == game["id"]]
    # a bot turn: the offer answers owed, a draw, melds, a discard (service.bot_turns)
    assert len(bot_runs) >= 10 and all(1 <= played <= 12 for _, _, played in bot_runs)
    assert sum(played for *_, played in bot_runs) > len(bot_runs)  # turns, not single actions
    versions = [version for _, version, _ in bot_runs]
    assert versions == sorted(set(versions))  # each job goes on where the one before stopped


def game_events(wiring, game_id: str) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in wiring.service.store.read(game_id)]


def test_a_bot_turn_in_one_append_writes_the_same_events_as_one_append_per_action(
        wiring, monkeypatch, admin_key, redis_client):
    """Batching a bot turn into one append changes the cost, never the game: the same seeded
    game played with one append per action (a turn cut after each action) has the same events,
    one by one, and ends at the same version."""
    batched = wiring.service.create_game(BOTS, seed=11, admin_key=admin_key)
    appends_batched = appends_while(redis_client, lambda: run_worker(wiring))
    monkeypatch.setattr(bot_turns, "MAX_TURN_STEPS", 1)
    single = wiring.service.create_game(BOTS, seed=11, admin_key=admin_key)
    appends_single = appends_while(redis_client, lambda: run_worker(wiring))
    assert awaiting(wiring.service.load(batched["id"])[1]).status == "finished"
    assert game_events(wiring, batched["id"]) == game_events(wiring, single["id"])
    assert redis_client.xlen(events_key(batched["id"])) > 300
    assert appends_batched * 2 < appends_single  # each turn is one append, not three or more


def appends_while(client, run) -> int:
    """How many appends published a notification while `run()` ran (one SPUBLISH each)."""
    def published() -> int:
        return int(client.info("commandstats").get("cmdstat_spublish", {}).get("calls", 0))
    before = published()
    run()
    return published() - before


def test_a_long_bot_game_cut_into_slices_still_finishes_and_leaves_no_job_or_snapshot(
        wiring, monkeypatch, redis_client):
    monkeypatch.setattr(jobs, "SLICE_CPU_S", 0.002)  # a bot turn or two per slice
    runs = recorded_bot_jobs(monkeypatch)             # (~90 slices for the game)
    game = wiring.service.create_game(BOTS, seed=6)
    run_worker(wiring)
    version, state = wiring.service.load(game["id"])
    assert awaiting(state).status == "finished"
    assert len(runs) > 20  # many slices, each a job of its own
    assert sum(played for *_, played in runs) < version  # and they played the whole game
    assert not list(redis_client.scan_iter(match=f"rummy:{{{game['id']}}}:snap*"))
    # game jobs keep no result: nothing of them is left once the queues are empty
    assert not list(redis_client.scan_iter(match="rq:job:*"))
    assert not list(redis_client.scan_iter(match="rq:results:*"))
    assert GameIndex(redis_client).summary(game["id"])["status"] == "finished"


def test_two_games_take_turns_instead_of_one_waiting_for_the_others_whole_game(wiring,
                                                                               monkeypatch):
    monkeypatch.setattr(jobs, "SLICE_CPU_S", 0.0)
    runs = recorded_bot_jobs(monkeypatch)
    first = wiring.service.create_game(BOTS, seed=1)
    second = wiring.service.create_game(BOTS, seed=2)
    run_worker(wiring, max_jobs=10)
    order = [game_id for game_id, _, _ in runs]
    assert order[:2] == [first["id"], second["id"]]
    assert all(a != b for a, b in zip(order, order[1:]))  # strictly round robin


def test_a_bot_reply_to_a_human_goes_before_the_next_slice_of_a_game_of_bots(wiring,
                                                                             monkeypatch):
    monkeypatch.setattr(jobs, "SLICE_CPU_S", 0.0)
    runs = recorded_bot_jobs(monkeypatch)
    busy = wiring.service.create_game(BOTS, seed=1)
    run_worker(wiring, max_jobs=3)  # the bots game is now on its slices
    for seed in range(20):  # a game of one human where a bot acts first
        mixed = wiring.service.create_game([{"kind": "human"}] + BOTS[:3], seed=seed)
        if 0 not in awaiting(wiring.service.load(mixed["id"])[1]).seats:
            break
    run_worker(wiring, max_jobs=1)
    assert runs[0][0] == busy["id"] and runs[-1][0] == mixed["id"]


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
    # then, and one per 50 versions crossed; a write is two scripts (the summary, then its
    # index shard: docs/cluster.md)
    assert appends > 50 and CountingClient.scripts <= 2 * (1 + version // 50)
    summary = GameIndex(wiring.client).summary(game["id"])
    assert summary["status"] == "scoring" and summary["version"] == version
    listed = wiring.service.list_games()["items"]
    assert [(item["id"], item["version"]) for item in listed] == [(game["id"], version)]
    assert wiring.client.hget(summary_key(game["id"]), "round") == b"1"
