"""Redis key names (DESIGN §4) and the rule every new key follows, so that the service runs on
a Redis Cluster (docs/cluster.md).

The rule: every key names its Cluster slot with a hash tag, and one script, MULTI or
transaction touches the keys of ONE hash tag only.
- A game's keys: `rummy:{<game_id>}:<what>` (events, meta, summary, idem, snapshots, notify
  channel, grants, lobby answers ...): they share the game's slot, so one script may touch
  them all (append.lua).
- Keys across games (sets of game ids): never one global key that a game's script also
  touches. Either one small fixed key with its own tag (`rummy:{deadlines}:due`, updated by
  scripts touching only `{deadlines}` keys), or a fixed set of shards `rummy:{games:<n>}:<what>`
  chosen by `index_shard(game_id)`, read by merging the shards (service.index). A per-player or
  per-client index follows the same pattern: `rummy:{<owner>}:<what>`, or shards of it.
- A write that spans two tags is two steps: document which goes first and what repairs a
  crash between them (service.index: the summary, then its shard).
- Single-key commands may use any key (`rummy:streams:<holder>`, `rummy:join:<sha256>`,
  `rummy:created-answer:<hmac>` of service.sealed_answers);
  pipelines without a transaction may span slots (redis-py's cluster pipeline splits them).
- RQ's keys (`rq:*`) live on the queue Redis (RUMMY_QUEUE_URL), never in the cluster.
"""
import zlib

PREFIX = "rummy"
# How many shards the game index has (docs/cluster.md): a constant of the data layout, since
# a game's shard is `crc32(id) % INDEX_SHARDS`; changing it needs the index rebuilt.
INDEX_SHARDS = 16


def events_key(game_id: str) -> str:
    """The game's event stream; entry ids are `0-<version>`."""
    return f"{PREFIX}:{{{game_id}}}:events"


def meta_key(game_id: str) -> str:
    """The game's record hash: seats, token hashes, seed, creation time, summary."""
    return f"{PREFIX}:{{{game_id}}}:meta"


def idempotency_scope(seat: int | None, key: str) -> str:
    """A client's Idempotency-Key scoped to who sent it: `<seat>:<key>`, or `system:<key>` for
    a system action, so that one seat's key never collides with another seat's."""
    return f"{'system' if seat is None else seat}:{key}"


def idem_key(game_id: str, key: str) -> str:
    """The remembered outcome of one idempotency key of this game; the service passes keys
    scoped by `idempotency_scope`, so the key is `rummy:{<game>}:idem:<seat|system>:<key>`."""
    return f"{PREFIX}:{{{game_id}}}:idem:{key}"


def snapshot_key(game_id: str, version: int, tag: str) -> str:
    """A cached folded state of this game at `version` by code `tag` (a cache, never truth)."""
    return f"{PREFIX}:{{{game_id}}}:snap:{tag}:{version}"


def snapshots_key(game_id: str, tag: str) -> str:
    """The sorted set of the versions with a cached state by code `tag`."""
    return f"{PREFIX}:{{{game_id}}}:snaps:{tag}"


def summary_key(game_id: str) -> str:
    """The game's listing summary hash (status, round, version, creation time)."""
    return f"{PREFIX}:{{{game_id}}}:summary"


def index_shard(game_id: str) -> int:
    """The index shard (0 .. INDEX_SHARDS - 1) holding `game_id`: CRC-32 of its id."""
    return zlib.crc32(game_id.encode()) % INDEX_SHARDS


def index_key(shard: int, name: str) -> str:
    """A key of index shard `shard`: `rummy:{games:<shard>}:<name>`, e.g. the sorted set of
    its games of one status (service.index names them). A shard's keys share one slot."""
    return f"{PREFIX}:{{games:{shard}}}:{name}"


def notify_channel(game_id: str) -> str:
    """The game's sharded pub/sub channel: each append publishes the new version on it."""
    return f"{PREFIX}:{{{game_id}}}:notify"


def deadlines_key() -> str:
    """The sorted set of the games whose human seat has a deadline, scored by its due time
    in ms since the epoch (one member per game). One global key for every game: its hash tag
    `{deadlines}` keeps it in one Cluster slot with `deadline_versions_key`, so the scripts
    that touch both still run on a Redis Cluster; a sharded future splits it by game id."""
    return f"{PREFIX}:{{deadlines}}:due"


def deadline_versions_key() -> str:
    """The hash game id -> the game version its entry of `deadlines_key` was computed at: an
    older version never overwrites a newer one's deadline."""
    return f"{PREFIX}:{{deadlines}}:versions"


def player_games_key(player_id: str, status: str | None = None) -> str:
    """The player's games (members `<game>-<seat>`, scored by creation ms), all of them or
    those with `status` (service.player_index). The hash tag `{player:<id>}` keeps one
    player's sets in one Cluster slot: the script that moves a game between them fits it."""
    base = f"{PREFIX}:{{player:{player_id}}}:games"
    return base if status is None else f"{base}:{status}"


def seat_players_key(game_id: str) -> str:
    """The hash seat -> player id of the players who joined the game's open seats by code
    (service.seat_players)."""
    return f"{PREFIX}:{{{game_id}}}:players"
