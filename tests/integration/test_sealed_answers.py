"""Answers that carry tokens are kept sealed (service.sealed_answers, docs/service.md "Sealed
answers"): a retry gets the same tokens, yet Redis holds neither a token nor an
Idempotency-Key in plain text, and another key (or another scope) reads nothing."""
from __future__ import annotations

import pytest

from service.sealed_answers import Slot, join_slot, keep, kept, spectator_slot, unseal
from service.store import IdempotencyKeyReused
from tests.integration.api_client import app, bearer, client  # noqa: F401

LOBBY = [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"},
         {"kind": "bot", "name": "B", "level": "basic"}]
CREATE_KEY, JOIN_KEY, SPECTATE_KEY = ("create-key-0123456789abcdef", "join-key-0123456789abcdef",
                                      "spectate-key-0123456789abcdef")


def everything_in(redis_client) -> bytes:
    """Every key name and value Redis holds, whatever its type, as one byte string."""
    readers = {b"string": lambda k: [redis_client.get(k)],
               b"hash": lambda k: [b for kv in redis_client.hgetall(k).items() for b in kv],
               b"set": lambda k: list(redis_client.smembers(k)),
               b"zset": lambda k: redis_client.zrange(k, 0, -1),
               b"list": lambda k: redis_client.lrange(k, 0, -1),
               b"stream": lambda k: [b for _, fields in redis_client.xrange(k)
                                     for kv in fields.items() for b in kv]}
    found = []
    for name in redis_client.scan_iter(count=1000):
        found.append(name)
        found.extend(v for v in readers[redis_client.type(name)](name) if v is not None)
    return b"\n".join(found)


def test_retries_get_their_tokens_and_redis_holds_no_token_nor_key_in_plain_text(
        client, redis_client):
    body = {"seats": LOBBY, "seed": 4}
    created = client.post("/v1/games", json=body, headers={"Idempotency-Key": CREATE_KEY})
    game = created.get_json()
    join = {"code": game["join_code"], "name": "Ann"}
    joined = client.post("/v1/games/join", json=join, headers={"Idempotency-Key": JOIN_KEY})
    spectate = {**bearer(game["admin_token"]), "Idempotency-Key": SPECTATE_KEY}
    url = f"/v1/games/{game['id']}/spectators"
    spectator = client.post(url, headers=spectate)
    assert (created.status_code, joined.status_code, spectator.status_code) == (201, 201, 201)
    # the retries: the same answers, tokens included
    assert client.post("/v1/games", json=body,
                       headers={"Idempotency-Key": CREATE_KEY}).get_json() == game
    assert client.post("/v1/games/join", json=join,
                       headers={"Idempotency-Key": JOIN_KEY}).get_json() == joined.get_json()
    assert client.post(url, headers=spectate).get_json() == spectator.get_json()
    secrets = [game["admin_token"], game["seats"][0]["token"], joined.get_json()["token"],
               spectator.get_json()["token"], CREATE_KEY, JOIN_KEY, SPECTATE_KEY]
    dump = everything_in(redis_client)
    assert b"-answer:" in dump  # the answers are there, sealed
    assert [s for s in secrets if s.encode() in dump] == []


def test_an_answer_kept_for_one_key_is_read_by_no_other_key_nor_scope(redis_client):
    slot, answer = join_slot("g1"), {"game_id": "g1", "seat": 1, "token": "t" * 43}
    assert keep(redis_client, slot, JOIN_KEY, answer, fingerprint="Ann")
    assert kept(redis_client, slot, JOIN_KEY, fingerprint="Ann") == answer
    assert kept(redis_client, slot, JOIN_KEY + "x", fingerprint="Ann") is None
    assert kept(redis_client, join_slot("g2"), JOIN_KEY, fingerprint="Ann") is None
    assert kept(redis_client, spectator_slot("g1"), JOIN_KEY, fingerprint="Ann") is None
    with pytest.raises(IdempotencyKeyReused):  # the key, with another request's fingerprint
        kept(redis_client, slot, JOIN_KEY, fingerprint="Bob")
    sealed = redis_client.get(slot.redis_key(JOIN_KEY))
    for key, other in ((JOIN_KEY + "x", slot), (JOIN_KEY, Slot("join", "g2", "g2"))):
        with pytest.raises(IdempotencyKeyReused):  # moved or opened with another key: refused
            unseal(other, key, sealed)


def test_only_new_keeps_the_first_answer(redis_client):
    slot = spectator_slot("g1")
    assert keep(redis_client, slot, SPECTATE_KEY, {"token": "first"}, only_new=True)
    assert not keep(redis_client, slot, SPECTATE_KEY, {"token": "second"}, only_new=True)
    assert kept(redis_client, slot, SPECTATE_KEY) == {"token": "first"}
    assert 0 < redis_client.ttl(slot.redis_key(SPECTATE_KEY)) <= 24 * 3600


@pytest.mark.parametrize("claim_ms, produced", [(2_000, 1), (100, 2)])
def test_a_key_is_held_for_its_claim_time_while_the_first_request_is_carried_out(
        redis_client, claim_ms, produced):
    """A request racing the first waits while the claim holds (the import holds its key for
    minutes, routes.IMPORT_CLAIM_MS: a big record replays for seconds); once a claim lapses
    before the answer, a retry produces a second one."""
    import threading
    import time

    from service.sealed_answers import creation_slot, once
    calls, answers = [], []

    def produce() -> dict:
        calls.append(1)
        made = f"game-{len(calls)}"
        time.sleep(0.5)
        return {"id": made}

    def request() -> None:
        answers.append(once(redis_client, creation_slot("admin:import"), "k" * 32, "same",
                            produce, wait_s=2.0, claim_ms=claim_ms))
    first = threading.Thread(target=request)
    first.start()
    time.sleep(0.25)
    request()
    first.join()
    assert len(calls) == produced
    assert (answers[0] == answers[1]) == (produced == 1)
