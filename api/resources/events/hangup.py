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
STOP_WAIT_S = 1.0  # how long stopping a watch may wait for its greenlet to end


class HangupWatch:
    """Calls `on_hangup()` once, in its own greenlet, when the client of the current request
    closes its connection; `stop()` ends the watch (call it before the response is done: the
    socket's file number is reused once gunicorn closes it)."""

    def __init__(self, on_hangup: Callable[[], None]) -> None:
        self._on_hangup = on_hangup
        self._greenlet = None
        self._path = request.path
        sock = request.environ.get("gunicorn.socket")
        if sock is None or not _gevent_patched():
            return
        import gevent

        self._greenlet = gevent.spawn(self._watch, sock)

    def _watch(self, sock: socket.socket) -> None:
        from gevent.socket import wait_read

        try:
            wait_read(sock.fileno())
            if sock.recv(1, socket.MSG_PEEK):
                return  # a pipelined request: the client is there
        except OSError:
            pass  # reset by the peer: gone as well
        log.debug("the client of a waiting %s hung up", self._path)
        self._greenlet = None  # stop() from here on must not wait for this greenlet
        try:
            self._on_hangup()
        finally:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        """End the watch (nothing is called after this returns)."""
        greenlet, self._greenlet = self._greenlet, None
        if greenlet is not None:
            greenlet.kill(block=True, timeout=STOP_WAIT_S)


def _gevent_patched() -> bool:
    """Whether the socket module is gevent's (gunicorn's gevent worker patched it)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")
