"""The workers' moves on a real server (DESIGN §5): the turn loop (workers.turns) scores a round
once however often it is asked, seeded games replay the same bot moves, a refused bot choice
is logged without its card, and the sweep readies what a game waits on and nothing twice
(deadlines: test_clock.py)."""
from __future__ import annotations

import re

from domain import awaiting
from service import Principal, bot_turns
from service.bootstrap import wire
from service.config import Settings
from service.ready_games import ReadyGames
from workers import jobs
from service.bot_turns import BotTurn
from workers.turns import TurnLoop

BOTS = [{"kind": "bot", "level": "basic"}] * 4
HUMANS = [{"kind": "human"}] * 4


def event_types(service, game_id):
    return [event.type for event in service.store.read(game_id)]


def loop_of(wiring) -> TurnLoop:
    return TurnLoop(wiring.service, ReadyGames(wiring.queue_client), 30_000)


def play_until_scoring(wiring, game_id):
    """Play bot turns (one append each, as the turn loop does) until the round awaits
    scoring; return that version."""
    service, record = wiring.service, wiring.service.record(game_id)
    version, state = service.load(game_id)
    while awaiting(state).status != "scoring":
        version, state = service.decide_at(game_id, {"type": "bot_turn"}, version, None,
                                           BotTurn(record.rng_seed, record.bot_levels),
                                           known=(version, state))
    return version



def leased(ready, *args, **kwargs) -> list[tuple[str, int]]:
    """(game, version hint) of each game `ready.take(*args, **kwargs)` leased."""
    return [taken[:2] for taken in ready.take(*args, **kwargs)]

def test_a_round_is_scored_once_however_often_a_worker_tries(wiring,
                                                                               monkeypatch):
    game = wiring.service.create_game(BOTS, seed=3)
    version = play_until_scoring(wiring, game["id"])
    loop, other = loop_of(wiring), loop_of(wiring)
    other.states.keep(game["id"], *wiring.service.load(game["id"]))  # a worker holding that state
    monkeypatch.setattr("workers.turns.SLICE_MOVES", 1)
    assert loop.play(game["id"], version)[2] != 0  # scored; the next round awaits a bot
    assert other.play(game["id"], version)[1] == -1  # the same scoring again: lost the race
    after, state = wiring.service.load(game["id"])
    assert event_types(wiring.service, game["id"]).count("RoundScored") == 1
    assert len(state.round_scores) == 1 and state.round.number == 2


def test_the_same_bot_choice_at_the_same_version(wiring, admin_key):
    """The bot RNG derives from (seed, seat, version): a game seeded with the server admin key
    replays the same moves, however the slices cut the round."""
    first = wiring.service.create_game(BOTS, seed=5, admin_key=admin_key)
    second = wiring.service.create_game(BOTS, seed=5, admin_key=admin_key)
    for game in (first, second):
        play_until_scoring(wiring, game["id"])
    assert event_types(wiring.service, first["id"]) == event_types(wiring.service, second["id"])


def test_the_sweeper_readies_a_game_whose_readying_was_lost_once(redis_url, wiring):
    bare = wire(Settings(redis_url=redis_url)).service  # appends without follow-ups: a crash
    game = bare.create_game(BOTS, seed=2)
    ready = ReadyGames(wiring.queue_client)
    assert ready.queued() == []
    swept = jobs.sweep()
    assert swept.games == 1 and swept.readied == (game["id"],)
    assert ready.queued() == [game["id"]]
    assert jobs.sweep().readied == ()  # queued already
    assert leased(ready, 30_000) == [(game["id"], game["version"])]
    assert jobs.sweep().readied == ()  # leased by a worker: its lease puts it back if it dies


def test_the_sweeper_readies_a_scoring_and_puts_back_a_missing_deadline(redis_url, wiring):
    bare = wire(Settings(redis_url=redis_url)).service
    game = bare.create_game(BOTS, seed=3)
    version = play_until_scoring(wiring, game["id"])
    ready = ReadyGames(wiring.queue_client)
    wiring.queue_client.delete("rummy:{ready}:games")  # as if the readying was lost
    assert jobs.sweep().readied == (game["id"],)
    assert leased(ready, 30_000) == [(game["id"], version)]

    humans = bare.create_game(HUMANS, seed=7)
    _, state = bare.load(humans["id"])
    bare.act(humans["id"], Principal(seat=awaiting(state).turn), {"type": "draw", "from": "stock"})
    offered, _ = bare.load(humans["id"])
    wiring.service.schedule.forget(humans["id"])  # the deadline update lost with its process
    jobs.sweep()
    assert wiring.service.schedule.due(humans["id"])[1] == offered


def test_a_refused_bot_action_is_logged_without_its_card(wiring, monkeypatch, caplog):
    """DESIGN §2.4: no log line shows a card; a refusal is logged by action type and rule id."""
    game = wiring.service.create_game(BOTS, seed=11)
    _, state = wiring.service.load(game["id"])
    hand = state.round.hands[awaiting(state).turn]
    monkeypatch.setattr(bot_turns, "choose_action", lambda level, view, rng: {"type": "discard",
                                                                         "card": hand[0]})
    with caplog.at_level("INFO", logger="service.bot_turns"):
        loop_of(wiring).play(game["id"], game["version"])
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refused and all(re.search(r"chose a discard, refused \(R[\d.]+\)", line) for line in refused)
    assert not any(re.search(r"\b(10|[2-9AJQK])[CDHS]\b|\bJK\b", line) for line in refused)


def test_lazy_rngs_draw_what_seeded_ones_draw():
    """The bot and decision RNGs seed on first use (service.bot_turns.LazyRandom): the same
    numbers as random.Random of the same seed, so seeded games replay as before."""
    import random
    for seed in ("s:1", "s:bot:2:77"):
        lazy, eager = bot_turns.LazyRandom(seed), random.Random(seed)
        cards = list(range(52))
        lazy.shuffle(cards)
        expected = list(range(52))
        eager.shuffle(expected)
        assert cards == expected
        assert [lazy.random(), lazy.randrange(9), lazy.choice("abc")] == \
            [eager.random(), eager.randrange(9), eager.choice("abc")]
        assert bot_turns.LazyRandom(seed).getstate() == random.Random(seed).getstate()
