"""What the API's gunicorn worker processes do besides serving requests (docs/streams.md
"Shutdown"): end every stream and long poll at once when the worker is told to stop.

Imported by deploy/gunicorn.conf.py's `post_worker_init` hook inside a worker process only,
after gunicorn's gevent worker has monkey-patched the standard library (the master never
imports the app).
"""
from __future__ import annotations

import signal

import gevent

from service.notify import drain_all


def drain_on_sigterm(worker) -> None:
    """Make SIGTERM (gunicorn's graceful stop) also end this process's waits at once: long
    polls answer what they have, SSE streams send a reconnect hint, and the connections of the
    requests in flight close after their response (so a client's next try goes to a live
    process, not back to this one). gunicorn's own SIGTERM handling (stop accepting, finish
    the other requests for up to `graceful_timeout`) still runs first. `worker`: the gunicorn
    worker of this process."""
    in_flight: set = set()
    serve = worker.handle_request
    stop_gracefully = worker.handle_exit

    def handle_request(listener_name, req, sock, addr):
        in_flight.add(req)
        try:
            return serve(listener_name, req, sock, addr)
        finally:
            in_flight.discard(req)

    def drain() -> None:
        for req in list(in_flight):
            req.must_close = True  # gunicorn closes the connection after this response
        drain_all()

    def handle_exit(signum, frame) -> None:
        stop_gracefully(signum, frame)
        # Out of the signal handler, as gunicorn's gevent worker does for SIGQUIT: waking the
        # listeners switches greenlets.
        gevent.spawn(drain)

    worker.handle_request = handle_request
    signal.signal(signal.SIGTERM, handle_exit)
