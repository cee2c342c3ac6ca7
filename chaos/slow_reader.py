#!/usr/bin/env python3
"""The "slow reader" fault of the ownership starvation run (issue 19): other clients downloading a large object
from the S3 server and reading it slowly, the way a store busy serving other clients' downloads answers late.

S3Mock 5.2.0 streams every GET's body on Spring MVC's async executor, which is Spring Boot's `applicationTaskExecutor`
(a ThreadPoolTaskExecutor: `spring.task.execution.pool.core-size`, 8 by default, and an unbounded queue, so it never
grows past the core size). Each slow download holds one of those threads while the server's blocking write waits for
the reader's small receive window; with as many slow readers as threads, every other GET's body waits in the queue
while the request thread goes on serving requests, PUTs among them. A GET whose metadata (ETag, Content-Length) was
read before a PUT of the same object and whose body streams after it is torn (chaos/tear_probe.py counts them).

Each reader downloads one copy after another (see Reader), each holding its thread for a hold drawn from `hold` ms;
the next request is sent shortly before a hold ends, so the thread stays busy, and other GETs' bodies queued before
it stream in the short gap. Another GET's body so waits from nothing to about two holds. Each download connects with
a 4 KiB receive buffer and drains 1 KiB every 50 ms; the object (8 MiB) is far larger than what the socket buffers
take in a hold, so the server's write blocks for the whole hold, and fails when the reader closes.

Usage: chaos/slow_reader.py ENDPOINT BUCKET [readers=1] [hold=200-600] [seconds=60] [trace=off|on]
Writes only the object slow-reader/big of BUCKET. Prints one summary line at the end (or on SIGTERM), and with
trace=on one line as each hold begins.
"""
import http.client
import random
import signal
import socket
import sys
import threading
import time
from urllib.parse import urlparse

BIG_KEY = "slow-reader/big"
BIG_SIZE = 8 * 1024 * 1024


def ensure_big_object(host, port, bucket):
    """PUTs the large object unless it is there already."""
    path = f"/{bucket}/{BIG_KEY}"
    c = http.client.HTTPConnection(host, port, timeout=60)
    c.request("HEAD", path)
    r = c.getresponse()
    r.read()
    if r.status == 200:
        c.close()
        return
    c.request("PUT", path, body=b"x" * BIG_SIZE, headers={"Content-Type": "application/octet-stream"})
    r = c.getresponse()
    r.read()
    c.close()
    if r.status != 200:
        raise RuntimeError(f"slow-reader: PUT {path} answered {r.status}")


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.downloads = 0
        self.held_ms = 0
        self.waited_ms = []
        self.errors = 0
        self.started = time.time()

    def line(self, readers):
        waits = sorted(self.waited_ms) or [0]
        elapsed = max(time.time() - self.started, 0.001)
        return (f"slow-reader: downloads={self.downloads} held={self.held_ms / 1000:.1f}s"
                f" ({100 * self.held_ms / 1000 / elapsed / readers:.0f}% of the time per reader)"
                f" errors={self.errors} wait-for-body-thread-ms p50={waits[len(waits) // 2]} max={waits[-1]}")


class Reader:
    """One slow reader: downloads one after another, each holding a body thread for a hold drawn from `hold` ms.
    The next download's request is sent `lead` ms before the current one ends, so that it waits in the body queue
    when the thread is freed and the thread stays busy (other bodies queued before it run first, in the gap)."""

    def __init__(self, host, port, bucket, hold, stop_at, stats, trace, lead_ms=100):
        self.host, self.port, self.hold, self.stop_at, self.stats = host, port, hold, stop_at, stats
        self.trace, self.lead = trace, lead_ms / 1000
        self.request = (f"GET /{bucket}/{BIG_KEY} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                        f"Connection: close\r\n\r\n").encode()

    def _send(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(10)
        s.connect((self.host, self.port))
        s.sendall(self.request)
        return s, time.time()

    def _drain_until(self, s, until):
        while time.time() < until:
            time.sleep(min(0.05, max(until - time.time(), 0)))
            s.recv(1024)

    def run(self):
        current = None
        while time.time() < self.stop_at:
            try:
                if current is None:
                    current = self._send()
                s, sent = current
                if not s.recv(1):
                    raise ConnectionError("closed before the body")
                began = time.time()
                hold = random.uniform(*self.hold) / 1000
                end = min(began + hold, self.stop_at)
                if self.trace:
                    print(f"hold {time.strftime('%H:%M:%S', time.localtime(began))}.{int(began * 1000) % 1000:03d}"
                          f" {int((end - began) * 1000)}ms", flush=True)
                self._drain_until(s, end - self.lead)
                following = self._send() if end < self.stop_at else None
                self._drain_until(s, end)
                s.close()
                with self.stats.lock:
                    self.stats.downloads += 1
                    self.stats.held_ms += int((time.time() - began) * 1000)
                    self.stats.waited_ms.append(int((began - sent) * 1000))
                current = following
            except OSError:
                with self.stats.lock:
                    self.stats.errors += 1
                if current is not None:
                    current[0].close()
                current = None
                time.sleep(0.2)
        if current is not None:
            current[0].close()


def run_readers(host, port, bucket, readers, hold, stop_at, stats, trace=False):
    """Runs `readers` slow readers until stop_at (epoch seconds); returns their threads. With trace, prints the time
    and length of each hold as it begins."""
    threads = [threading.Thread(target=Reader(host, port, bucket, hold, stop_at, stats, trace).run, daemon=True)
               for _ in range(readers)]
    for t in threads:
        t.start()
    return threads


def span(text):
    lo, hi = (int(x) for x in text.split("-"))
    return lo, hi


def main():
    endpoint, bucket = sys.argv[1], sys.argv[2]
    opts = dict(a.split("=", 1) for a in sys.argv[3:])
    readers = int(opts.get("readers", 1))
    hold = span(opts.get("hold", "200-600"))
    seconds = float(opts.get("seconds", 60))
    trace = opts.get("trace", "off") == "on"
    url = urlparse(endpoint)
    stats = Stats()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    ensure_big_object(url.hostname, url.port, bucket)
    run_readers(url.hostname, url.port, bucket, readers, hold, time.time() + seconds, stats, trace)
    done.wait(seconds + 1)
    print(stats.line(readers), flush=True)


if __name__ == "__main__":
    main()
