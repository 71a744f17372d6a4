"""The README's webhook receiver runs as written (issue 8 "Done when": a webhook receiver
example): signed as the service signs (service.webhooks), a delivery is taken once and a retry
with the same webhook-id is not told twice; a bad signature is a 400."""
import base64
import json
import pathlib
import re
from datetime import datetime, timezone

from standardwebhooks.webhooks import Webhook

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
SECRET = "whsec_" + base64.b64encode(b"a readme receiver's secret 32 b!").decode()


def receiver_block() -> str:
    section = README.read_text().split("## Players, inbox, webhooks", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def signed(webhook_id: str, body: str, secret: str = SECRET) -> dict:
    """The headers service.webhooks.WebhookOutbox sends with `body`."""
    now = datetime.now(timezone.utc)
    return {"webhook-id": webhook_id, "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": Webhook(secret).sign(webhook_id, now, body),
            "content-type": "application/json"}


def test_the_readmes_receiver_takes_each_delivery_once_and_refuses_a_bad_signature(monkeypatch):
    monkeypatch.setenv("RUMMY_WEBHOOK_SECRET", SECRET)
    told = []
    namespace = {"__name__": "__main__", "notify": lambda *args: told.append(args)}
    exec(compile(receiver_block(), "README.md", "exec"), namespace)
    client = namespace["app"].test_client()
    body = json.dumps({"type": "seat.awaited", "timestamp": "2026-12-01T06:00:00.000Z", "data": {
        "game_id": "9f0c2d41aa17e3b5", "version": 3, "seat": 0, "player_id": "user-8c1f",
        "phase": "draw", "deadline": "2026-12-01T06:01:00.000Z"}})
    webhook_id = "msg_9f0c2d41aa17e3b5_3_seat.awaited_0"
    for _ in range(2):  # a delivery, then its retry
        answer = client.post("/rummy", data=body, headers=signed(webhook_id, body))
        assert answer.status_code == 204
    assert told == [("user-8c1f", "9f0c2d41aa17e3b5", "2026-12-01T06:01:00.000Z")]
    other = "whsec_" + base64.b64encode(b"x" * 32).decode()
    forged = client.post("/rummy", data=body, headers=signed("msg_x", body, other))
    assert forged.status_code == 400 and len(told) == 1
