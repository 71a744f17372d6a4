"""Pages of a listing by creation time: the opaque cursor after a page's last item (its
creation ms and id, base64), which the game list (service.index) and a player's inbox
(service.player_index) both hand out, and the page read of one sorted set scored by creation
ms, newest first (the inbox's; the game list merges its shards itself)."""
from __future__ import annotations

import base64
import re

import redis

from service.redis_store import backend_errors


def encode_cursor(created_ms: int, game_id: str) -> str:
    """The opaque cursor after the item (`created_ms`, `game_id`)."""
    return base64.urlsafe_b64encode(f"{created_ms}:{game_id}".encode()).decode()


_CURSOR = re.compile(r"([0-9]{1,16}):([0-9A-Za-z_-]{1,64})")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """(created_ms, game_id) of a cursor: exactly what encode_cursor gives. Raises ValueError
    for anything else (not base64, not `<ms>:<id>`, not written as encode_cursor writes it)."""
    try:
        match = _CURSOR.fullmatch(base64.urlsafe_b64decode(cursor.encode("ascii")).decode("ascii"))
    except (ValueError, UnicodeError):
        match = None
    if match is None or encode_cursor(int(match[1]), match[2]) != cursor:
        raise ValueError("not a cursor of this list")
    return int(match[1]), match[2]


def ids_after(client: redis.Redis, key: str, after: tuple[int, str] | None,
              count: int) -> list[tuple[int, str]]:
    """Up to `count` (score, member) of the sorted set `key` strictly after `after` in (score
    desc, member desc) order: a page of a listing by creation ms (a player's inbox)."""
    found: list[tuple[int, str]] = []
    offset, high = 0, "+inf" if after is None else after[0]
    with backend_errors():
        while len(found) < count:
            batch = client.zrevrangebyscore(key, high, "-inf", start=offset, num=count,
                                            withscores=True)
            if not batch:
                break
            offset += len(batch)
            for member, score in batch:
                item = (int(score), member.decode())
                if after is None or item < after:
                    found.append(item)
    return found[:count]
