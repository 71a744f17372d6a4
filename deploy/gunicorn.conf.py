"""gunicorn settings for the API (`gunicorn -c deploy/gunicorn.conf.py 'api:create_app()'`).

Threaded workers (gthread): long polls and SSE streams hold a thread, not a process.
Graceful shutdown: on SIGTERM workers stop accepting and finish requests for up to
`graceful_timeout` seconds. Environment: RUMMY_BIND (default 127.0.0.1:8000; 0.0.0.0:8000 in
containers), WEB_CONCURRENCY (processes), RUMMY_THREADS (threads per process).
Metrics: every worker process writes its Prometheus samples to PROMETHEUS_MULTIPROC_DIR (a
temporary directory made here when unset), so GET /metrics adds up all of them.
"""
import os
import shutil
import tempfile

bind = os.environ.get("RUMMY_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("RUMMY_THREADS", "16"))
timeout = 60
graceful_timeout = 20
keepalive = 5
accesslog = "-"
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


def child_exit(server, worker):
    """Drop a dead worker's live gauges (prometheus-client multiprocess mode)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    """Remove the metrics directory this configuration made."""
    if _OWN_METRICS_DIR:
        shutil.rmtree(_OWN_METRICS_DIR, ignore_errors=True)
