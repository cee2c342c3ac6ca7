#!/usr/bin/env python3
"""Counts torn GETs of an S3 server (issue 19): answers whose body is not the version their ETag names.

S3Mock 5.2.0 reads a GET's ETag and Content-Length on its request thread and streams the body later on Spring MVC's
async executor (`StreamingResponseBody`), from the data file that a PUT served in between may have replaced. The
ETag of a simple PUT is the MD5 of its body, so an answer is torn when MD5(body) differs from its ETag.

One writer writes a new version of one object every 100 to 300 ms (like a join: a raised sequence number in the
head and one more line at the end); `readers` threads GET it in a loop. With `slow=N`, N other clients download a
large object and read it slowly (chaos/slow_reader.py, the starvation run's fault), holding N of the
store's body-streaming threads the way a store busy serving other clients' downloads does. Prints one line: GETs,
torn, short (fewer bytes than Content-Length), errors, and the slow readers' figures.

Usage: chaos/tear_probe.py ENDPOINT BUCKET [seconds=30] [readers=3] [slow=0] [hold=200-600]
Writes only the objects tear-probe/reg and slow-reader/big of BUCKET.
"""
import hashlib
import http.client
import os
import random
import sys
import threading
import time
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slow_reader  # noqa: E402


def main():
    endpoint, bucket = sys.argv[1], sys.argv[2]
    opts = dict(a.split("=", 1) for a in sys.argv[3:])
    seconds = float(opts.get("seconds", 30))
    readers = int(opts.get("readers", 3))
    slow = int(opts.get("slow", 0))
    hold = opts.get("hold", "200-600")
    url = urlparse(endpoint)
    host, port = url.hostname, url.port
    reg = f"/{bucket}/tear-probe/reg"
    stop_at = time.time() + seconds
    counts = {"gets": 0, "torn": 0, "short": 0, "errors": 0, "puts": 0}
    latencies = []
    lock = threading.Lock()

    def put(path, body):
        c = http.client.HTTPConnection(host, port, timeout=10)
        c.request("PUT", path, body=body, headers={"Content-Type": "application/octet-stream"})
        r = c.getresponse()
        r.read()
        c.close()
        if r.status != 200:
            raise RuntimeError(f"PUT {path}: {r.status}")

    def encode(seq, members):
        # Like a registry: a join raises the sequence number in the head and appends a member line, so a body cut
        # at the old length differs from the old version (an append alone would cut back to the old bytes exactly).
        lines = b"".join(b"member 1 1 3000 m-%06d m-%06d%%231 m-%06d%%231%%3A0\n" % (m, m, m) for m in members)
        return b"hoplock-registry 1\nseq %09d\n" % seq + lines

    put(reg, encode(1, []))

    def writer():
        seq, members = 1, []
        while time.time() < stop_at:
            time.sleep(random.uniform(0.1, 0.3))
            seq += 1
            members = members + [seq] if len(members) < 40 else []
            try:
                put(reg, encode(seq, members))
                with lock:
                    counts["puts"] += 1
            except Exception:
                with lock:
                    counts["errors"] += 1

    def reader():
        while time.time() < stop_at:
            try:
                c = http.client.HTTPConnection(host, port, timeout=10)
                asked = time.time()
                c.request("GET", reg)
                r = c.getresponse()
                etag = (r.getheader("ETag") or "").strip('"')
                try:
                    body = r.read()
                    kind = "gets" if hashlib.md5(body).hexdigest() == etag else "torn"
                except http.client.IncompleteRead:
                    kind = "short"
                c.close()
                with lock:
                    latencies.append(int((time.time() - asked) * 1000))
                    counts["gets"] += 1
                    if kind != "gets":
                        counts[kind] += 1
            except Exception:
                with lock:
                    counts["errors"] += 1
            time.sleep(random.uniform(0.02, 0.08))

    threads = [threading.Thread(target=writer, daemon=True)]
    threads += [threading.Thread(target=reader, daemon=True) for _ in range(readers)]
    if slow > 0:
        slow_reader.ensure_big_object(host, port, bucket)
        slow_stats = slow_reader.Stats()
    for t in threads:
        t.start()
    if slow > 0:
        threads += slow_reader.run_readers(host, port, bucket, slow, slow_reader.span(hold), stop_at, slow_stats)
    for t in threads:
        t.join(seconds + 30)
    print(f"tear-probe: slow={slow} hold={hold} {seconds:.0f} s: puts={counts['puts']} gets={counts['gets']} "
          f"torn={counts['torn']} short={counts['short']} errors={counts['errors']}"
          f" get-ms p50={sorted(latencies or [0])[len(latencies) // 2]} max={max(latencies or [0])}"
          + (f"; {slow_stats.line(slow)}" if slow > 0 else ""))


if __name__ == "__main__":
    main()
