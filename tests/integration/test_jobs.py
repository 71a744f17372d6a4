"""The RQ jobs on a real server, run synchronously by calling them (DESIGN §5): stale jobs do
nothing, a round is scored once however often its job runs, the sweeper enqueues what a game
waits on and nothing twice (deadlines: test_deadlines.py)."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from rq.job import Job, JobStatus

from domain import awaiting
from service import Principal, bot_turns
from service.bootstrap import wire
from service.config import Settings
from workers import jobs, runtime
from service.followups import SLICES_QUEUE, bot_job_id, enqueue_unique, make_queue, score_job_id

BOTS = [{"kind": "bot", "level": "basic"}] * 4
HUMANS = [{"kind": "human"}] * 4


def event_types(service, game_id):
    return [event.type for event in service.store.read(game_id)]


def play_until_scoring(service, game_id):
    """Run play_bots at each new version until the round awaits scoring; return that version."""
    for _ in range(100):
        version, state = service.load(game_id)
        if awaiting(state).status == "scoring":
            return version
        assert jobs.play_bots(game_id, version) > 0
    raise AssertionError("the round did not end")


def test_a_bot_job_plays_its_bots_and_enqueues_one_follow_up(wiring, queue):
    game = wiring.service.create_game(BOTS, seed=11)
    assert queue.job_ids == [bot_job_id(game["id"], game["version"])]
    played = jobs.play_bots(game["id"], game["version"])
    version, _ = wiring.service.load(game["id"])
    assert played > 0 and version >= game["version"] + played
    slices = make_queue(wiring.client, SLICES_QUEUE)
    queued = set(queue.job_ids + slices.job_ids) - {bot_job_id(game["id"], game["version"])}
    # only the follow-up of the version it stopped at, none in between: the next slice at the
    # tail of the slices queue, or the scoring of the round on the bots queue
    assert queued in ({bot_job_id(game["id"], version)}, {score_job_id(game["id"], version)})
    assert set(slices.job_ids) <= {bot_job_id(game["id"], version)}


def test_a_stale_bot_job_does_nothing(wiring):
    game = wiring.service.create_game(BOTS, seed=11)
    jobs.play_bots(game["id"], game["version"])
    before = event_types(wiring.service, game["id"])
    assert jobs.play_bots(game["id"], game["version"]) == 0
    assert event_types(wiring.service, game["id"]) == before


def test_the_same_bot_choice_at_the_same_version(redis_url, wiring, admin_key):
    """The bot RNG derives from (seed, seat, version): a game seeded with the server admin key
    replays the same moves."""
    first = wiring.service.create_game(BOTS, seed=5, admin_key=admin_key)
    second = wiring.service.create_game(BOTS, seed=5, admin_key=admin_key)
    for game in (first, second):  # however the time slices cut the round
        play_until_scoring(wiring.service, game["id"])
    assert event_types(wiring.service, first["id"]) == event_types(wiring.service, second["id"])


def test_scoring_twice_scores_the_round_once(wiring):
    game = wiring.service.create_game(BOTS, seed=3)
    version = play_until_scoring(wiring.service, game["id"])
    assert jobs.score_round(game["id"], version) is True
    assert jobs.score_round(game["id"], version) is False
    after, state = wiring.service.load(game["id"])
    assert jobs.score_round(game["id"], after) is False  # nothing awaits scoring (R9)
    assert event_types(wiring.service, game["id"]).count("RoundScored") == 1
    assert len(state.round_scores) == 1 and state.round.number == 2


def test_the_sweeper_enqueues_a_missing_bot_job_once(redis_url, redis_client, wiring, queue):
    bare = wire(Settings(redis_url=redis_url)).service  # appends without follow-ups: a crash
    game = bare.create_game(BOTS, seed=2)
    assert queue.job_ids == []
    swept = jobs.sweep()
    assert swept.games == 1 and swept.enqueued == (bot_job_id(game["id"], game["version"]),)
    assert jobs.sweep().enqueued == ()  # the job is queued: alive


def unqueued_bot_job(redis_url, queue):
    """(id, job) of the bot job of a new bot game, taken off the queue so a test can give it
    the status of a job that died (the game was created without follow-ups)."""
    game = wire(Settings(redis_url=redis_url)).service.create_game(BOTS, seed=2)
    job_id = bot_job_id(game["id"], game["version"])
    enqueue_unique(queue, "workers.jobs.play_bots", job_id, game["id"], game["version"])
    job = Job.fetch(job_id, connection=queue.connection)
    queue.remove(job)
    return job_id, job


def test_the_sweeper_replaces_a_failed_job_and_leaves_it_in_the_failed_registry(
        redis_url, wiring, queue):
    job_id, job = unqueued_bot_job(redis_url, queue)
    job.set_status(JobStatus.FAILED)
    assert jobs.sweep().enqueued == (f"{job_id}-s1",)
    assert Job.fetch(job_id, connection=queue.connection).get_status() == JobStatus.FAILED


def test_the_sweeper_enqueues_scoring_and_puts_back_a_missing_deadline(redis_url, wiring, queue):
    bare = wire(Settings(redis_url=redis_url)).service
    game = bare.create_game(BOTS, seed=3)
    version = play_until_scoring(wiring.service, game["id"])
    for job_id in list(queue.job_ids):
        queue.remove(job_id)
    Job.fetch(score_job_id(game["id"], version), connection=queue.connection).delete()
    assert jobs.sweep().enqueued == (score_job_id(game["id"], version),)

    humans = bare.create_game(HUMANS, seed=7)
    _, state = bare.load(humans["id"])
    bare.act(humans["id"], Principal(seat=awaiting(state).turn), {"type": "draw", "from": "stock"})
    offered, _ = bare.load(humans["id"])
    wiring.service.schedule.forget(humans["id"])  # the deadline update lost with its process
    jobs.sweep()
    assert wiring.service.schedule.due(humans["id"])[1] == offered


def test_a_duplicate_enqueue_is_refused(wiring, queue):
    assert enqueue_unique(queue, "workers.jobs.score_round", "score-x-1", "x", 1) is True
    assert enqueue_unique(queue, "workers.jobs.score_round", "score-x-1", "x", 1) is False
    assert queue.job_ids == ["score-x-1"]


def test_the_sweeper_replaces_a_job_left_started_by_a_killed_worker(redis_url, wiring, queue):
    runtime.use(replace(wiring, settings=replace(wiring.settings, sweep_stale_s=5)))
    job_id, job = unqueued_bot_job(redis_url, queue)
    job.started_at = datetime.now(timezone.utc) - timedelta(seconds=2)
    job.set_status(JobStatus.STARTED)
    job.save()
    assert jobs.sweep().enqueued == ()  # started 2 s ago: still alive
    job.started_at = datetime.now(timezone.utc) - timedelta(seconds=10)
    job.save()
    assert jobs.sweep().enqueued == (f"{job_id}-s1",)
    assert f"{job_id}-s1" in queue.job_ids


def test_a_refused_bot_action_is_logged_without_its_card(wiring, monkeypatch, caplog):
    """DESIGN §2.4: no log line shows a card; a refusal is logged by action type and rule id."""
    import re
    game = wiring.service.create_game(BOTS, seed=11)
    _, state = wiring.service.load(game["id"])
    hand = state.round.hands[awaiting(state).turn]
    monkeypatch.setattr(bot_turns, "choose_action", lambda level, view, rng: {"type": "discard",
                                                                         "card": hand[0]})
    with caplog.at_level("INFO", logger="service.bot_turns"):
        jobs.play_bots(game["id"], game["version"])
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refused and all(re.search(r"chose a discard, refused \(R[\d.]+\)", line) for line in refused)
    assert not any(re.search(r"\b(10|[2-9AJQK])[CDHS]\b|\bJK\b", line) for line in refused)
