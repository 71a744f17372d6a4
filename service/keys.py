"""Redis key names (DESIGN §4). Every key of one game carries the hash tag `{<game_id>}`, so
a game's keys share a Redis Cluster slot and one Lua script may touch them all."""

PREFIX = "rummy"


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


def index_key(status: str | None = None) -> str:
    """The listing index: games by creation time, all of them or those with `status`."""
    return f"{PREFIX}:games" if status is None else f"{PREFIX}:games:{status}"


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
