"""gunicorn settings for the API (`gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'`).

gevent workers (docs/streams.md): an open SSE stream or long poll holds a greenlet and a
socket, not a thread, so one process holds thousands; gunicorn's worker monkey-patches the
standard library before it imports the app (this file imports none of it). Every connection
is a file: the open-file limit is raised to the hard limit and `worker_connections` follows.
Graceful shutdown: on SIGTERM workers stop accepting, end streams and long polls at once
(api/serving.py) and finish other requests for up to `graceful_timeout` seconds.
Environment: RUMMY_BIND (default 127.0.0.1:8000; 0.0.0.0:8000 in containers), WEB_CONCURRENCY
(processes), RUMMY_WORKER_CONNECTIONS (connections per process, default from the file limit).
Metrics: every worker process writes its Prometheus samples to PROMETHEUS_MULTIPROC_DIR (a
temporary directory made here when unset), so GET /metrics adds up all of them.
"""
import os
import resource
import shutil
import tempfile

from gunicorn.glogging import Logger

bind = os.environ.get("RUMMY_BIND", "127.0.0.1:8000")
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# The workers inherit the raised limit; each keeps some files for Redis, logs and metrics.
_SOFT, _HARD = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (_HARD, _HARD))
    _SOFT = _HARD
except (ValueError, OSError):  # an unlimited hard limit above the kernel's own (nr_open)
    pass
_FILES = 10_200 if _SOFT == resource.RLIM_INFINITY else _SOFT
worker_connections = int(os.environ.get("RUMMY_WORKER_CONNECTIONS")
                         or max(100, min(10_000, _FILES - 200)))
timeout = 60
graceful_timeout = 20
keepalive = 5
accesslog = "-"
# The request's path without its query string (%(U)s, not the request line %(r)s), and no
# Referer: a stream ticket travels as `?ticket=` and must never be written to a log.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'


def _escaped(value: str) -> str:
    """``value`` (a WSGI string: its bytes as latin-1) as one printable line: read as UTF-8,
    each character that is not printable (``str.isprintable``: controls such as LF, CR, NUL,
    the bidirectional ones U+202A-U+202E and U+2066-U+2069, separators) written ``\\xNN``,
    ``\\uNNNN`` or ``\\UNNNNNNNN``, a byte that is not UTF-8 ``\\xNN``, a backslash doubled
    (gunicorn's ``SafeAtoms`` then writes ``"`` as ``\\"``): ``/v1/games/x%0a2026-12-01``
    logs as ``/v1/games/x\\x0a2026-12-01``."""
    if value.isascii() and value.isprintable() and "\\" not in value:
        return value
    try:
        text = value.encode("latin-1").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # not a WSGI string: escaped as it is
        text = value
    out = []
    for char in text:
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char.isprintable():
            out.append(char)
        else:
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


class EscapingLogger(Logger):
    """gunicorn's logger whose access log atoms are one printable line each (``_escaped``): a
    ``%0a`` in a path cannot start a forged log line, nor a NUL or a bidirectional control
    reach the log. The query string is never an atom (``%(q)s``, ``%(r)s``, ``%(f)s`` and the
    environ/header atoms that carry it are ``-``): it may hold a stream ticket."""

    UNLOGGED = ("q", "f", "{referer}i", "{query_string}e", "{raw_uri}e", "{http_referer}e",
                "{request_uri}e")

    def atoms(self, resp, req, environ, request_time):
        """See ``gunicorn.glogging.Logger.atoms``; every string atom escaped."""
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["r"] = f"{atoms['m']} {atoms['U']} {atoms['H']}"  # the request line, no query
        for name in self.UNLOGGED:
            atoms.pop(name, None)
        return {name: _escaped(value) if isinstance(value, str) else value
                for name, value in atoms.items()}


logger_class = EscapingLogger
errorlog = "-"
loglevel = os.environ.get("RUMMY_LOG_LEVEL", "info")
# gunicorn 27's control socket lives at one path per user (~/.gunicorn/gunicorn.ctl), shared by
# every instance on the machine (tests start several); nothing here uses it.
control_socket_disable = True

# Set before the workers fork and import the app, so that prometheus-client writes per-process
# files; api.metrics aggregates them on GET /metrics.
_OWN_METRICS_DIR = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _OWN_METRICS_DIR = tempfile.mkdtemp(prefix="rummy-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = _OWN_METRICS_DIR


def post_worker_init(worker):
    """SIGTERM ends this worker's streams and long polls at once (api/serving.py); errors
    gunicorn answers itself (414, 431, 400) are problem+json (api/server_errors.py)."""
    from api import server_errors
    from api.serving import drain_on_sigterm

    drain_on_sigterm(worker)
    server_errors.install(getattr(worker, "wsgi", None))


def child_exit(server, worker):
    """Drop a dead worker's live gauges (prometheus-client multiprocess mode)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics directory this configuration made."""
    if _OWN_METRICS_DIR:
        shutil.rmtree(_OWN_METRICS_DIR, ignore_errors=True)
