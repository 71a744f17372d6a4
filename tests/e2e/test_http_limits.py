"""The limits of a request as a client meets them through gunicorn (issue 7 items 4 and 6): a
game creation's body over 64 KiB (api.parsing.SMALL_BODY_BYTES) is a 413 whatever its framing
(`Content-Length` or `Transfer-Encoding: chunked`), never a truncated body acted on."""
from __future__ import annotations

import json
import re
import socket
import threading
from urllib.parse import urlsplit

import pytest

from api.parsing import SMALL_BODY_BYTES as LIMIT

SEATS = [{"kind": "bot", "level": "basic"}] * 4


def raw_request(base: str, head: str, body_chunks: list[bytes] = ()) -> tuple[int, dict, bytes]:
    """Send `head` (request line and headers, CRLF separated, no blank line) then
    `body_chunks` on a raw socket; return (status, headers, body) of the answer.

    The body is sent from a thread: the server may answer (and stop reading) before the whole
    body is sent, which a client sees as a reset it must tolerate."""
    where = urlsplit(base)
    sock = socket.create_connection((where.hostname, where.port), timeout=30)

    def send() -> None:
        try:
            sock.sendall(head.encode("latin-1") + b"\r\n\r\n")
            for chunk in body_chunks:
                sock.sendall(chunk)
        except OSError:  # the server answered early and closed: its answer is still read
            pass

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    reply = sock.makefile("rb")
    try:
        status_line = reply.readline().decode("latin-1")
        headers: dict[str, str] = {}
        while (line := reply.readline().decode("latin-1").strip()):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        body = reply.read(length)
    finally:
        sender.join(30)
        sock.close()
    return int(status_line.split()[1]), headers, body


def chunked(data: bytes, size: int = 64 * 1024) -> list[bytes]:
    """`data` framed as HTTP/1.1 chunks (RFC 9112 §7.1), with the last chunk."""
    frames = [b"%x\r\n%s\r\n" % (len(part), part)
              for part in (data[i:i + size] for i in range(0, len(data), size))]
    return frames + [b"0\r\n\r\n"]


def game_body(size: int) -> bytes:
    """A valid game creation body padded with spaces to `size` bytes (still valid JSON)."""
    body = json.dumps({"seats": SEATS}).encode()
    return body + b" " * (size - len(body))


def game_count(client) -> int:
    return len(client.get("/v1/games?limit=100").json()["items"])


@pytest.mark.parametrize("framing", ["chunked", "content-length"])
def test_a_body_over_the_limit_is_refused_whatever_its_framing(client, framing):
    before = game_count(client)
    body = game_body(LIMIT + 64 * 1024)
    host = urlsplit(client.base).netloc
    if framing == "chunked":
        head = (f"POST /v1/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                f"\r\nTransfer-Encoding: chunked\r\nConnection: close")
        frames = chunked(body)
    else:
        head = (f"POST /v1/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
                f"\r\nContent-Length: {len(body)}\r\nConnection: close")
        frames = [body]
    status, headers, answer = raw_request(client.base, head, frames)
    assert status == 413, answer[:300]
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(answer)["status"] == 413
    assert game_count(client) == before


@pytest.mark.parametrize("size", [LIMIT - 100, LIMIT])
def test_a_chunked_body_within_the_limit_is_read_whole(client, size):
    host = urlsplit(client.base).netloc
    head = (f"POST /v1/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
            f"\r\nTransfer-Encoding: chunked\r\nConnection: close")
    status, _, answer = raw_request(client.base, head, chunked(game_body(size)))
    assert status == 201, answer[:300]


@pytest.mark.parametrize("path, frames", [
    ("/v1/games", [b"zz\r\n"]),                            # a chunk size that is no number
    ("/v1/games/join", [b"-1\r\n"]),
    ("/v1/games", [b"2;\x00\r\nab\r\n0\r\n\r\n"]),      # a chunk extension with a NUL
    ("/v1/games", [b"2\r\nabXY0\r\n\r\n"]),              # a chunk without its CRLF
], ids=["size", "negative-size", "extension", "terminator"])
def test_a_body_whose_chunks_cannot_be_read_is_a_400_problem(client, path, frames):
    """The newcomer tester's: each was a 500 (gunicorn's parse errors were not handled)."""
    before = game_count(client)
    host = urlsplit(client.base).netloc
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
            f"\r\nTransfer-Encoding: chunked\r\nConnection: close")
    status, headers, answer = raw_request(client.base, head, frames)
    assert status == 400, answer[:300]
    assert "chunked framing" in problem_of(400, headers, answer)["detail"]
    assert game_count(client) == before


def problem_of(status: int, headers: dict, body: bytes) -> dict:
    """The problem+json body of an error answer (fails on any other media type)."""
    assert headers["content-type"] == "application/problem+json", body[:200]
    problem = json.loads(body)
    assert problem["status"] == status and problem["type"].startswith("/docs/problems#")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", headers["server-time"])
    return problem


def test_a_request_line_too_long_for_the_server_is_a_problem(client):
    host = urlsplit(client.base).netloc
    head = f"GET /v1/games/{'x' * 9000} HTTP/1.1\r\nHost: {host}\r\nConnection: close"
    status, headers, body = raw_request(client.base, head)
    assert status == 414
    assert "request line" in problem_of(414, headers, body)["detail"]


@pytest.mark.parametrize("extra", [f"X-Big: {'y' * 9000}",
                                   "\r\n".join(f"X-Many-{n}: 1" for n in range(120))])
def test_header_fields_too_large_for_the_server_are_a_problem(client, extra):
    host = urlsplit(client.base).netloc
    head = f"GET /v1/games HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}"
    status, headers, body = raw_request(client.base, head)
    assert status == 431
    problem_of(431, headers, body)


def test_a_request_line_gunicorn_cannot_read_is_a_problem(client):
    status, headers, body = raw_request(client.base, "GET /v1/games HTTP/9.9\r\nHost: x")
    assert status == 400
    problem_of(400, headers, body)
