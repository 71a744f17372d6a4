"""A webhook receiver for the webhook tests and benchmark: a threaded `http.server` on
127.0.0.1 that verifies each delivery's signature with the `standardwebhooks` package, dedupes
by `webhook-id` as a receiver must (docs/players.md), and can refuse the first attempts of each
webhook with a 503 (a receiver that is down, then recovers)."""
from __future__ import annotations

import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Receiver:
    """Listen on a free port of 127.0.0.1 (`url`) until `close`. `secret`: the webhook secret
    (`whsec_...`); `fail_first`: how many attempts of each webhook-id to refuse first.
    `accepted`: webhook-id -> (payload, ms since the epoch when first accepted), each once;
    `attempts`: webhook-id -> attempts received; `duplicates`: deliveries of an id accepted
    before; `invalid`: deliveries whose signature did not verify (answered 400)."""

    def __init__(self, secret: str, fail_first: int = 0) -> None:
        self.webhook, self.fail_first = Webhook(secret), fail_first
        self.accepted: dict[str, tuple[dict, int]] = {}
        self.attempts: Counter[str] = Counter()
        self.duplicates = 0
        self.invalid = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(receiver.take(body, dict(self.headers.items())))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self, body: bytes, headers: dict) -> int:
        """The status answered to one delivery (see the class docstring)."""
        now = int(time.time() * 1000)
        webhook_id = {k.lower(): v for k, v in headers.items()}.get("webhook-id", "")
        with self._changed:
            self.attempts[webhook_id] += 1
            if self.attempts[webhook_id] <= self.fail_first:
                return 503
            try:
                payload = self.webhook.verify(body, headers)
            except (WebhookVerificationError, ValueError, json.JSONDecodeError):
                self.invalid += 1
                return 400
            if webhook_id in self.accepted:
                self.duplicates += 1
            else:
                self.accepted[webhook_id] = (payload, now)
            self._changed.notify_all()
            return 204

    def wait_for(self, done, timeout_s: float) -> bool:
        """Wait until `done(accepted)` is true (checked at each accepted delivery); False
        after `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not done(self.accepted):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
            return True

    def close(self) -> None:
        """Stop listening."""
        self.server.shutdown()
        self.server.server_close()
