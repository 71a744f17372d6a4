"""GameService on a real server with the real domain (docs/architecture.md §2): create, act,
conflicts, idempotent retries, redaction, replay, export/import, snapshots as a cache."""
from __future__ import annotations

import random
import re
import threading
import time

import pytest

from domain import RuleViolation, awaiting
from service import (ConcurrencyError, Forbidden, GameNotFound, IdempotencyKeyReused, Principal,
                     Unauthorized)
from service.keys import meta_key
from tests.integration.records import finished_record

HUMANS = [{"kind": "human", "name": f"P{i}"} for i in range(4)]
CARD = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b|\bJK\b")


@pytest.fixture
def game(service):
    return service.create_game(HUMANS, seed=7)


def seat(n: int) -> Principal:
    return Principal(seat=n)


def play(service, game_id: str, moves: int, rng: random.Random) -> None:
    """Play `moves` actions: a random legal action of the first seat that must act; score
    rounds as the workers would."""
    for _ in range(moves):
        version, state = service.load(game_id)
        wait = awaiting(state)
        if wait.status == "finished":
            return
        if wait.status == "scoring":
            service.system_act(game_id, {"type": "score_round"}, version)
            continue
        _, view = service.seat_view(game_id, seat(wait.seats[0]))
        service.act(game_id, seat(wait.seats[0]), rng.choice(view["legal_actions"]))


def draw_from_stock_opening_an_offer(service, game_id):
    """The active seat chooses the stock; returns the seats the offer waits for."""
    _, state = service.load(game_id)
    active = awaiting(state).turn
    service.act(game_id, seat(active), {"type": "draw", "from": "stock"})
    _, state = service.load(game_id)
    assert awaiting(state).phase == "buying"
    return awaiting(state).seats


def test_create_returns_tokens_shown_once_and_stores_only_hashes(service, game, redis_client):
    assert game["version"] >= 2 and len(game["seats"]) == 4
    tokens = [s["token"] for s in game["seats"]] + [game["admin_token"]]
    stored = b" ".join(redis_client.hvals(meta_key(game["id"])))
    assert all(token.encode() not in stored for token in tokens)
    assert [service.authenticate(game["id"], s["token"]).seat for s in game["seats"]] == [0, 1, 2, 3]
    assert service.authenticate(game["id"], game["admin_token"]).admin
    assert service.authenticate(game["id"], None) == Principal()


def test_bot_seats_get_no_token_and_a_level(service):
    created = service.create_game(HUMANS[:2] + [{"kind": "bot", "level": "random"}, {"kind": "bot"}])
    assert [("token" in s, s["level"]) for s in created["seats"]] == [
        (True, None), (True, None), (False, "random"), (False, "basic")]
    assert service.bot_seats(created["id"]) == (2, 3)
    record = service.record(created["id"])
    assert record.bot_levels() == {2: "random", 3: "basic"} and not record.all_bots
    bots = service.record(service.create_game([{"kind": "bot", "level": "strong"}] * 4)["id"])
    assert bots.all_bots and bots.bot_levels(service.load(bots.id)[1]) == dict.fromkeys(
        range(4), "strong")


def test_bad_seats_and_profiles_are_refused(service):
    with pytest.raises(ValueError):
        service.create_game(HUMANS[:2])  # R11.1: 3-8 seats
    with pytest.raises(ValueError):
        service.create_game(HUMANS[:3] + [{"kind": "bot", "level": "genius"}])
    with pytest.raises(ValueError):
        service.create_game(HUMANS, profile={"buying": "no"})
    with pytest.raises(ValueError):
        service.create_game(HUMANS, profile={"players": 5})  # R1.1: the seats set players


def test_the_seats_set_the_players_of_a_preset(service):
    created = service.create_game(HUMANS + HUMANS[:2], profile="shanghai")
    _, view = service.public_view(created["id"])
    assert len(view["hand_sizes"]) == 6 and view["hand_sizes"] == [11] * 6
    assert (view["profile"]["players"], view["profile"]["packs"], view["profile"]["jokers"]) \
        == (6, 3, 6)


def test_a_token_of_another_game_or_no_game_is_refused(service, game):
    other = service.create_game(HUMANS)
    with pytest.raises(Unauthorized):
        service.authenticate(game["id"], other["seats"][0]["token"])
    with pytest.raises(GameNotFound):
        service.authenticate("nope", None)
    with pytest.raises(GameNotFound):
        service.public_view("nope")


def test_the_same_seed_with_the_server_admin_key_deals_the_same_game(service, admin_key):
    one, two = (service.create_game(HUMANS, seed=11, admin_key=admin_key) for _ in range(2))
    views = [service.seat_view(game["id"], seat(0)) for game in (one, two)]
    for _, view in views:  # each turn's deadline counts from its own game's deal
        assert view["awaiting"].pop("deadline") is not None
    assert views[0] == views[1]


def test_acting_appends_and_returns_the_new_seat_view(service, game):
    version, state = service.load(game["id"])
    active = awaiting(state).turn
    new_version, view = service.act(game["id"], seat(active), {"type": "draw", "from": "discard"})
    assert new_version > version and view["seat"] == active and view["phase"] == "play"
    assert service.public_view(game["id"])[0] == new_version


def test_out_of_turn_and_seatless_callers_are_refused(service, game):
    _, state = service.load(game["id"])
    idle = (awaiting(state).turn + 1) % 4
    with pytest.raises(RuleViolation):
        service.act(game["id"], seat(idle), {"type": "draw", "from": "discard"})
    with pytest.raises(Forbidden):
        service.act(game["id"], Principal(admin=True), {"type": "draw", "from": "discard"})
    with pytest.raises(Unauthorized):
        service.act(game["id"], Principal(), {"type": "draw", "from": "discard"})
    assert service.store.version(game["id"]) == game["version"]


def test_a_stale_if_match_is_a_conflict_and_appends_nothing(service, game):
    _, state = service.load(game["id"])
    active = awaiting(state).turn
    with pytest.raises(ConcurrencyError) as caught:
        service.act(game["id"], seat(active), {"type": "draw", "from": "discard"},
                    if_match=game["version"] - 1)
    assert caught.value.actual == game["version"]
    assert service.store.version(game["id"]) == game["version"]


def test_a_conflict_without_if_match_is_re_decided_on_the_newer_state(service, game):
    waiting = draw_from_stock_opening_an_offer(service, game["id"])
    first, second = waiting[0], waiting[1]
    real_append = service.store.append
    raced = []

    def racing_append(*args, **kwargs):
        if not raced:  # another seat's answer lands between our load and our append
            raced.append(None)
            raced[0] = service.act(game["id"], seat(second), {"type": "pass"})
        return real_append(*args, **kwargs)

    service.store.append = racing_append
    try:
        version, view = service.act(game["id"], seat(first), {"type": "pass"})
    finally:
        service.store.append = real_append
    assert version > raced[0][0]
    types = [e.type for e in service.store.read(game["id"], after=raced[0][0] - 1)]
    assert types.count("BuyPassed") == 2


def test_a_retry_with_the_same_key_returns_the_first_result(service, game):
    _, state = service.load(game["id"])
    active = awaiting(state).turn
    action = {"type": "draw", "from": "discard"}
    first = service.act(game["id"], seat(active), action, idempotency_key="k1")
    again = service.act(game["id"], seat(active), action, idempotency_key="k1")
    assert again == first and service.store.version(game["id"]) == first[0]
    with pytest.raises(IdempotencyKeyReused):
        service.act(game["id"], seat(active), {"type": "draw", "from": "stock"}, idempotency_key="k1")


def test_event_feeds_hide_other_hands_and_the_stock(service, game):
    play(service, game["id"], 30, random.Random(1))
    _, state = service.load(game["id"])
    for who in (seat(0), Principal()):
        feed = service.events(game["id"], who)
        assert [e["version"] for e in feed] == list(range(1, service.store.version(game["id"]) + 1))
        dealt = next(e for e in feed if e["type"] == "RoundDealt")
        assert "deck" not in dealt["data"]
    live_admin = service.events(game["id"], Principal(admin=True))  # issue 7 item 8
    assert "deck" not in next(e for e in live_admin if e["type"] == "RoundDealt")["data"]
    full = service.events(game["id"], Principal(admin=True, server=True))
    assert "deck" in next(e for e in full if e["type"] == "RoundDealt")["data"]


def test_long_poll_returns_new_events_or_times_out(service, game):
    started = time.monotonic()
    assert service.events(game["id"], seat(0), after=game["version"], wait_s=0.5) == []
    assert time.monotonic() - started >= 0.45
    _, state = service.load(game["id"])
    active = awaiting(state).turn
    timer = threading.Timer(0.3, service.act, (game["id"], seat(active), {"type": "draw", "from": "discard"}))
    timer.start()
    got = service.events(game["id"], seat(0), after=game["version"], wait_s=5)
    timer.join()
    assert got and got[0]["version"] == game["version"] + 1


def test_replay_shows_the_callers_view_at_that_version(service, game):
    _, state = service.load(game["id"])
    active = awaiting(state).turn
    version, view = service.act(game["id"], seat(active), {"type": "draw", "from": "discard"})
    play(service, game["id"], 10, random.Random(2))
    replayed = service.replay(game["id"], seat(active), version)
    assert replayed.pop("recorded_at").endswith("Z")
    assert replayed == {**view, "version": version}
    assert "hand" not in service.replay(game["id"], Principal(), version)
    live_admin = service.replay(game["id"], Principal(admin=True), version)
    assert live_admin == service.replay(game["id"], Principal(), version)  # issue 7 item 8
    full = service.replay(game["id"], Principal(admin=True, server=True), version)
    assert len(full["hands"]) == 4 and "stock" in full
    with pytest.raises(ValueError):
        service.replay(game["id"], seat(0), service.store.version(game["id"]) + 1)


def test_export_needs_a_finished_game_or_the_server_admin_and_import_recreates_it(service, game,
                                                                                  admin_key):
    play(service, game["id"], 20, random.Random(3))
    for caller in (seat(0), Principal(admin=True)):
        with pytest.raises(Forbidden):
            service.export(game["id"], caller)
    unfinished = service.export(game["id"], Principal(admin=True, server=True))
    with pytest.raises(ValueError, match="finished"):
        service.import_game(unfinished, admin_key=admin_key)
    finished = service.import_game(finished_record(), admin_key=admin_key)
    record = service.export(finished["id"], seat(0))
    with pytest.raises(Forbidden):
        service.import_game(record, admin_key="wrong")
    copy = service.import_game(record, admin_key=admin_key)
    assert copy["id"] != finished["id"] and copy["version"] == record["version"]
    assert service.public_view(copy["id"]) == service.public_view(finished["id"])
    assert service.seat_view(copy["id"], seat(1))[1] == service.seat_view(finished["id"], seat(1))[1]


def test_a_position_needs_the_server_admin_key(service, admin_key):
    position = {"deal": {"round": 3, "dealer": 1}}
    with pytest.raises(Forbidden):
        service.create_game(HUMANS, position=position)
    created = service.create_game(HUMANS, position=position, admin_key=admin_key)
    assert service.public_view(created["id"])[1]["round"] == 3


def test_deleting_every_snapshot_changes_nothing(make_service, redis_client):
    service = make_service()
    game = service.create_game(HUMANS, seed=5)
    play(service, game["id"], 150, random.Random(4))
    version = service.store.version(game["id"])
    assert version > 100 and redis_client.keys("rummy:*:snap:*")
    before = [service.seat_view(game["id"], seat(s)) for s in range(4)]
    replays = [service.replay(game["id"], seat(0), v) for v in (2, 50, 100, version)]
    for key in redis_client.keys("rummy:*:snap*"):
        redis_client.delete(key)
    fresh = make_service()
    assert [fresh.seat_view(game["id"], seat(s)) for s in range(4)] == before
    assert [fresh.replay(game["id"], seat(0), v) for v in (2, 50, 100, version)] == replays


def test_follow_ups_run_after_every_append_and_logs_show_no_card(make_service, caplog):
    calls = []
    service = make_service(enqueue_followups=lambda g, v, s: calls.append((g, v, awaiting(s).status)))
    with caplog.at_level("INFO", logger="service.games"):
        game = service.create_game(HUMANS, seed=3)
        play(service, game["id"], 5, random.Random(5))
    versions = [v for _, v, _ in calls]
    assert versions[0] == game["version"] and versions == sorted(versions)
    assert versions[-1] == service.store.version(game["id"])
    messages = [r.getMessage() for r in caplog.records if r.name == "service.games"]
    assert messages and all(f"game={game['id']}" in m and "version=" in m for m in messages)
    assert not any(CARD.search(m) for m in messages)


def listed_in_pages_of_two(service):
    """The ids of every game, walking list_games two at a time by its cursor."""
    seen, cursor = [], None
    while True:
        page = service.list_games(limit=2, cursor=cursor)
        seen += [item["id"] for item in page["items"]]
        if not (cursor := page["next_cursor"]):
            return seen


def test_list_games_pages_newest_first_then_by_id_and_filters_by_status(service):
    ids = [service.create_game(HUMANS)["id"] for _ in range(5)]
    seen = listed_in_pages_of_two(service)
    # Newest first by creation ms; games of the same millisecond by id, descending.
    assert seen == sorted(ids, key=lambda g: (service.record(g).created_ms, g), reverse=True)
    assert len(service.list_games(status="playing", limit=10)["items"]) == 5
    assert service.list_games(status="finished")["items"] == []
    with pytest.raises(ValueError):
        service.list_games(cursor="garbage!")
    with pytest.raises(ValueError):
        service.list_games(status="lost")


def test_games_of_the_same_millisecond_page_by_id_each_exactly_once(service):
    ids = [f"{n:016x}" for n in (3, 10, 7, 1, 12)]
    for game_id in ids:
        service.index.add(game_id, 1_700_000_000_000, 2, "playing", 1)
    seen = listed_in_pages_of_two(service)
    assert seen == sorted(ids, reverse=True)


def dealt_deck(service, game_id):
    """The deck recorded in the game's first RoundDealt."""
    return next(e.data["deck"] for e in service.store.read(game_id) if e.type == "RoundDealt")


def test_r2_3_a_known_seed_does_not_reveal_the_deal(service):
    """Security: the seed alone must not let a seat re-deal the game. The decision seed is
    HMAC-SHA256(server secret, seed), not the seed itself (RFC 2104)."""
    from domain import RuleProfile, event_to_dict, start_game
    game = service.create_game(HUMANS, seed=7)
    record = service.record(game["id"])
    assert record.rng_seed != "7" and len(record.rng_seed) == 64
    naive = [event_to_dict(e) for e in start_game(RuleProfile(), 4, random.Random("7:0"), seed="7")]
    assert naive[1]["data"]["deck"] != dealt_deck(service, game["id"])


def test_r2_3_the_same_seed_on_the_same_secret_deals_the_same_game_another_secret_does_not(
        service, make_service, redis_url, admin_key):
    from service.bootstrap import wire
    from service.config import Settings
    one = service.create_game(HUMANS, seed=7, admin_key=admin_key)
    two = make_service().create_game(HUMANS, seed=7, admin_key=admin_key)
    assert dealt_deck(service, one["id"]) == dealt_deck(service, two["id"])
    other = wire(Settings(redis_url=redis_url, secret="another-secret",
                          admin_key=admin_key)).service
    three = other.create_game(HUMANS, seed=7, admin_key=admin_key)
    assert dealt_deck(service, three["id"]) != dealt_deck(service, one["id"])


def offer_open(service, game_id):
    """The active seat draws from the stock, which opens a buy offer (R6.1); its seat."""
    _, state = service.load(game_id)
    turn = awaiting(state).turn
    service.act(game_id, seat(turn), {"type": "draw", "from": "stock"})
    assert service.load(game_id)[1].round.offer is not None
    return turn


def racing_append(monkeypatch, service, before):
    """Make the service's next append first let `before()` append (another request won)."""
    real, raced = service.store.append, []

    def append(*args, **kwargs):
        if not raced:
            raced.append(True)
            before()
        return real(*args, **kwargs)
    monkeypatch.setattr(service.store, "append", append)


def test_r6_1_a_buy_that_lost_a_race_is_not_redecided_on_the_next_offer(service, make_service,
                                                                       game, monkeypatch):
    turn = offer_open(service, game["id"])
    nearest, next_one = (turn + 1) % 4, (turn + 2) % 4
    other = make_service()
    racing_append(monkeypatch, service,  # the nearest seat wins the card at once (R6.9)
                  lambda: other.act(game["id"], seat(nearest), {"type": "buy"}))
    with pytest.raises(ConcurrencyError):
        service.act(game["id"], seat(next_one), {"type": "buy"})
    answers = [e.data["seat"] for e in service.store.read(game["id"]) if e.type == "BuyRequested"]
    assert answers == [nearest]  # the late buy bought nothing, not the next card offered


def test_r6_9_an_answer_racing_an_answer_to_the_same_offer_is_redecided(service, make_service,
                                                                       game, monkeypatch):
    turn = offer_open(service, game["id"])
    nearest, farthest = (turn + 1) % 4, (turn + 3) % 4
    other = make_service()
    racing_append(monkeypatch, service,
                  lambda: other.act(game["id"], seat(farthest), {"type": "buy"}))
    service.act(game["id"], seat(nearest), {"type": "pass"})  # same offer: re-decided
    offer = service.load(game["id"])[1].round.offer
    assert offer.buyers == (farthest,) and offer.passed == (nearest,)


def test_idempotency_keys_are_per_seat_so_two_seats_may_use_the_same_key(service, game):
    turn = offer_open(service, game["id"])
    first, second = (turn + 1) % 4, (turn + 2) % 4
    one, _ = service.act(game["id"], seat(first), {"type": "pass"}, idempotency_key="same")
    two, _ = service.act(game["id"], seat(second), {"type": "pass"}, idempotency_key="same")
    assert two == one + 1
    assert service.act(game["id"], seat(second), {"type": "pass"}, idempotency_key="same")[0] == two


def test_a_game_record_is_read_from_redis_once_per_process(service, redis_client):
    game = service.create_game([{"kind": "human"}] * 4)
    before = redis_client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)
    for _ in range(3):
        service.records.get(game["id"])
    after = redis_client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)
    assert after - before <= 1
