"""Webhook deliveries (docs/players.md "Webhooks"): the outbox the projection fills and the
workers empty, signed per Standard Webhooks with the `standardwebhooks` package.

After each append the service projects the webhook events (service.webhook_events) and, for
each target (the server's RUMMY_WEBHOOK_URL, the game's own `webhook_url`), writes a delivery
record `rummy:{<game>}:webhook:<delivery id>` (indexed by `rummy:{<game>}:webhooks`, by
creation ms) and enqueues one RQ job on WEBHOOK_QUEUE, a queue no game job uses, served by
its own worker process (`rummy webhook-worker`): a slow receiver never delays a bot or a
deadline. The job posts the payload; a failure (no answer within the timeouts, or any status
but 2xx) raises, and RQ retries it after BACKOFF_S (doubling from 1 s to 3 h, 24 h in all).
At least once: a receiver dedupes by `webhook-id`, the same for every attempt."""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from datetime import datetime, timezone

import redis
import requests
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError
from standardwebhooks.webhooks import Webhook

from service.clock import rfc3339
from service.integration_config import IntegrationSettings, check_game_webhook_url
from service.redis_store import backend_errors
from service.webhook_events import WebhookEvent

WEBHOOK_QUEUE = "rummy-webhooks"
CONNECT_TIMEOUT_S, READ_TIMEOUT_S = 3.0, 10.0
JOB_TIMEOUT_S = 60
FAILURE_TTL_S = 7 * 24 * 3600
KEEP_DELIVERIES = 1000  # per game, and server-wide in the recent list: the newest
DELIVERY_STATUSES = ("pending", "retrying", "delivered", "failed")
# The server's newest deliveries, members "<game> <delivery id>" by creation ms (its own hash
# tag: one Cluster slot, apart from the games').
RECENT_KEY = "rummy:{webhooks}:recent"
USER_AGENT = "contract-rummy-webhooks/1"


def backoff_schedule(first_s: int = 1, cap_s: int = 3 * 3600, total_s: int = 24 * 3600) -> list[int]:
    """Seconds between attempts: doubling from `first_s`, at most `cap_s` each, while they add
    up to at most `total_s` (1, 2, 4 ... 8192, then 3 h six times: 22.6 h, 21 attempts)."""
    waits, wait = [], first_s
    while sum(waits) + wait <= total_s:
        waits.append(wait)
        wait = min(wait * 2, cap_s)
    return waits


BACKOFF_S = backoff_schedule()


def job_id(delivery_id: str) -> str:
    """The RQ job id of a delivery (RQ takes letters, digits, `_` and `-`)."""
    return "hook-" + delivery_id.replace(".", "-")


def _delivery_key(game_id: str, delivery_id: str) -> str:
    return f"rummy:{{{game_id}}}:webhook:{delivery_id}"


def _deliveries_key(game_id: str) -> str:
    return f"rummy:{{{game_id}}}:webhooks"


def _url_key(game_id: str) -> str:
    return f"rummy:{{{game_id}}}:webhook-url"


class WebhookOutbox:
    """Delivery records on `client`, jobs on `queue_client` (the RQ Redis, default `client`:
    docs/cluster.md); `settings`: the server's webhook URL and secret (no secret: nothing is
    ever delivered)."""

    def __init__(self, client: redis.Redis, settings: IntegrationSettings,
                 queue_client: redis.Redis | None = None) -> None:
        self.client, self.settings = client, settings
        self.queue = Queue(WEBHOOK_QUEUE,
                           connection=client if queue_client is None else queue_client)
        self._urls: OrderedDict[str, str | None] = OrderedDict()  # a game's URL never changes
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """Whether webhooks can be signed (RUMMY_WEBHOOK_SECRET set)."""
        return self.settings.webhook_secret is not None

    def set_game_url(self, game_id: str, url: str) -> None:
        """Record the game's own webhook URL, before its first append. Raises ValueError for a
        URL that is not http(s), carries a user or password, or a server without
        RUMMY_WEBHOOK_SECRET."""
        check_game_webhook_url(url)
        if not self.enabled:
            raise ValueError("webhook_url needs the server's RUMMY_WEBHOOK_SECRET, which is not set")
        with backend_errors():
            self.client.set(_url_key(game_id), url)

    def targets(self, game_id: str) -> list[tuple[str, str]]:
        """(name, url) of each target of the game: "server" and "game"."""
        if not self.enabled:
            return []
        found = [("server", self.settings.webhook_url)] if self.settings.webhook_url else []
        own = self._game_url(game_id)
        return found + ([("game", own)] if own else [])

    def _game_url(self, game_id: str) -> str | None:
        with self._lock:
            if game_id in self._urls:
                return self._urls[game_id]
        with backend_errors():
            raw = self.client.get(_url_key(game_id))
        url = raw.decode() if raw else None
        with self._lock:
            self._urls[game_id] = url
            if len(self._urls) > 4096:
                self._urls.popitem(last=False)
        return url

    def publish(self, events: list[WebhookEvent]) -> None:
        """Record and enqueue a delivery of each event to each target of its game; an event
        recorded already (the same webhook-id) is not enqueued twice."""
        for event in events:
            for name, url in self.targets(event.game_id):
                self._publish(event, f"{event.id}.{name}", url)

    def _publish(self, event: WebhookEvent, delivery_id: str, url: str) -> None:
        now = int(time.time() * 1000)
        record = {"delivery_id": delivery_id, "webhook_id": event.id, "type": event.type,
                  "url": url, "body": json.dumps(event.body, separators=(",", ":")),
                  "attempts": 0, "status": "pending", "created_ms": now}
        key = _delivery_key(event.game_id, delivery_id)
        with backend_errors():
            if not self.client.hsetnx(key, "delivery_id", delivery_id):
                return  # projected before: its job exists or ran
            pipe = self.client.pipeline(transaction=False)
            pipe.hset(key, mapping=record)
            pipe.zadd(_deliveries_key(event.game_id), {delivery_id: now})
            pipe.zremrangebyrank(_deliveries_key(event.game_id), 0, -KEEP_DELIVERIES - 1)
            pipe.zadd(RECENT_KEY, {f"{event.game_id} {delivery_id}": now})
            pipe.zremrangebyrank(RECENT_KEY, 0, -KEEP_DELIVERIES - 1)
            pipe.execute()
            try:
                self.queue.enqueue("workers.webhooks.deliver", event.game_id, delivery_id,
                                   job_id=job_id(delivery_id), unique=True,
                                   retry=Retry(max=len(BACKOFF_S), interval=BACKOFF_S),
                                   job_timeout=JOB_TIMEOUT_S, result_ttl=0,
                                   failure_ttl=FAILURE_TTL_S)
            except DuplicateJobError:
                pass

    def attempt(self, game_id: str, delivery_id: str, retries_left: int) -> bool:
        """Post the delivery once, signed now; record the attempt (attempts, status code or
        error, next retry). True when the receiver answered 2xx (or did before). Raises
        KeyError for an unknown delivery."""
        key = _delivery_key(game_id, delivery_id)
        with backend_errors():
            raw = self.client.hgetall(key)
        if not raw:
            raise KeyError(delivery_id)
        found = {k.decode(): v.decode() for k, v in raw.items()}
        if found["status"] == "delivered":
            return True
        code, error = self._post(found["url"], found["webhook_id"], found["body"])
        now = int(time.time() * 1000)
        delivered = code is not None and 200 <= code < 300
        wait = BACKOFF_S[len(BACKOFF_S) - retries_left] if retries_left and not delivered else None
        update = {"status": "delivered" if delivered else "retrying" if wait else "failed",
                  "last_status_code": "" if code is None else code, "last_error": error,
                  "last_attempt_ms": now, "next_retry_ms": "" if wait is None else now + wait * 1000}
        if delivered:
            update["delivered_ms"] = now
        with backend_errors():
            pipe = self.client.pipeline(transaction=False)
            pipe.hincrby(key, "attempts", 1)
            pipe.hset(key, mapping=update)
            pipe.execute()
        return delivered

    def _post(self, url: str, webhook_id: str, body: str) -> tuple[int | None, str]:
        """(status code or None, error text) of one signed POST. No redirect is followed."""
        now = datetime.now(timezone.utc)
        headers = {"webhook-id": webhook_id, "webhook-timestamp": str(int(now.timestamp())),
                   "webhook-signature": Webhook(self.settings.webhook_secret).sign(
                       webhook_id, now, body),
                   "content-type": "application/json", "user-agent": USER_AGENT}
        try:
            reply = requests.post(url, data=body.encode(), headers=headers, allow_redirects=False,
                                  timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S))
        except requests.RequestException as error:
            return None, type(error).__name__
        reply.close()
        return reply.status_code, "" if 200 <= reply.status_code < 300 else f"HTTP {reply.status_code}"

    def deliveries(self, game_id: str, limit: int = 100) -> list[dict]:
        """The game's newest deliveries, newest first: `{"game_id", "delivery_id", "webhook_id",
        "type", "target_url", "status" (pending, retrying, delivered, failed), "attempts",
        "last_status_code", "last_error", "created", "last_attempt", "next_retry",
        "delivered"}` (times RFC 3339 ms or null). No payload: the receiver has it."""
        with backend_errors():
            ids = self.client.zrevrange(_deliveries_key(game_id), 0, limit - 1)
        return self._rows([(game_id, delivery_id.decode()) for delivery_id in ids])

    def recent(self, limit: int = 100, status: str | None = None) -> list[dict]:
        """The server's newest deliveries (of the last KEEP_DELIVERIES), newest first, as
        `deliveries` shows them with `game_id`; only those of `status` (one of
        DELIVERY_STATUSES) when given: `failed` lists what no retry will bring."""
        with backend_errors():
            members = self.client.zrevrange(RECENT_KEY, 0, KEEP_DELIVERIES - 1)
        pairs = [tuple(member.decode().split(" ", 1)) for member in members]
        rows = self._rows(pairs)
        return [row for row in rows if status is None or row["status"] == status][:limit]

    def _rows(self, pairs: list[tuple[str, str]]) -> list[dict]:
        """The shown delivery records of (game id, delivery id) pairs, in one round trip; a
        record gone with its game (retention) is left out."""
        with backend_errors():
            pipe = self.client.pipeline(transaction=False)
            for game_id, delivery_id in pairs:
                pipe.hgetall(_delivery_key(game_id, delivery_id))
            rows = pipe.execute()
        return [{"game_id": game_id, **_shown({k.decode(): v.decode() for k, v in row.items()})}
                for (game_id, _), row in zip(pairs, rows) if row]


def _shown(row: dict) -> dict:
    def ms(name: str) -> str | None:
        return rfc3339(int(row[name])) if row.get(name) else None
    code = row.get("last_status_code")
    return {"delivery_id": row["delivery_id"], "webhook_id": row["webhook_id"],
            "type": row["type"], "target_url": row["url"], "status": row["status"],
            "attempts": int(row["attempts"]), "last_status_code": int(code) if code else None,
            "last_error": row.get("last_error") or None, "created": ms("created_ms"),
            "last_attempt": ms("last_attempt_ms"), "next_retry": ms("next_retry_ms"),
            "delivered": ms("delivered_ms")}
