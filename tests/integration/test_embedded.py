"""The embedded server (DESIGN §7) never outlives the process that started it."""
import os
import signal
import socket
import subprocess
import sys
import time

STARTER = """
import time
from service.embedded import EmbeddedRedis
print(EmbeddedRedis().start(), flush=True)
time.sleep(60)
"""


def accepts(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_killed_parent_leaves_no_embedded_server_behind():
    parent = subprocess.Popen([sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True)
    port = int(parent.stdout.readline().strip().rsplit(":", 1)[1])
    assert accepts(port)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while accepts(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not accepts(port)
