#!/usr/bin/env python3
"""Slow-header (slowloris) connections against a real edge: its memory and descriptors.

Starts a small origin and the edge on free loopback ports, then one client (127.0.0.1)
opens CONNECTIONS connections that each send a request line and then a header byte every
--every seconds, never finishing the head, and opens a new one whenever the edge closes one
(as a slowloris keeps its count up; at most 100 a second). It prints the edge's RSS (VmRSS, /proc/PID/status) and
open descriptors (/proc/PID/fd) before, during and after, with the load average, the
attacker's open connections, and whether a normal client (127.0.0.2) is answered meanwhile.

    edge/bench/slow-headers.py [--debug] [--connections 3000] [--hold 30] [--before]

--before runs the edge with the settings off (EDGE_HEADER_TIMEOUT_MS=0,
EDGE_MAX_CONNECTIONS_PER_CLIENT=0: Pingora's own handling, as before the fix). Otherwise
the edge has its defaults plus EDGE_LIMIT_LOOPBACK=true, so that this loopback client is
capped as a remote one would be (loopback is exempt by default). Extra EDGE_* variables in
the environment reach the edge. Everything is bounded: the attack lasts --hold seconds, each
normal request 5 s, the edge is killed at the end. Loopback only.
"""

import argparse
import http.client
import http.server
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page(http.server.BaseHTTPRequestHandler):
    """The origin: one small public page for every path."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"<!doctype html><title>page</title><p>" + self.path.encode() + b"\n"
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("cache-control", "public, max-age=60")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def edge_figures(pid):
    rss_kb = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss_kb / 1024, fds


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def normal_get(port):
    """A shopper's request from another address: (status or error, milliseconds)."""
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=("127.0.0.2", 0))
        conn.request("GET", "/p/normal", headers={"Host": "localhost"})
        status = conn.getresponse().status
        conn.close()
    except OSError as e:
        status = type(e).__name__
    return status, (time.monotonic() - start) * 1000


# Connections opened again per round (a second by default) after the edge closed some.
REOPEN_PER_ROUND = 100

HEAD_START = b"GET /p/slow HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slowloris\r\n"


class Attacker:
    """CONNECTIONS slow connections, kept up: a closed one is opened again."""

    def __init__(self, port, count):
        self.port, self.count = port, count
        self.socks = []
        self.opened = self.closed_by_edge = self.refused = 0

    def open_one(self):
        s = socket.socket()
        s.setblocking(True)
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", self.port))
            s.sendall(HEAD_START)
        except OSError:
            self.refused += 1
            s.close()
            return
        s.setblocking(False)
        self.socks.append(s)
        self.opened += 1

    def top_up(self, at_most):
        """Open connections again up to the count, at most `at_most` now (refused ones
        would otherwise make this a connection flood, and use up the loopback's ports)."""
        for _ in range(min(at_most, self.count - len(self.socks))):
            self.open_one()

    def trickle(self):
        """One header byte on every connection; drop those the edge closed."""
        alive = []
        for s in self.socks:
            try:
                if s.recv(4096) == b"":
                    raise ConnectionResetError
            except BlockingIOError:
                pass
            except OSError:
                self.closed_by_edge += 1
                s.close()
                continue
            try:
                s.send(b"X")
                alive.append(s)
            except OSError:
                self.closed_by_edge += 1
                s.close()
        self.socks = alive

    def close_all(self):
        for s in self.socks:
            s.close()
        self.socks = []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debug", action="store_true", help="the debug build (default: release)")
    parser.add_argument("--connections", type=int, default=3000)
    parser.add_argument("--hold", type=int, default=30, help="seconds the attack lasts")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between header bytes")
    parser.add_argument("--before", action="store_true", help="the settings off (Pingora's own handling)")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.connections * 2 + 512
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))

    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/furniture-shop/target"))
    profile = [] if args.debug else ["--release"]
    subprocess.run(["cargo", "build", "--quiet", "-p", "edge", *profile], cwd=ROOT, check=True,
                   env={**os.environ, "CARGO_TARGET_DIR": target})
    binary = os.path.join(target, "debug" if args.debug else "release", "edge")

    origin_port, port, admin = free_port(), free_port(), free_port()
    origin = http.server.ThreadingHTTPServer(("127.0.0.1", origin_port), Page)
    origin.handle_error = lambda request, address: None  # a connection the edge dropped
    threading.Thread(target=origin.serve_forever, daemon=True).start()

    env = {**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "error"), "EDGE_GRACE_PERIOD": "0"}
    if args.before:
        env.update(EDGE_HEADER_TIMEOUT_MS="0", EDGE_MAX_CONNECTIONS_PER_CLIENT="0")
    else:
        env.setdefault("EDGE_LIMIT_LOOPBACK", "true")
    log = open(os.path.join("/tmp", f"slow-headers-edge-{port}.log"), "w")
    edge = subprocess.Popen(
        [binary, "--listen", f"127.0.0.1:{port}", "--admin", f"127.0.0.1:{admin}",
         "--origin", f"http://127.0.0.1:{origin_port}"],
        env=env, stdout=log, stderr=log, start_new_session=True)
    rows = []

    def sample(phase, attacker=None):
        rss, fds = edge_figures(edge.pid)
        status, ms = normal_get(port)
        held = len(attacker.socks) if attacker else 0
        rows.append((phase, rss, fds, held, f"{status} in {ms:.0f} ms", uptime()))
        print(f"{phase:<22} rss {rss:7.1f} MB  fds {fds:5}  attacker's sockets {held:5}  "
              f"normal client {status} in {ms:.0f} ms  | {uptime()}", flush=True)

    try:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if edge.poll() is not None:
                    log.flush()
                    sys.exit(f"the edge exited: {open(log.name).read()[-2000:]}")
                time.sleep(0.1)
        for i in range(20):
            normal_get(port)
        settings = " ".join(f"{k}={v}" for k, v in sorted(env.items()) if k.startswith("EDGE_"))
        print(f"edge pid {edge.pid} on 127.0.0.1:{port}, {settings}; "
              f"{args.connections} slow connections for {args.hold} s, a byte every {args.every} s")
        sample("before")
        attacker = Attacker(port, args.connections)
        start = time.monotonic()
        attacker.top_up(args.connections)
        sample(f"during +{time.monotonic() - start:.0f}s", attacker)
        next_sample = start + 5
        while time.monotonic() - start < args.hold:
            time.sleep(args.every)
            attacker.trickle()
            attacker.top_up(REOPEN_PER_ROUND)
            if time.monotonic() >= next_sample:
                sample(f"during +{time.monotonic() - start:.0f}s", attacker)
                next_sample += 5
        print(f"attacker: {attacker.opened} connections opened, {attacker.closed_by_edge} closed "
              f"by the edge, {attacker.refused} failed to open")
        attacker.close_all()
        time.sleep(3)
        sample("after (+3 s)")
    finally:
        os.killpg(edge.pid, signal.SIGKILL)
        edge.wait(timeout=10)
        origin.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
