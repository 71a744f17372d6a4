"""The access log of gunicorn as deployed (deploy/gunicorn.conf.py, ``EscapingLogger``): a
path's control characters cannot forge a log line, and no query string is written."""
from __future__ import annotations

import time
import urllib.error
import urllib.request

FORGED = "2026-12-01 12:56:00,000 service.games appended game=deadbeef events=FORGED"


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def logged(api_log, marker: str) -> list[str]:
    """The lines of the API's log holding ``marker`` (waits up to 5 s for the first)."""
    deadline = time.monotonic() + 5
    while True:
        lines = [line for line in api_log.read_text().splitlines() if marker in line]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_a_path_with_control_characters_logs_one_escaped_line(api_url, api_log):
    forged = FORGED.replace(" ", "%20")
    status = get(f"{api_url}/v1/games/mark1%0a{forged}%0d%00%E2%80%AEend%22q%5C?ticket=SECRET1")
    assert status == 404
    lines = logged(api_log, "mark1")
    assert len(lines) == 1, lines
    assert '/v1/games/mark1\\x0a2026-12-01 12:56:00,000' in lines[0]
    assert 'FORGED\\x0d\\x00\\u202eend\\"q\\\\ HTTP/1.1" 404' in lines[0]
    assert not any(line.startswith("2026-12-01 12:56:00,000") for line in
                   api_log.read_text().splitlines())
    assert "SECRET1" not in api_log.read_text() and "\u202e" not in api_log.read_text()


def test_a_path_of_utf8_letters_logs_as_they_read(api_url, api_log):
    assert get(f"{api_url}/v1/games/mark2-%C3%A9t%C3%A9%FF") == 404
    assert "/v1/games/mark2-été\\xff HTTP/1.1" in logged(api_log, "mark2")[0]
