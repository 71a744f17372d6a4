"""The game index on a single server and on a real Redis Cluster (issue 12, docs/cluster.md):
its sets are sharded by hash tag (`rummy:{games:<n>}:...`), each script touches one slot,
pages merge the shards newest first with the opaque cursor, and a crash between the summary
and the shard step is repaired."""
from __future__ import annotations

import pytest

from service.index import STATUSES, WAITING, GameIndex
from service.keys import INDEX_SHARDS, index_key, index_shard, summary_key


@pytest.fixture(params=["single", "cluster"])
def client(request):
    """A flushed client of the session's single server, then of the cluster."""
    name = "redis_client" if request.param == "single" else "cluster_client"
    return request.getfixturevalue(name)


def walk(index: GameIndex, status: str | None, limit: int) -> list[str]:
    """Every id of the listing, page by page."""
    ids, cursor = [], None
    while True:
        page = index.page(status, limit, cursor)
        ids += [item["id"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return ids


def test_pages_merge_every_shard_newest_first_without_the_unlisted(client):
    index = GameIndex(client)
    games = {f"game{n:02d}": (1000 + n // 3, STATUSES[n % 3 + 1]) for n in range(60)}
    for game, (created, status) in games.items():
        index.add(game, created, 1, status, 1)
    for game in ("game07", "game31"):
        index.unlist(game, games[game][0])
    assert len({index_shard(game) for game in games}) > INDEX_SHARDS // 2
    listed = {game: value for game, value in games.items() if game not in ("game07", "game31")}
    newest_first = sorted(listed, key=lambda game: (listed[game][0], game), reverse=True)
    assert walk(index, None, 7) == newest_first
    assert walk(index, "finished", 4) == [g for g in newest_first if listed[g][1] == "finished"]
    assert index.count("playing") == sum(1 for _, status in games.values() if status == "playing")
    scoring = sorted((created, game) for game, (created, status) in games.items()
                     if status == "scoring" and created <= 1010)
    assert index.created_before("scoring", 1010, limit=3) == [game for _, game in scoring[:3]]


def test_a_crash_between_the_summary_and_its_shard_is_repaired(client):
    index = GameIndex(client)
    index.add("g", 1000, 3, "playing", 1, waiting=True)
    client.hset(summary_key("g"), mapping={"version": 9, "status": "finished", "waiting": 0})
    shard = index_shard("g")
    assert client.zscore(index_key(shard, WAITING), "g") is not None  # the shard is behind
    assert walk(index, "playing", 5) == []  # a page never lists it under a status it left
    assert index.repair("g") == "finished"
    assert client.zscore(index_key(shard, WAITING), "g") is None
    assert walk(index, "finished", 5) == ["g"]
    index.update("g", 5, "playing", 1, waiting=True)  # a late, older update changes nothing
    assert walk(index, "finished", 5) == ["g"]
    assert client.zscore(index_key(shard, WAITING), "g") is None
    index.drop("g")
    assert walk(index, None, 5) == [] and not client.hexists(index_key(shard, "versions"), "g")
