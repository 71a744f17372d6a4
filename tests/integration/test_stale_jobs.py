"""A job that finds itself stale (a retry after its first run appended, a duplicate) enqueues
the follow-ups of the game's current version instead of leaving the game to the next sweep."""
from __future__ import annotations

from domain import awaiting
from service import Principal
from service.followups import bot_job_id, score_job_id
from workers import deadlines, jobs, runtime

BOTS = [{"kind": "bot", "level": "basic"}] * 4
HUMANS = [{"kind": "human"}] * 4


def test_a_stale_bot_job_enqueues_the_follow_ups_of_the_current_version(wiring, bare, queue):
    game = wiring.service.create_game(BOTS, seed=11)
    runtime.use(bare)  # the first run appends, then its process dies before any enqueue
    assert jobs.play_bots(game["id"], game["version"]) > 0
    runtime.use(wiring)
    for job_id in list(queue.job_ids):
        queue.remove(job_id)
    version, _ = wiring.service.load(game["id"])
    assert jobs.play_bots(game["id"], game["version"]) == 0  # the retry: stale
    assert set(queue.job_ids) & {bot_job_id(game["id"], version), score_job_id(game["id"], version)}
    assert jobs.play_bots(game["id"], game["version"]) == 0  # again: nothing new (unique ids)
    assert len(queue.job_ids) == 1


def test_a_stale_deadline_job_puts_back_the_deadline_of_the_current_version(wiring, bare):
    game = bare.service.create_game(HUMANS, seed=7)
    _, state = bare.service.load(game["id"])
    bare.service.act(game["id"], Principal(seat=awaiting(state).turn),
                     {"type": "draw", "from": "stock"})
    opened, state = bare.service.load(game["id"])
    bare.service.act(game["id"], Principal(seat=awaiting(state).seats[0]), {"type": "pass"})
    answered, _ = bare.service.load(game["id"])
    wiring.service.schedule.forget(game["id"])
    assert deadlines.run_deadline(game["id"], opened) == "stale"
    assert wiring.service.schedule.due(game["id"])[1] == answered
