"""Noticing at once that the client of a waiting stream or long poll hung up (docs/streams.md
"Caps").

A waiting connection writes nothing until its game moves or its heartbeat is due, so a write
error would tell the server of a closed connection only then (up to a heartbeat or a whole
long-poll wait later), and the caller's place under its cap stayed taken that long. Under
gunicorn's gevent worker the request's socket (``gunicorn.socket`` in the WSGI environ) is
watched instead: a client sends nothing more while it waits for the answer, so the socket
turning readable with no byte to read (EOF) means it closed its side. The place is given back
at once, and the connection is shut down, so that a client that only half-closed cannot hold
a stream without it being counted. Bytes to read instead (a pipelined next request) end the
watch: the connection is alive.

Without that socket (Flask's test client, another server) nothing is watched.
"""
from __future__ import annotations

import logging
import socket
from typing import Callable

from flask import request

log = logging.getLogger(__name__)


class HangupWatch:
    """Calls `on_hangup()` once, in a greenlet of its own, when the client of the current
    request closes its connection; `stop()` ends the watch (call it before the response is
    done: the socket's file number is reused once gunicorn closes it).

    The watch is a libev read watcher on the socket (no greenlet until it fires): a long poll
    starts and stops one per wait."""

    def __init__(self, on_hangup: Callable[[], None]) -> None:
        self._on_hangup = on_hangup
        self._watcher = None
        self._path = request.path
        self._sock = request.environ.get("gunicorn.socket")
        if getattr(self._sock, "_sock", None) is None or not _gevent_patched():
            self._sock = None
            return
        import gevent

        self._watcher = gevent.get_hub().loop.io(self._sock.fileno(), 1)  # 1: readable
        self._watcher.start(self._readable)

    def _readable(self) -> None:
        """In the event loop: the socket is readable. Look at it in a greenlet (a read must
        not run in the loop itself)."""
        import gevent

        self._halt_watcher()
        gevent.spawn(self._confirm)

    def _confirm(self) -> None:
        sock = self._sock
        if sock is None:  # stopped meanwhile: the socket may already be another's
            return
        try:  # on gevent's underlying socket: this never waits (nobody else reads it now)
            if sock._sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                return  # a pipelined request: the client is there
        except BlockingIOError:
            return  # nothing to read after all: not a hang-up
        except OSError:
            pass  # reset by the peer: gone as well
        log.debug("the client of a waiting %s hung up", self._path)
        try:
            self._on_hangup()
        finally:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _halt_watcher(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()
            watcher.close()

    def stop(self) -> None:
        """End the watch: nothing is called after this returns."""
        self._halt_watcher()
        self._sock = None


def _gevent_patched() -> bool:
    """Whether the socket module is gevent's (gunicorn's gevent worker patched it)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")
