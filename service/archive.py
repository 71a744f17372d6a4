"""Where archived games go (docs/retention.md): a game's export record, kept out of Redis.

`Archive` is the interface retention writes through and the API reads through (410 Gone for
an archived game); `DirectoryArchive` is its file-system implementation. An object store
(S3, GCS ...) plugs in by implementing the same three methods with the same guarantees: a
`put` is atomic (a reader sees the whole record or none) and idempotent (putting the same
game again replaces its record, never adds a second one).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Protocol

# Game ids are 16 hex digits (service.games); anything else is refused before it reaches a path.
GAME_ID = re.compile(r"[0-9a-f]{1,64}")


class Archive(Protocol):
    """A store of archived game records, one per game id."""

    def put(self, game_id: str, record: dict) -> str:
        """Store `record` (a JSON-ready dict) as the archive of `game_id`, atomically,
        replacing any earlier one; returns where it is (a path or URL). Raises OSError."""

    def get(self, game_id: str) -> dict | None:
        """The archived record of `game_id`, or None. Raises OSError."""

    def exists(self, game_id: str) -> bool:
        """Whether `game_id` is archived. Raises OSError."""


class DirectoryArchive:
    """Archived records as JSON files under `root`: `<root>/<id[:2]>/<id>.json` (a fan-out of
    256 folders, so no folder grows past what a file system lists quickly).

    A put writes a temporary file in the target folder, fsyncs it, renames it over the target
    (atomic on POSIX within one file system) and fsyncs the folder, so a crash leaves the old
    record, the new one, or a stray `*.tmp` file that no reader looks at, never half a record."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)

    def path(self, game_id: str) -> Path:
        """The file of `game_id`'s record. Raises ValueError for an id that is not a game id."""
        if not GAME_ID.fullmatch(game_id):
            raise ValueError(f"not a game id: {game_id[:80]!r}")
        return self.root / game_id[:2] / f"{game_id}.json"

    def put(self, game_id: str, record: dict) -> str:
        """See Archive.put."""
        target = self.path(game_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(record, separators=(",", ":"), sort_keys=True).encode()
        handle, temporary = tempfile.mkstemp(prefix=f".{game_id}.", suffix=".tmp",
                                             dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return str(target)

    def get(self, game_id: str) -> dict | None:
        """See Archive.get."""
        try:
            return json.loads(self.path(game_id).read_bytes())
        except FileNotFoundError:
            return None

    def exists(self, game_id: str) -> bool:
        """See Archive.exists (False for a string that is not a game id)."""
        return bool(GAME_ID.fullmatch(game_id)) and self.path(game_id).is_file()
