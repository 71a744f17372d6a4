"""Snapshots of folded game state keyed by (game, version), so that serving a long game folds
only the tail of its stream (DESIGN §4). They are a cache, never truth: delete any or all of
them and every answer stays the same, only slower.

Two layers: an in-process LRU of the latest state per game (the common case: the next request
folds only what was appended since), and pickles in Redis every `every` events
(`rummy:{<game>}:snap:<version>`, versions listed in `rummy:{<game>}:snaps`) so that a fresh
process or a replay at version N starts near N. Redis is trusted like the streams it holds;
pickles from another code version are ignored: their key carries a digest of every domain
source file (`code_tag`), since a change to any of them (fold, melds, profile, deal …) may
change what a fold produces.
"""
from __future__ import annotations

import hashlib
import logging
import pickle
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Iterable

import redis

import domain
from domain import awaiting
from service.keys import snapshot_key, snapshots_key

log = logging.getLogger(__name__)
DOMAIN_ROOT = Path(domain.__file__).resolve().parent
SNAPSHOT_TTL_S = 7 * 24 * 3600


def domain_sources(root: Path = DOMAIN_ROOT) -> list[Path]:
    """Every Python source of the domain package (`domain/**/*.py`), in a stable order."""
    return sorted(root.rglob("*.py"), key=lambda path: path.relative_to(root).as_posix())


def code_tag(sources: Iterable[Path] | None = None, root: Path = DOMAIN_ROOT,
             read: Callable[[Path], bytes] = Path.read_bytes) -> str:
    """A 12-hex-digit digest of the domain's code: each source's path (relative to `root`) and
    bytes. Any change to any domain source gives another tag, so pickled states folded by other
    code are never read back."""
    digest = hashlib.sha256()
    for path in (domain_sources(root) if sources is None else sources):
        name, body = path.relative_to(root).as_posix().encode(), read(path)
        digest.update(b"%d:%s%d:" % (len(name), name, len(body)))
        digest.update(body)
    return digest.hexdigest()[:12]


CODE_TAG = code_tag()  # once per process


class MemorySnapshots:
    """The latest folded state of up to `max_games` games, least recently used evicted."""

    def __init__(self, max_games: int = 512) -> None:
        self._latest: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._max = max_games
        self._lock = threading.Lock()

    def load(self, game_id: str, upto: int | None = None) -> tuple[int, object] | None:
        """The cached (version, state) if its version is <= `upto` (None: any), else None."""
        with self._lock:
            hit = self._latest.get(game_id)
            if hit is None or (upto is not None and hit[0] > upto):
                return None
            self._latest.move_to_end(game_id)
            return hit

    def forget(self, game_id: str) -> None:
        """Drop the cached state of `game_id` (it left Redis: service.retention)."""
        with self._lock:
            self._latest.pop(game_id, None)

    def save(self, game_id: str, version: int, state: object, folded: int) -> None:
        """Remember `state` at `version` if it is newer than what is cached."""
        with self._lock:
            hit = self._latest.get(game_id)
            if hit is None or hit[0] < version:
                self._latest[game_id] = (version, state)
            self._latest.move_to_end(game_id)
            while len(self._latest) > self._max:
                self._latest.popitem(last=False)


class RedisSnapshots:
    """Pickled states in Redis, one whenever a multiple of `every` versions is crossed.
    Redis errors are logged and treated as misses: a cache never fails a request."""

    def __init__(self, client: redis.Redis, every: int = 100, tag: str = CODE_TAG) -> None:
        self._client = client
        self.every = every
        self.tag = tag

    def load(self, game_id: str, upto: int | None = None) -> tuple[int, object] | None:
        """The newest stored (version, state) with version <= `upto` (None: any), else None."""
        try:
            found = self._client.zrevrangebyscore(snapshots_key(game_id, self.tag),
                                                  "+inf" if upto is None else upto, 1, start=0, num=1)
            blob = found and self._client.get(snapshot_key(game_id, int(found[0]), self.tag))
            return (int(found[0]), pickle.loads(blob)) if blob else None
        except (redis.RedisError, pickle.UnpicklingError, AttributeError, ImportError) as error:
            log.warning("snapshot load failed game=%s: %s", game_id, error)
            return None

    def save(self, game_id: str, version: int, state: object, folded: int) -> None:
        """Store `state` at `version` if the last `folded` events crossed a multiple of `every`.
        A finished state is never stored, and reaching one drops the game's stored states: a
        finished game's stream never grows, its whole fold takes a few ms (bench.fold_bench),
        and its snapshots would hold ~30 KB of Redis per game for SNAPSHOT_TTL_S
        (bench.memory_per_game). A replay of an earlier version may store one again (TTL)."""
        if state is not None and awaiting(state).status == "finished":
            self._drop(game_id)
            return
        if version // self.every == (version - folded) // self.every:
            return
        try:
            pipe = self._client.pipeline(transaction=False)
            pipe.set(snapshot_key(game_id, version, self.tag), pickle.dumps(state), ex=SNAPSHOT_TTL_S)
            pipe.zadd(snapshots_key(game_id, self.tag), {str(version): version})
            pipe.expire(snapshots_key(game_id, self.tag), SNAPSHOT_TTL_S)
            pipe.execute()
        except redis.RedisError as error:
            log.warning("snapshot save failed game=%s version=%s: %s", game_id, version, error)


    def _drop(self, game_id: str) -> None:
        """Delete the game's stored states of this code tag (logged, never raised)."""
        try:
            index = snapshots_key(game_id, self.tag)
            versions = self._client.zrange(index, 0, -1)
            self._client.delete(index, *(snapshot_key(game_id, int(v), self.tag) for v in versions))
        except redis.RedisError as error:
            log.warning("snapshot drop failed game=%s: %s", game_id, error)


class Snapshots:
    """Layers in order (memory, then Redis): the first hit wins; saves go to every layer."""

    def __init__(self, *layers: MemorySnapshots | RedisSnapshots) -> None:
        self.layers = layers

    def load(self, game_id: str, upto: int | None = None,
             near: int | None = None) -> tuple[int, object] | None:
        """The first layer's cached (version, state) with version <= `upto`, or None. With
        `near` (the version the caller expects the game at: a hint), a hit more than a stored
        layer's spacing (`every`) behind it goes on to the next layers and the newest hit wins:
        a worker's cached state of a game the other worker played since would make it read
        and fold hundreds of events, a stored snapshot fewer than `every`."""
        best = None
        for layer in self.layers:
            hit = layer.load(game_id, upto)
            if hit is not None and (best is None or hit[0] > best[0]):
                best = hit
            if best is not None and (near is None or near - best[0] <= self.spacing):
                return best
        return best

    @property
    def spacing(self) -> int:
        """The versions between two stored snapshots (the largest `every` of the layers)."""
        return max((getattr(layer, "every", 0) for layer in self.layers), default=0)

    def forget(self, game_id: str) -> None:
        """Drop `game_id` from the in-process layers (Redis keys are removed by their owner,
        service.retention)."""
        for layer in self.layers:
            if isinstance(layer, MemorySnapshots):
                layer.forget(game_id)

    def save(self, game_id: str, version: int, state: object, folded: int) -> None:
        """Offer `state` at `version` (reached by folding `folded` events) to every layer."""
        for layer in self.layers:
            layer.save(game_id, version, state, folded)
