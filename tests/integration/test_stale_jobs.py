"""A deadline job that finds itself stale (a retry after its first run appended, a duplicate)
puts back the deadline of the game's current version instead of leaving the game to the next
sweep. (A bot move that finds its state stale: tests/integration/test_fairness.py.)"""
from __future__ import annotations

from domain import awaiting
from service import Principal
from workers import deadlines

HUMANS = [{"kind": "human"}] * 4


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
