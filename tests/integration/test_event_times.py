"""Compact stream entries (issue 12, memory per game): `at` is stored as ms since the game's
first event (absolute on that one) and `schema` is left out when 1, yet every read returns the
absolute time the append recorded, from any starting version and from a fresh process, and
entries written in the older form (absolute times, schema 1 stored) still read the same."""
from __future__ import annotations

import json
import random
import time

from domain import event_to_dict, fold
from domain.simulation import play_game

from service.connections import connect
from service.keys import events_key
from service.loading import to_domain
from service.notify import Notifier
from service.redis_store import RedisEventStore

GAME = "times"


def fresh_store(redis_url) -> RedisEventStore:
    """Another process's store: nothing cached."""
    return RedisEventStore(connect(redis_url), Notifier(connect(redis_url)))


def ev(n: int, schema: int = 1) -> dict:
    return {"type": "Noted", "schema": schema, "data": {"n": n}}


def test_every_read_gives_the_time_each_append_recorded(redis_url, redis_client):
    store = fresh_store(redis_url)
    stamps = []
    for version in range(4):
        stamps.append(store.append(GAME, [ev(version), ev(version, schema=2)], version * 2)
                      .recorded_at)
        time.sleep(0.002)
    expected = [stamp for stamp in stamps for _ in range(2)]
    fields = [fields for _, fields in redis_client.xrange(events_key(GAME))]
    assert int(fields[0][b"at"]) == stamps[0] and int(fields[2][b"at"]) < 10**6
    assert b"schema" not in fields[2] and fields[3][b"schema"] == b"2"
    for after in range(8):
        read = fresh_store(redis_url).read(GAME, after=after)
        assert [e.recorded_at for e in read] == expected[after:]
        assert [e.schema for e in read] == ([1, 2] * 4)[after:]
        assert read == store.read(GAME, after=after)


def test_entries_of_the_older_form_read_the_same(redis_url, redis_client):
    key = events_key(GAME)
    for version, at in ((1, 1_700_000_000_000), (2, 1_700_000_000_500)):
        redis_client.xadd(key, {"type": "Noted", "schema": 1, "data": '{"n":1}', "at": at},
                          id=f"0-{version}")
    store = fresh_store(redis_url)
    recorded = store.append(GAME, [ev(3)], 2).recorded_at
    assert [e.recorded_at for e in fresh_store(redis_url).read(GAME, after=1)] == \
        [1_700_000_000_500, recorded]
    assert [e.schema for e in store.read(GAME)] == [1, 1, 1]


def test_a_game_stored_in_the_full_form_reads_and_folds_as_in_the_compact_form(redis_url,
                                                                               redis_client):
    """Entries written before service.compact_events (type, data, at; a game's first `at`
    absolute) read as they did, also when the game goes on in the compact form (t, d, a)."""
    events = [event_to_dict(e) for e in play_game(("basic",) * 4, random.Random(2)).events]
    old, new, first_at = "full-form", "compact-form", 1_700_000_000_000
    for version, event in enumerate(events[:300], 1):
        data = json.dumps(event["data"], sort_keys=True, separators=(",", ":"))
        redis_client.xadd(events_key(old), {"type": event["type"], "data": data,
                                            "at": first_at if version == 1 else version},
                          id=f"0-{version}")
    store = fresh_store(redis_url)
    recorded = store.append(old, events[300:], 300).recorded_at  # goes on in the compact form
    store.append(new, events[:300], 0)
    store.append(new, events[300:], 300)
    fields = [fields for _, fields in redis_client.xrange(events_key(old))]
    assert set(fields[299]) == {b"type", b"data", b"at"} and set(fields[300]) == {b"t", b"d", b"a"}
    read_old, read_new = fresh_store(redis_url).read(old), fresh_store(redis_url).read(new)
    expected = [(n, e["type"], e["schema"], e["data"]) for n, e in enumerate(events, 1)]
    assert [(e.version, e.type, e.schema, e.data) for e in read_old] == expected
    assert [(e.version, e.type, e.schema, e.data) for e in read_new] == expected
    assert [e.recorded_at for e in read_old] == \
        [first_at] + [first_at + n for n in range(2, 301)] + [recorded] * (len(events) - 300)
    assert fold(to_domain(read_old)) == fold(to_domain(read_new))
