"""The event-store contract (DESIGN §4, docs/architecture.md §2), one suite run against every
store, modelled on pyeventsourcing's recorder tests. Redis cases use a real server."""
from __future__ import annotations

import threading
import time

import pytest
import redis
from redis.cluster import RedisCluster

from service.connections import connect
from service.keys import events_key, idem_key
from service.notify import Notifier
from service.redis_store import RedisEventStore
from service.store import (ConcurrencyError, IdempotencyInProgress, IdempotencyKeyReused,
                           InMemoryEventStore, StoreError, StoreUnavailable)

GAME = "g1"
SHORT_CLAIM_S = 0.3


def ev(n: int, kind: str = "Noted") -> dict:
    return {"type": kind, "schema": 1, "data": {"n": n}}


class StoreContract:
    """Every EventStore must pass these; subclasses provide the `store` fixture."""

    def test_first_event_is_version_one(self, store):
        assert store.version(GAME) == 0
        result = store.append(GAME, [ev(1)], 0)
        assert (result.version, result.duplicate) == (1, False)
        assert [e.to_dict() for e in store.read(GAME)] == [
            {"version": 1, "type": "Noted", "schema": 1, "data": {"n": 1}}]

    def test_stale_expected_version_is_refused_and_nothing_written(self, store):
        store.append(GAME, [ev(1), ev(2)], 0)
        with pytest.raises(ConcurrencyError) as caught:
            store.append(GAME, [ev(3), ev(4)], 1)
        assert (caught.value.expected, caught.value.actual) == (1, 2)
        with pytest.raises(ConcurrencyError):
            store.append(GAME, [ev(3)], 5)
        assert store.version(GAME) == 2
        assert [e.data["n"] for e in store.read(GAME)] == [1, 2]

    def test_a_batch_gets_consecutive_versions(self, store):
        assert store.append(GAME, [ev(1), ev(2), ev(3)], 0).version == 3
        assert [e.version for e in store.read(GAME)] == [1, 2, 3]

    def test_a_batch_with_a_malformed_event_writes_nothing(self, store):
        with pytest.raises(ValueError):
            store.append(GAME, [ev(1), {"type": "Bad", "schema": "1", "data": {}}], 0)
        assert store.version(GAME) == 0 and store.read(GAME) == []

    def test_an_empty_batch_writes_nothing(self, store):
        assert store.append(GAME, [], 0, idempotency_key="k", fingerprint="f").version == 0
        assert store.version(GAME) == 0 and store.read(GAME) == []
        result = store.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="other")
        assert (result.version, result.duplicate) == (1, False)

    def test_an_empty_batch_still_checks_the_expected_version(self, store):
        store.append(GAME, [ev(1)], 0)
        with pytest.raises(ConcurrencyError):
            store.append(GAME, [], 0)

    def test_reads_all_after_and_upto(self, store):
        store.append(GAME, [ev(n) for n in range(1, 11)], 0)
        versions = lambda **kw: [e.version for e in store.read(GAME, **kw)]  # noqa: E731
        assert versions() == list(range(1, 11))
        assert versions(after=7) == [8, 9, 10]
        assert versions(upto=3) == [1, 2, 3]
        assert versions(after=3, upto=5) == [4, 5]
        assert versions(after=10) == [] and versions(upto=0) == [] and versions(after=5, upto=5) == []
        assert versions(upto=99) == list(range(1, 11))
        assert store.read("unknown") == [] and store.version("unknown") == 0

    def test_streams_are_per_game(self, store):
        store.append("a", [ev(1)], 0)
        store.append("b", [ev(2), ev(3)], 0)
        assert (store.version("a"), store.version("b")) == (1, 2)

    def test_racing_writers_leave_a_gapless_stream_without_duplicates(self, store):
        writers, appends = 10, 100

        def write(writer: int) -> None:
            for i in range(appends):
                while True:
                    try:
                        store.append(GAME, [{"type": "Noted", "schema": 1,
                                             "data": {"w": writer, "i": i}}], store.version(GAME))
                        break
                    except ConcurrencyError:
                        continue

        threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        events = store.read(GAME)
        assert [e.version for e in events] == list(range(1, writers * appends + 1))
        assert sorted((e.data["w"], e.data["i"]) for e in events) == [
            (w, i) for w in range(writers) for i in range(appends)]

    def test_same_idempotency_key_returns_the_first_result_and_appends_nothing(self, store):
        first = store.append(GAME, [ev(1), ev(2)], 0, idempotency_key="k1", fingerprint="fp")
        store.append(GAME, [ev(3)], 2)
        again = store.append(GAME, [ev(1), ev(2)], 0, idempotency_key="k1", fingerprint="fp")
        assert (first.version, again.version, again.duplicate) == (2, 2, True)
        assert store.version(GAME) == 3

    def test_same_idempotency_key_with_another_fingerprint_is_refused(self, store):
        store.append(GAME, [ev(1)], 0, idempotency_key="k1", fingerprint="fp")
        with pytest.raises(IdempotencyKeyReused):
            store.append(GAME, [ev(9)], 1, idempotency_key="k1", fingerprint="other")
        assert store.version(GAME) == 1

    def test_a_refused_append_does_not_consume_its_idempotency_key(self, store):
        store.append(GAME, [ev(1)], 0)
        with pytest.raises(ConcurrencyError):
            store.append(GAME, [ev(2)], 0, idempotency_key="k", fingerprint="fp")
        assert store.append(GAME, [ev(2)], 1, idempotency_key="k", fingerprint="fp").version == 2

    def test_a_claimed_key_is_answered_by_its_first_append(self, store):
        assert store.claim(GAME, "k", "fp", "c1") is None
        assert store.claim(GAME, "k", "fp", "c1") is None  # the claimant again
        store.append(GAME, [ev(1), ev(2)], 0, idempotency_key="k", fingerprint="fp", claim="c1")
        assert store.claim(GAME, "k", "fp", "c2") == 2
        with pytest.raises(IdempotencyKeyReused):
            store.claim(GAME, "k", "other", "c3")

    def test_a_key_claimed_by_another_request_is_in_progress(self, store):
        store.claim(GAME, "k", "fp", "c1")
        with pytest.raises(IdempotencyInProgress):
            store.claim(GAME, "k", "fp", "c2")
        with pytest.raises(IdempotencyKeyReused):
            store.claim(GAME, "k", "other", "c2")
        with pytest.raises(IdempotencyInProgress):
            store.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="fp", claim="c2")
        assert store.version(GAME) == 0

    def test_a_released_claim_frees_the_key_and_an_answered_key_stays(self, store):
        store.claim(GAME, "k", "fp", "c1")
        store.release(GAME, "k", "c2")  # not its claim: nothing
        with pytest.raises(IdempotencyInProgress):
            store.claim(GAME, "k", "fp", "c2")
        store.release(GAME, "k", "c1")
        assert store.claim(GAME, "k", "other", "c2") is None
        store.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="other", claim="c2")
        store.release(GAME, "k", "c2")
        assert store.claim(GAME, "k", "other", "c3") == 1

    def test_a_claim_whose_claimant_died_lapses(self, short_claims):
        short_claims.claim(GAME, "k", "fp", "dead")
        with pytest.raises(IdempotencyInProgress):
            short_claims.claim(GAME, "k", "fp", "c2")
        time.sleep(SHORT_CLAIM_S + 0.2)
        assert short_claims.claim(GAME, "k", "fp", "c2") is None
        with pytest.raises(IdempotencyInProgress):  # the dead claimant, back, appends nothing
            short_claims.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="fp",
                                claim="dead")
        assert short_claims.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="fp",
                                   claim="c2").version == 1

    def test_idempotency_keys_are_per_game(self, store):
        store.append("a", [ev(1)], 0, idempotency_key="k", fingerprint="fp")
        assert store.append("b", [ev(1)], 0, idempotency_key="k", fingerprint="fp").duplicate is False

    def test_wait_returns_existing_events_at_once(self, store):
        store.append(GAME, [ev(1), ev(2)], 0)
        started = time.monotonic()
        assert [e.version for e in store.wait(GAME, 1, 5)] == [2]
        assert time.monotonic() - started < 1

    def test_wait_returns_events_appended_while_waiting(self, store):
        store.append(GAME, [ev(1)], 0)
        timer = threading.Timer(0.3, lambda: store.append(GAME, [ev(2), ev(3)], 1))
        timer.start()
        started = time.monotonic()
        got = store.wait(GAME, 1, 5)
        timer.join()
        assert [e.version for e in got] == [2, 3]
        assert 0.2 < time.monotonic() - started < 3

    def test_wait_times_out_with_nothing(self, store):
        store.append(GAME, [ev(1)], 0)
        started = time.monotonic()
        assert store.wait(GAME, 1, 0.5) == []
        assert 0.45 < time.monotonic() - started < 2
        assert store.wait(GAME, 1, 0) == []

    def test_a_drained_store_ends_every_wait_at_once(self, store):
        store.append(GAME, [ev(1)], 0)
        timer = threading.Timer(0.3, store.drain)
        timer.start()
        started = time.monotonic()
        assert store.wait(GAME, 1, 10) == []
        timer.join()
        assert time.monotonic() - started < 2 and store.draining
        started = time.monotonic()
        assert store.wait(GAME, 0, 10)[0].version == 1 and store.wait(GAME, 1, 10) == []
        assert time.monotonic() - started < 0.5


    def test_appends_holding_a_connection_keep_the_contract(self, store):
        with store.own_connection():
            store.append(GAME, [ev(1), ev(2)], 0)
            with pytest.raises(ConcurrencyError):
                store.append(GAME, [ev(3)], 1)
            store.append(GAME, [ev(3)], 2, idempotency_key="k", fingerprint="fp")
            assert store.append(GAME, [ev(3)], 2, idempotency_key="k",
                                fingerprint="fp").duplicate
        store.append(GAME, [ev(4)], 3)
        assert [e.data["n"] for e in store.read(GAME)] == [1, 2, 3, 4]


class TestInMemoryEventStore(StoreContract):
    @pytest.fixture
    def store(self):
        return InMemoryEventStore()

    @pytest.fixture
    def short_claims(self):
        return InMemoryEventStore(claim_ttl_s=SHORT_CLAIM_S)


class TestRedisEventStore(StoreContract):
    @pytest.fixture
    def store(self, redis_url, redis_client):
        # Its own notifier (not the process's shared one), since one test drains it.
        notifier = Notifier(connect(redis_url))
        yield RedisEventStore(connect(redis_url), notifier)
        notifier.close()

    @pytest.fixture
    def short_claims(self, redis_url, redis_client):
        notifier = Notifier(connect(redis_url))
        yield RedisEventStore(connect(redis_url), notifier,
                              claim_ttl_s=SHORT_CLAIM_S)
        notifier.close()

    def test_a_claim_lives_seconds_and_an_answer_a_day(self, store, redis_client):
        store.claim(GAME, "k", "fp", "c1")
        assert 0 < redis_client.pttl(idem_key(GAME, "k")) <= 10_000
        store.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="fp", claim="c1")
        assert redis_client.ttl(idem_key(GAME, "k")) > 24 * 3600 - 10
        assert redis_client.hget(idem_key(GAME, "k"), "claim") is None

    def test_entries_use_explicit_ids_and_hash_tagged_keys(self, store, redis_client):
        store.append(GAME, [ev(1), ev(2)], 0, idempotency_key="k", fingerprint="fp")
        assert [entry_id for entry_id, _ in redis_client.xrange(events_key(GAME))] == [b"0-1", b"0-2"]
        assert sorted(list(redis_client.scan_iter())) == sorted(
            [events_key(GAME).encode(), idem_key(GAME, "k").encode()])
        assert all(b"{g1}" in key for key in list(redis_client.scan_iter()))

    def test_idempotency_keys_expire_after_a_day(self, store, redis_client):
        store.append(GAME, [ev(1)], 0, idempotency_key="k", fingerprint="fp")
        assert 24 * 3600 - 10 < redis_client.ttl(idem_key(GAME, "k")) <= 24 * 3600

    def test_an_empty_batch_creates_no_key(self, store, redis_client):
        store.append(GAME, [], 0, idempotency_key="k", fingerprint="fp")
        assert list(redis_client.scan_iter()) == []

    def test_backend_errors_become_store_errors(self, store, redis_client):
        redis_client.set(events_key(GAME), "not a stream")
        with pytest.raises(StoreError) as caught:
            store.append(GAME, [ev(1)], 0)
        assert not isinstance(caught.value, redis.RedisError)
        with pytest.raises(StoreError):
            store.read(GAME)

    def test_an_unreachable_server_is_store_unavailable(self):
        dead = RedisEventStore.from_url("redis://127.0.0.1:1")
        with pytest.raises(StoreUnavailable):
            dead.version(GAME)

    def test_a_thread_holding_its_connection_takes_none_from_the_pool_per_append(
            self, store, monkeypatch):
        if isinstance(store._client, RedisCluster):
            pytest.skip("a Cluster client keeps a pool per node: nothing is pinned")
        pool, taken, given = store._client.connection_pool, [], []
        get_connection, release = pool.get_connection, pool.release
        monkeypatch.setattr(pool, "get_connection", lambda: taken.append(1) or get_connection())
        monkeypatch.setattr(pool, "release", lambda conn: given.append(1) or release(conn))
        with store.own_connection():
            for version in range(20):
                store.append(GAME, [ev(version)], version)
            assert (len(taken), len(given)) == (1, 0)  # held since the first append
            other = threading.Thread(target=store.append, args=(GAME, [ev(20)], 20))
            other.start()
            other.join()
            assert (len(taken), len(given)) == (2, 1)  # another thread's append is not pinned
        assert len(given) == 2  # the held connection went back to the pool
        store.append(GAME, [ev(21)], 21)
        assert (len(taken), len(given)) == (3, 3) and store.version(GAME) == 22

    def test_a_held_connection_the_server_closed_is_reconnected_not_failed(self, store,
                                                                          redis_client):
        if isinstance(store._client, RedisCluster):
            pytest.skip("a Cluster client keeps a pool per node: nothing is pinned")
        with store.own_connection():
            store.append(GAME, [ev(1)], 0)
            held = store._own.client.get()
            redis_client.client_kill_filter(_id=held.client_id())  # a restart, an idle cut
            time.sleep(0.05)
            assert store.append(GAME, [ev(2)], 1).version == 2  # not StoreUnavailable
            assert held.client_id() is not None  # the same client, on a new connection

    def test_a_nested_block_gives_the_outer_connection_back_its_place(self, store):
        if isinstance(store._client, RedisCluster):
            pytest.skip("a Cluster client keeps a pool per node: nothing is pinned")
        with store.own_connection():
            outer = store._own.client
            with store.own_connection():
                assert store._own.client is not outer
            assert store._own.client is outer
            store.append(GAME, [ev(1)], 0)
        assert getattr(store._own, "client", None) is None

    def test_wait_is_capped_at_the_longest_wait(self, redis_url, redis_client):
        notifier = Notifier(connect(redis_url))
        store = RedisEventStore(connect(redis_url), notifier, max_wait_s=0.5)
        started = time.monotonic()
        assert store.wait(GAME, 0, 30) == []
        assert time.monotonic() - started < 3
        notifier.close()


class TestRedisClusterEventStore(TestRedisEventStore):
    """The same suite on a real Redis Cluster (three primaries, three replicas: issue 12,
    docs/cluster.md): a game's keys share its slot, so every script runs there."""

    @pytest.fixture
    def redis_url(self, redis_cluster):
        return redis_cluster.url

    @pytest.fixture
    def redis_client(self, cluster_client):
        return cluster_client

    def test_a_game_is_on_one_node_and_games_spread_over_the_primaries(self, store,
                                                                       redis_cluster):
        games = [f"game{n}" for n in range(30)]
        for game in games:
            store.append(game, [ev(1)], 0, idempotency_key="k", fingerprint="fp")
        homes = {game: redis_cluster.primary_port(events_key(game)) for game in games}
        assert all(redis_cluster.primary_port(idem_key(game, "k")) == homes[game]
                   for game in games)
        assert len(set(homes.values())) == 3
