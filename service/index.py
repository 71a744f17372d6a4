"""The game index for listing (issue 3: status, creation time, paging).

A read model beside the streams: `rummy:games` (and `rummy:games:<status>`) are sorted sets of
game ids scored by creation time in ms; `rummy:{<game>}:summary` holds status, round, version
and creation time. Updated after every append; a summary never goes back to an older version.
Pages are newest first; the cursor is opaque (creation ms and id of the last item).
"""
from __future__ import annotations

import base64
from datetime import datetime, timezone

import redis

from service.keys import index_key, summary_key
from service.redis_store import backend_errors

STATUSES = ("playing", "scoring", "finished")
MAX_LIMIT = 100
# Set the summary unless it already holds a newer version; return the status it holds.
UPDATE_LUA = """
local held = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) > held then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'status', ARGV[2], 'round', ARGV[3])
end
return redis.call('HGET', KEYS[1], 'status')
"""


def encode_cursor(created_ms: int, game_id: str) -> str:
    """The opaque cursor after the item (`created_ms`, `game_id`)."""
    return base64.urlsafe_b64encode(f"{created_ms}:{game_id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[int, str]:
    """(created_ms, game_id) of a cursor. Raises ValueError for a malformed one."""
    try:
        created, _, game_id = base64.urlsafe_b64decode(cursor.encode()).decode().partition(":")
        return int(created), game_id
    except (ValueError, UnicodeError) as error:
        raise ValueError("not a cursor of this list") from error


class GameIndex:
    """Listing of games by creation time, filtered by status, paged with a cursor."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._update = client.register_script(UPDATE_LUA)

    def add(self, game_id: str, created_ms: int, version: int, status: str, round_: int | None) -> None:
        """Index a new game."""
        with backend_errors():
            self._client.hset(summary_key(game_id), "created_ms", created_ms)
        self.update(game_id, version, status, round_, created_ms)

    def update(self, game_id: str, version: int, status: str, round_: int | None,
               created_ms: int | None = None) -> None:
        """Record the game at `version` (ignored when the summary holds a newer one)."""
        with backend_errors():
            held = self._update(keys=[summary_key(game_id)],
                                args=[version, status, "" if round_ is None else round_]).decode()
            created = created_ms or int(self._client.hget(summary_key(game_id), "created_ms"))
            pipe = self._client.pipeline(transaction=False)
            pipe.zadd(index_key(), {game_id: created})
            for other in STATUSES:
                if other == held:
                    pipe.zadd(index_key(other), {game_id: created})
                else:
                    pipe.zrem(index_key(other), game_id)
            pipe.execute()

    def page(self, status: str | None = None, limit: int = 20, cursor: str | None = None) -> dict:
        """`{"items": [{"id", "status", "round", "version", "created"}], "next_cursor"}`,
        newest first. Raises ValueError for an unknown status, a limit outside 1..100, or a
        malformed cursor."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")
        after = decode_cursor(cursor) if cursor else None
        ids = self._ids_after(index_key(status), after, limit + 1)
        items = [item for item in map(self._summary, ids[:limit]) if item]
        if status is not None:
            items = [item for item in items if item["status"] == status]
        more = len(ids) > limit
        last = ids[limit - 1] if more else None
        return {"items": items, "next_cursor": encode_cursor(*last) if last else None}

    def _ids_after(self, key: str, after: tuple[int, str] | None, count: int) -> list[tuple[int, str]]:
        """Up to `count` (created_ms, id) strictly after `after` in (score desc, id desc) order."""
        found: list[tuple[int, str]] = []
        offset, high = 0, "+inf" if after is None else after[0]
        with backend_errors():
            while len(found) < count:
                batch = self._client.zrevrangebyscore(key, high, "-inf", start=offset,
                                                      num=count, withscores=True)
                if not batch:
                    break
                offset += len(batch)
                for member, score in batch:
                    item = (int(score), member.decode())
                    if after is None or item < after:
                        found.append(item)
        return found[:count]

    def _summary(self, entry: tuple[int, str]) -> dict | None:
        created_ms, game_id = entry
        with backend_errors():
            raw = self._client.hgetall(summary_key(game_id))
        if b"status" not in raw:
            return None
        created = datetime.fromtimestamp(created_ms / 1000, timezone.utc).isoformat()
        return {"id": game_id, "status": raw[b"status"].decode(),
                "round": int(raw[b"round"]) if raw.get(b"round") else None,
                "version": int(raw[b"version"]), "created": created}
